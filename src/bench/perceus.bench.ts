// `npm run bench:perceus`: scaled-down ports of the §4.4 benchmarks (plus map and the FBIP
// traversal of fig. 4.3) under every configuration, checks off (the fast path). Reports every count
// of spec/perceus.md [RC-COST] for each run, their sum of RC operations, and heap-machine steps per second.
import { compile } from '../perceus/heap-compile.js';
import { run as runMachine } from '../perceus/heap-machine.js';
import { CONFIGS, annotate } from '../perceus/pipeline.js';
import { loadProgram } from '../perceus/scope.js';
import { rcOps } from '../perceus/stats.js';
import { readExample } from './examples.js';

export const name = 'perceus';
export const group = 'perceus';

/** Benchmark programs and the size each runs at (the `size()` function of the example). */
export const BENCHMARKS: readonly (readonly [string, number])[] = [
  ['rbtree', 100_000],
  ['rbtree-ck', 20_000],
  ['deriv', 8],
  ['nqueens', 8],
  ['cfold', 16],
  ['map', 100_000],
  ['tmap', 100_000],
];

/** The example's source with its size() replaced. */
export function benchmarkSource(bench: string, size: number): string {
  const src = readExample('perceus', `${bench}.lam`);
  return src.replace(/fun size\(\) = \d+/, `fun size() = ${size}`);
}

export async function run(): Promise<object> {
  const table: Record<string, Record<string, object>> = {};
  let steps = 0;
  let ms = 0;
  for (const [bench, size] of BENCHMARKS) {
    const core = loadProgram(benchmarkSource(bench, size), `${bench}.lam`);
    table[bench] = {};
    for (const c of CONFIGS) {
      const compiled = compile(annotate(core, c), c.formal ?? false);
      const t0 = performance.now();
      const r = runMachine(compiled, { maxSteps: 2_000_000_000 });
      const dt = performance.now() - t0;
      if (r.stop) throw new Error(`${bench}/${c.name}: ${r.stop.kind}`);
      steps += r.stats.steps;
      ms += dt;
      table[bench]![c.name] = { ...r.stats, rcOps: rcOps(r.stats), ms: Math.round(dt), result: typeof r.value === 'object' ? 'cell' : String(r.value) };
    }
  }
  return { stepsPerSecond: Math.round((steps / ms) * 1000), totalSteps: steps, totalMs: Math.round(ms), sizes: Object.fromEntries(BENCHMARKS), table };
}
