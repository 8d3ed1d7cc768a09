// Lowering and its checks: pipelines lowered per second (the 3-func blur and a 100-func chain with
// update stages), lemma 2.4 + 2.5 checks per second on the lowered chain (directives run them after
// every rewrite in tests), and window points compared per second by compareOutputs (512×512).
import { type Value, int } from '../expr/value.js';
import type { Realization } from '../alg-semantics/fast-eval.js';
import { loadPipeline } from '../alg-semantics/load.js';
import { lower } from '../lowering/lower.js';
import { checkDominance, checkLoopNaming } from '../lowering/invariants.js';
import { compareOutputs } from '../lowering/equivalence.js';
import type { Outcome } from '../target-semantics/outcome.js';
import { loadBlur } from './examples.js';
import { opsPerSecond, round } from './timing.js';

export const name = 'lowering';
export const group = 'core';

/** f0 … f99, each reading its predecessor, with one rdom update each. */
const CHAIN = `pipeline f99(n) {\n${Array.from({ length: 100 }, (_, i) =>
  `  func f${i}(x, y) { ${i === 0 ? 'x + y' : `f${i - 1}(x, y) + f${i - 1}(x + 1, y)`}; rdom(r = (0, n)) in (x, r) <- f${i}(x, r) + r; }`).join('\n')}\n}`;

export async function run(): Promise<object> {
  const blur = loadBlur();
  const chain = loadPipeline(CHAIN, 'chain.alg');
  const lowered = lower(chain);
  const n = 512;
  const values: Value[] = Array.from({ length: n * n }, (_, i) => int(i % 251));
  const alg: Realization = { func: 'f', window: [[0, n], [0, n]], values };
  const run: Outcome = { kind: 'done', steps: 0, output: { func: 'f', dims: [{ dim: 'x', min: 0, len: n }, { dim: 'y', min: 0, len: n }], data: values } };
  const window = [[0, n], [0, n]] as const;
  return {
    blur_lowerings_per_s: round(opsPerSecond(() => void lower(blur), 1)),
    chain100_lowerings_per_s: round(opsPerSecond(() => void lower(chain), 1)),
    chain100_invariant_checks_per_s: round(opsPerSecond(() => void (checkLoopNaming(lowered), checkDominance(lowered, chain)), 1)),
    compare_points_per_s: round(opsPerSecond(() => void compareOutputs(alg, run, window), n * n)),
  };
}
