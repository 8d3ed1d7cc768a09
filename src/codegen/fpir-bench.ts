// The seed's fixed-point benchmarks as refsem programs (spec/fpir.md, [FPIR-BENCH]): each kernel of
// examples/fpir/ compiled two ways into one program — refsem's lifted and selected intrinsics, and
// the same integer code as plain C for the system compiler's auto-vectorizer at -O3 -march=native
// (the stand-in for the seed's LLVM baseline, §5) — both checked lane by lane against the
// interpreter on boundary-biased random inputs, and timed: the best of `runs` runs of `repeat`
// calls each, the two versions alternating inside every run, one thread.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { varsOf } from '../fpir/ast.js';
import { emitPortable } from '../fpir/emit-portable.js';
import { randomLanes } from '../fpir/gen.js';
import type { Target } from '../fpir/intrinsics.js';
import { lift } from '../fpir/lift.js';
import { LANES } from '../fpir/lower-rules.js';
import { parseFpir } from '../fpir/parse.js';
import { printFpir } from '../fpir/print.js';
import { selectInstructions, summarize } from '../fpir/select.js';
import { seededRng } from '../rng.js';
import { type RunItem, runSelectedAll } from './fpir-run.js';

export interface KernelResult {
  readonly kernel: string;
  readonly lifted: string;
  readonly intrinsics: readonly string[];
  /** both versions equal the interpreter on every lane */
  readonly equal: boolean;
  readonly detail?: string;
  readonly selectedNsPerLane: number;
  readonly portableNsPerLane: number;
  /** portable time over selected time: above 1, refsem's selection is faster */
  readonly speedup: number;
}

export interface BenchOptions {
  readonly target?: Target;
  readonly lanes?: number;
  readonly repeat?: number;
  readonly runs?: number;
  readonly seed?: number;
}

/** The kernels of a directory (every `.fpir` file), by name. */
export function kernelsIn(dir: string): { name: string; text: string; file: string }[] {
  return readdirSync(dir).filter((f) => f.endsWith('.fpir')).sort().map((f) => ({ name: basename(f, '.fpir'), text: readFileSync(join(dir, f), 'utf8'), file: join(dir, f) }));
}

/** Pitchfork's geometric-mean speed-up over LLVM on x86 AVX2 (§5, fig. 5). */
export const SEED_AVX2_GEOMEAN = 1.31;

export const geomean = (xs: readonly number[]): number => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / Math.max(1, xs.length));

export async function benchKernels(kernels: readonly { name: string; text: string; file: string }[], o: BenchOptions = {}): Promise<KernelResult[]> {
  const target = o.target ?? 'avx2';
  const lanes = o.lanes ?? 1 << 14;
  if (lanes % LANES[target] !== 0) throw new Error(`lanes must be a multiple of ${LANES[target]}`);
  const items: RunItem[] = [];
  const meta = kernels.map((k, i) => {
    const source = parseFpir(k.text, k.file);
    const lifted = lift(source).expr;
    const sel = selectInstructions(lifted, target);
    const env = randomLanes(varsOf(source), lanes, seededRng((o.seed ?? 5) + i));
    items.push({ expr: lifted, sel, target, env }, { expr: source, sel, target, env, fn: emitPortable(source, 'portable', LANES[target]) });
    return { name: k.name, lifted: printFpir(lifted), intrinsics: [...new Set(summarize(sel).intrinsics)] };
  });
  const env = { ...process.env, CFLAGS: `${process.env.CFLAGS ?? ''} -O3 -march=native`.trim() };
  const best = new Array<number>(items.length).fill(Infinity);
  const outcomes: Awaited<ReturnType<typeof runSelectedAll>>[] = [];
  for (let r = 0; r < (o.runs ?? 3); r++) {
    const out = await runSelectedAll(items, { repeat: o.repeat ?? 200, env });
    out.forEach((x, j) => (best[j] = Math.min(best[j]!, x.ns ?? Infinity)));
    outcomes.push(out);
  }
  return meta.map((m, i) => {
    const [sel, port] = [outcomes[0]![2 * i]!, outcomes[0]![2 * i + 1]!];
    const equal = sel.status === 'agree' && port.status === 'agree';
    const detail = [sel, port].find((x) => x.status !== 'agree')?.detail;
    const [s, p] = [best[2 * i]! / lanes, best[2 * i + 1]! / lanes];
    return { kernel: m.name, lifted: m.lifted, intrinsics: m.intrinsics, equal, ...(detail ? { detail } : {}), selectedNsPerLane: s, portableNsPerLane: p, speedup: p / s };
  });
}
