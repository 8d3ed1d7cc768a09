// The practical traversal orders of §2.8.6, vectorize and unroll: semantically serial, and valid
// only on loops whose extent is a constant once bounds inference has run. What can be known before
// bounds inference is checked when the directive is applied (the extent mentions no variable);
// the rest when the whole schedule is known (its holes are fixed to constants by bound /
// bound-extent directives). Spec: spec/schedule.md, [VECTORIZE] and [UNROLL].
import { type Expr, freeVars, holeKey } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { type ForStmt, loopsOf, replaceInProgram } from '../target-semantics/walk.js';
import { constValue, firstValid, resolveLoop } from './loops.js';
import { type Directive, defineDirective } from './plugin.js';
import { orderObligations } from './obligations.js';

export interface OrderArgs {
  readonly loop: string;
}

/** The hole values the bounds-phase hints fix outright: `bound` fixes min and len, `bound-extent` len. */
function fixedHoles(t: TgtProgram): Map<string, Expr> {
  const out = new Map<string, Expr>();
  for (const h of t.hints ?? []) {
    const key = (end: 'min' | 'len') => holeKey({ kind: 'cpu', end, func: h.func, dim: h.dim });
    if (h.k === 'bound') out.set(key('min'), h.min).set(key('len'), h.len);
    if (h.k === 'bound-extent') out.set(key('len'), h.len);
  }
  return out;
}

/** The loop's extent with the hint-fixed holes replaced, if that is a constant. */
export function constantExtent(t: TgtProgram, loop: ForStmt): bigint | number | undefined {
  const fixed = fixedHoles(t);
  const subst = (e: Expr): Expr => {
    if (e.k === 'hole') return fixed.get(holeKey(e.hole)) ?? e;
    return e.k === 'op' || e.k === 'access' ? { ...e, args: e.args.map(subst) } : e;
  };
  return constValue(subst(loop.len));
}

export function practicalOrder(name: 'vectorize' | 'unroll', rule: string, extentRule: string): Directive<OrderArgs> {
  return defineDirective<OrderArgs>({
    name,
    rule,
    phase: 'loops',
    summary: `mark a loop with a constant extent to be ${name === 'vectorize' ? 'vectorized' : 'unrolled'} (semantically serial)`,
    obligations: orderObligations(name),
    params: [{ name: 'loop', type: 'loop' }],
    validate(t, a, ctx) {
      const l = resolveLoop(t, a.loop);
      const vars = [...freeVars(l.stmt.len)];
      if (vars.length > 0) {
        ctx.reject(extentRule, `the extent of ${l.stmt.var}, ${printExpr(l.stmt.len, 'tgt')}, depends on ${vars.join(', ')}`,
          `${name} needs a loop whose extent is a constant after bounds inference, such as the inner loop of a split by a constant`);
      }
    },
    apply(t, a) {
      const l = resolveLoop(t, a.loop);
      return replaceInProgram(t, l.path, (s) => ({ ...(s as ForStmt), trav: name }));
    },
    // Every loop marked so, including outer loops a later split made from a marked loop.
    finalCheck(t, _a, ctx) {
      for (const l of loopsOf(t)) {
        if (l.stmt.trav === name && constantExtent(t, l.stmt) === undefined) {
          ctx.reject(extentRule, `the extent of ${l.stmt.var}, ${printExpr(l.stmt.len, 'tgt')}, is not a constant after bounds inference`,
            'fix its holes to constants with bound or bound-extent, or split the loop by a constant and use the inner loop');
        }
      }
    },
    generate(t, rng, ctx) {
      const cands = loopsOf(t).filter((l) => constantExtent(t, l.stmt) !== undefined).map((l) => ({ loop: l.stmt.var }));
      return firstValid(rng, cands, (c) => ctx.valid(t, c));
    },
  });
}
