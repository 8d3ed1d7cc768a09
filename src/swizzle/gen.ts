// Random small sketches for the `swizzle-prune` property (spec/swizzle.md, [SWZ-PRUNE-SOUND]):
// a literal reshaped to two dimensions, a few holes of the grammar's sets, sometimes a second
// literal sharing a symbol (the universe caveat of the seed's §4), weights stacked and folded, a
// final fold; the goal is what a random filling computes, so a solution always exists.
import type { Rng } from '../rng.js';
import type { SwzProgram } from './ast.js';
import { evaluate } from './eval.js';
import { parseSwizzle } from './parse.js';
import { printSwizzle } from './print.js';

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.below(xs.length)]!;

/** The text of a sketch with a goal: at most a few thousand fillings, so exhaustive search is cheap. */
export function randomSketch(rng: Rng): string {
  const a = 2 + rng.below(3);
  const b = 1 + rng.below(3);
  const lines = [`x: [${a * b}] = iota(x, ${a * b})`, `m0: [${a}, ${b}] = reshape(x)`];
  let cur = 'm0';
  let n = 0;
  let space = 1;
  const holes = 1 + rng.below(3);
  for (let h = 0; h < holes; h++) {
    const name = `m${++n}`;
    const row = b > 1 && rng.below(2) === 0;
    const sets = row
      ? ['?rots{main=1, second=0, out=1}', '?xforms{main=1, second=0, out=1, level=1}', '?cond_keep{consts=[0, 1]}']
      : ['?rots{main=0, second=1, out=0}', '?xforms{main=0, second=1, out=0, level=1}', '?cond_keep{consts=[0, 1]}'];
    const set = pick(rng, space > 200 ? [sets[0]!, sets[0]!, sets[2]!] : sets);
    space *= set.startsWith('?rots') ? 2 * a : 24;
    lines.push(`${name}: [${a}, ${b}] = ${set}(${cur})`);
    cur = name;
  }
  const tail = rng.below(4);
  if (tail === 1 || tail === 3) {
    // weights: a second literal, sometimes sharing x0 with the first
    const ws = Array.from({ length: b }, (_, j) => (j === 0 && rng.below(2) === 0 ? 'x0' : `w${j}`));
    lines.push(`w1: [${b}] = [${ws.join(', ')}]`, `w: [${a}, ${b}] = broadcast(w1)`, `p: [${a}, ${b}, 2] = stack(${cur}, w)`, `q: [${a}, ${b}] = fold p`);
    cur = 'q';
    if (space <= 24 && rng.below(2) === 0) {
      // a hole after a fold: the products must already be in place, as in the multiplications
      lines.push(`k: [${a}, ${b}] = ?cond_keep{consts=[0, 1]}(q)`);
      cur = 'k';
    }
  }
  if (tail >= 2 && b > 1) {
    lines.push(`s: [${a}] = fold ${cur}`);
    cur = 's';
  }
  const sketch = parseSwizzle(`${lines.join('\n')}\n`, 'sketch');
  const filling = sketch.stmts.flatMap((s) => (s.rhs.k === 'gather' && s.rhs.hole !== undefined ? [rng.below(s.rhs.choices.length)] : []));
  const vals = evaluate(sketch, filling);
  const last = sketch.stmts[sketch.stmts.length - 1]!;
  const withGoal: SwzProgram = { ...sketch, goal: { stmt: sketch.stmts.length - 1, terms: vals[vals.length - 1]!, loc: last.loc } };
  return printSwizzle(withGoal);
}
