// swap(ℓ) (§2.8.2): exchanges a loop with the loop immediately inside it. Lets and split guards
// between the two (made by earlier splits) stay directly around the original body, so that a
// loop nest split in two dimensions can still be reordered (spec/schedule.md, [SWAP]).
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { type ForStmt, loopsOf, replaceInProgram } from '../target-semantics/walk.js';
import { requireDisjointParallel } from './disjoint.js';
import {
  firstValid, innerBoundsUses, isPure, nestedLoop, resolveLoop, rewrap, sameStageNest,
} from './loops.js';
import { type Directive, type LoopWrapper, defineDirective } from './plugin.js';
import { swapObligations } from './obligations.js';

export interface SwapArgs {
  /** The outer of the two loops. */
  readonly loop: string;
}

export const swap: Directive<SwapArgs> = defineDirective<SwapArgs>({
  name: 'swap',
  rule: 'SWAP',
  phase: 'loops',
  summary: 'exchange a loop with the loop immediately inside it',
  obligations: swapObligations,
  params: [{ name: 'loop', type: 'loop' }],
  validate(t, a, ctx) {
    const l = resolveLoop(t, a.loop);
    const { wrappers, inner } = sameStageNest(t, l, 'SWAP-NESTED', 'swap');
    if (!isPure(t, l.stmt.var) && !isPure(t, inner.var)) {
      ctx.reject('SWAP-REDUCTION', `${l.stmt.var} and ${inner.var} are both reduction loops; swapping them would reorder the updates`,
        'only a pure loop may be swapped with a reduction loop (§2.8.2)');
    }
    const uses = innerBoundsUses(l.stmt, wrappers, inner);
    if (uses.length > 0) {
      ctx.reject('SWAP-BOUNDS', `the bounds of ${inner.var} depend on ${uses.join(', ')}, so it cannot move above ${l.stmt.var}`);
    }
    // Moving a parallel loop out of a loop whose tail overlaps the next iteration lets two
    // parallel iterations meet (and so does moving such a loop inside a parallel one).
    requireDisjointParallel(t, applySwap(t, a), ctx);
  },
  apply: applySwap,
  generate(t, rng, ctx) {
    const cands = loopsOf(t).filter((l) => nestedLoop(l.stmt)).map((l) => ({ loop: l.stmt.var }));
    return firstValid(rng, cands, (c) => ctx.valid(t, c));
  },
});

function applySwap(t: TgtProgram, a: SwapArgs): TgtProgram {
  const l = resolveLoop(t, a.loop);
  const { wrappers, inner } = sameStageNest(t, l, 'SWAP-NESTED', 'swap');
  return replaceInProgram(t, l.path, () => swapLoops(l.stmt, wrappers, inner));
}

/** `for a in Ia do W[for b in Ib do s]` ⟶ `for b in Ib do for a in Ia do W[s]`; each keeps its τ. */
export function swapLoops(outer: ForStmt, wrappers: readonly LoopWrapper[], inner: ForStmt): Stmt {
  return { ...inner, body: { ...outer, body: rewrap(wrappers, inner.body) } };
}
