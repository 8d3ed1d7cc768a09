// store-at(f, ℓg) (§2.8.4): moves `allocate f(…)` to the first position in the body of loop ℓg,
// provided it still runs before f's computation and every access to f (lemma 2.5). Each iteration
// of ℓg then allocates f afresh.
import type { TgtProgram } from '../target-semantics/ast.js';
import { dominanceViolations } from './dominance.js';
import { isInside } from '../target-semantics/walk.js';
import { FUNC_AT_LOOP, type FuncAtLoop, allocOf, firstValid, storeSites, labelOf, moveIntoLoop, requireFunc, resolveLoop } from './loops.js';
import { type Directive, type DirectiveCtx, defineDirective, validatedByRewriting } from './plugin.js';
import { storeAtObligations } from './obligations.js';

export type StoreAtArgs = FuncAtLoop;

function check(t: TgtProgram, a: StoreAtArgs, ctx: DirectiveCtx): TgtProgram {
  requireFunc(t, a.func);
  const first = ctx.history.find((c) => c.directive.name === 'store-at' && (c.args as StoreAtArgs).func === a.func);
  if (first) {
    ctx.reject('STORE-AT-ONCE', `'${a.func}' is already stored at ${(first.args as StoreAtArgs).loop} by an earlier store-at${first.loc ? ` (line ${first.loc.line})` : ''}`, `keep one store-at per func: delete this one or the earlier one`);
  }
  const target = resolveLoop(t, a.loop);
  const lab = labelOf(t, a.func);
  if (lab && isInside(target.path, lab.path)) {
    ctx.reject('STORE-AT-OWN', `loop ${target.stmt.var} is inside the computation of '${a.func}' itself`, `'${a.func}' must be allocated before it is computed`);
  }
  const next = moveIntoLoop(t, allocOf(t, a.func)!, a.loop);
  const v = dominanceViolations(next, a.func).find((x) => x.kind === 'alloc');
  if (v) {
    const who = v.at.startsWith(`label ${a.func}:`) ? `the computation of '${a.func}'` : v.consumer ? `'${v.consumer}', which uses '${a.func}',` : `a use of '${a.func}'`;
    ctx.reject('STORE-AT-DOMINANCE',
      `${who} is outside loop ${target.stmt.var} (at ${v.at}), where the allocation would not be in scope`,
      `store '${a.func}' at a loop that contains its computation and all its consumers`);
  }
  return next;
}

export const storeAt: Directive<StoreAtArgs> = defineDirective<StoreAtArgs>({
  name: 'store-at',
  rule: 'STORE-AT',
  phase: 'storage',
  summary: 'allocate a func inside a loop (afresh on each iteration)',
  obligations: storeAtObligations,
  params: FUNC_AT_LOOP,
  ...validatedByRewriting(check),
  generate(t, rng, ctx) {
    return firstValid(rng, storeSites(t), (c) => ctx.valid(t, c));
  },
});
