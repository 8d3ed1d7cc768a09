// Swizzle synthesis benchmarks (spec/swizzle.md; the seed's §5): each sketch of examples/swizzle/
// synthesized for every solution, beside the time the seed reports where its text gives one. CPU
// time is measured with wall time, since the machine is shared.
import { parseSwizzle } from '../swizzle/parse.js';
import { summarize } from '../swizzle/report.js';
import { synthesize } from '../swizzle/synth.js';
import { readExample } from './examples.js';
import { round } from './timing.js';

export const name = 'swizzle';
export const group = 'long';

/** The benchmarks, with the seed's time where its text states one (§5.2: the rest are plotted only). */
const BENCHMARKS: readonly { file: string; gpu: boolean; seed?: string }[] = [
  { file: 'trove-crc-32x3', gpu: true },
  { file: 'trove-rcr-32x3', gpu: true },
  { file: 'trove-sum-32x3', gpu: true },
  { file: 'conv1d-3', gpu: true },
  { file: 'conv1d-5', gpu: true },
  { file: 'stencil2d-3', gpu: true },
  { file: 'stencil2d-5', gpu: true },
  { file: 'stencil2d-7', gpu: true, seed: 'about a minute or two for the largest stencils (§5.2)' },
  { file: 'ffm-4', gpu: true },
  { file: 'ffm-8', gpu: true, seed: 'search 3 s (§5.3)' },
  { file: 'trove-crc-32x5', gpu: true },
  { file: 'trove-rcr-32x5', gpu: true },
  { file: 'trove-sum-32x5', gpu: true },
  { file: 'conv1d-7', gpu: true },
  { file: 'conv1d-9', gpu: true },
  { file: 'conv1d-11', gpu: true },
  { file: 'stencil2d-9', gpu: true, seed: 'a minute or two (§5.2)' },
  { file: 'hvx-gaussian', gpu: false, seed: '0.6 s (§5.2)' },
];

const TIMEOUT_MS = 300_000;

export async function run(): Promise<object> {
  const rows: Record<string, object> = {};
  let ones = 0;
  let gpu = 0;
  let prunedSum = 0;
  for (const b of BENCHMARKS) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const p = parseSwizzle(readExample(`swizzle/${b.file}.swz`), `${b.file}.swz`);
    const r = synthesize(p, { all: true, timeoutMs: TIMEOUT_MS });
    const s = summarize(p, r);
    const wall = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(c0);
    if (b.gpu) {
      gpu++;
      if (s.ineffectiveness === 1) ones++;
    }
    prunedSum += s.pruned;
    rows[b.file] = {
      solved: s.solved,
      complete: s.complete,
      solutions: s.solutions,
      rechecked: s.rechecked,
      wall_s: round(wall),
      cpu_s: round((cpu.user + cpu.system) / 1e6),
      matrices_ms: r.ms.matrices,
      search_ms: r.ms.search,
      states: s.states,
      pruned_percent: round(s.pruned * 100, 6),
      oracle: s.oracle ?? null,
      ineffectiveness: s.ineffectiveness === undefined ? null : round(s.ineffectiveness),
      kept: s.kept,
      oracle_kept: s.oracleKept ?? null,
      kept_ratio: s.keptRatio === undefined ? null : round(s.keptRatio),
      seed_reports: b.seed ?? 'plotted only (Figure 10)',
    };
  }
  return { benchmarks: rows, average_pruned_percent: round((prunedSum / BENCHMARKS.length) * 100, 6), gpu_ineffectiveness_one: `${ones} of ${gpu}` };
}
