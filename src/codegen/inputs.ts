// Inputs for `refsem validate --inputs N` (def. 2.1: a window and parameter values), drawn from a
// seed so that a validation run can be repeated exactly.
import type { Input } from '../alg-semantics/ast.js';
import type { Int } from '../expr/value.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { seededRng } from '../rng.js';

/**
 * `n` inputs for `t`: window mins in [-8, 8], extents in [1, 12] (small, so the reference stays fast
 * and ragged vector tails occur; never empty, since an empty window compares no value),
 * parameters in [-16, 16]. `first` (the user's own input) comes first when given.
 */
export function generateInputs(t: TgtProgram, n: number, seed: number, first?: Input): Input[] {
  const rng = seededRng(seed);
  const out: Input[] = first ? [first] : [];
  while (out.length < n) {
    const window = t.window.map((): [Int, Int] => [rng.below(17) - 8, rng.below(12) + 1]);
    const params = new Map<string, Int>(t.params.map((p) => [p, rng.below(33) - 16]));
    out.push({ window, params });
  }
  return out;
}

/** `0+5,-3+4 n=3`: an input as the command line would spell it. */
export function showInput(z: Input): string {
  const w = z.window.map(([m, l]) => `${m}+${l}`).join(',');
  const ps = [...z.params].map(([k, v]) => ` ${k}=${v}`).join('');
  return `window=${w}${ps}`;
}
