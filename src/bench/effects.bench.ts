// Proving schedules (spec/effects.md): milliseconds per obligation and per schedule, on the
// example schedules and on a 30-directive schedule of a 12-func pipeline (the Harris example with
// an output func added after it, and its example schedule with the producers split, vectorized,
// unrolled and made parallel too), with Z3's
// start-up kept out of the figures (a first proof warms it).
import { readFileSync } from 'node:fs';
import { loadPipeline } from '../alg-semantics/load.js';
import { shutdownZ3 } from '../expr/smt.js';
import { proveSchedule } from '../fuzz/prove.js';
import { lower } from '../lowering/lower.js';
import { parseSchedule } from '../schedule/parse.js';
import { median, round } from './timing.js';

export const name = 'effects';
export const group = 'core';

/** Directives added to examples/harris.sched (17) to make 30, in phase order: loops before compute and storage. */
const HARRIS_MORE = [
  'split ix.x by 4', 'split iy.x by 4', 'split clamped.x by 4', 'split ixx.x by 2', 'split iyy.x by 2', 'split ixy.x by 2',
  'vectorize ix.xi', 'vectorize iy.xi', 'unroll ixx.xi', 'unroll iyy.xi', 'traverse ix.xo parallel', 'traverse iy.xo parallel', 'traverse clamped.xo parallel',
];

/** examples/harris.sched with HARRIS_MORE inserted after its loop directives. */
function harris30(): string {
  const lines = readFileSync('examples/harris.sched', 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('//'));
  const k = lines.findIndex((l) => l.startsWith('compute-at'));
  return [...lines.slice(0, k), ...HARRIS_MORE, ...lines.slice(k)].join('\n');
}

/** examples/harris.alg (11 funcs) with a twelfth func, `out`, reading `harris`, as the output. */
function harris12(): string {
  const text = readFileSync('examples/harris.alg', 'utf8').replace('pipeline harris()', 'pipeline out()');
  return `${text.slice(0, text.lastIndexOf('}'))}  func out(x, y) = harris(x, y) + harris(x + 1, y);\n}\n`;
}

export async function run(): Promise<object> {
  const out: Record<string, object> = {};
  try {
    for (const [ex, alg, sched] of [['sec22'], ['blur'], ['harris'], ['12-funcs-30-directives', harris12(), harris30()]] as const) {
      const p = loadPipeline(alg ?? readFileSync(`examples/${ex}.alg`, 'utf8'), `${ex}.alg`);
      const s = parseSchedule(sched ?? readFileSync(`examples/${ex}.sched`, 'utf8'), `${ex}.sched`);
      await proveSchedule(lower(p), s);
      const t0 = performance.now();
      const proofs = await proveSchedule(lower(p), s);
      const ms = proofs.flatMap((c) => c.results.map((r) => r.ms));
      out[ex] = {
        directives: proofs.length, funcs: p.funcs.length, obligations: ms.length,
        median_ms_per_obligation: round(median(ms)), schedule_ms: round(performance.now() - t0),
        proved: proofs.filter((c) => c.verdict === 'proved').length,
        ...(sched ? { target_schedule_ms: 2000, target_median_ms_per_obligation: 50 } : {}),
      };
    }
  } finally {
    await shutdownZ3();
  }
  return out;
}
