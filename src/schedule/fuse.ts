// fuse(ℓ, x) (§2.8.2): two immediately nested loops of the same kind become one loop over the
// product of their extents (rewrite in spec/schedule.md, [FUSE]).
import { cst, op, vr } from '../expr/ast.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { type ForStmt, loopsOf, replaceInProgram } from '../target-semantics/walk.js';
import { requireDisjointParallel } from './disjoint.js';
import {
  firstValid, freshLoopVar, innerBoundsUses, inventName, isPure, nameOf, nestedLoop, resolveLoop, rewrap, sameStageNest,
} from './loops.js';
import { type Directive, type LoopWrapper, defineDirective } from './plugin.js';
import { fuseObligations } from './obligations.js';

export interface FuseArgs {
  /** The outer of the two loops. */
  readonly loop: string;
  readonly name: string;
}

export const fuse: Directive<FuseArgs> = defineDirective<FuseArgs>({
  name: 'fuse',
  rule: 'FUSE',
  phase: 'loops',
  summary: 'fuse a loop with the loop immediately inside it into one loop',
  obligations: fuseObligations,
  params: [
    { name: 'loop', type: 'loop' },
    { name: 'name', type: 'name', key: 'into' },
  ],
  validate(t, a, ctx) {
    const l = resolveLoop(t, a.loop);
    const { wrappers, inner } = sameStageNest(t, l, 'FUSE-NESTED', 'fuse');
    const po = isPure(t, l.stmt.var);
    if (po !== isPure(t, inner.var)) {
      ctx.reject('FUSE-KIND', `${l.stmt.var} is a ${po ? 'pure' : 'reduction'} loop but ${inner.var} is a ${po ? 'reduction' : 'pure'} loop`,
        'only two pure loops or two reduction loops can be fused (def. 2.16)');
    }
    const uses = innerBoundsUses(l.stmt, wrappers, inner);
    if (uses.length > 0) {
      ctx.reject('FUSE-BOUNDS', `the bounds of ${inner.var} depend on ${uses.join(', ')}, bound by or around ${l.stmt.var}`);
    }
    freshLoopVar(t, nameOf(l), a.name);
    // Fusing a parallel loop with a loop split by an overlapping tail spreads the overlap over it.
    requireDisjointParallel(t, applyFuse(t, a), ctx);
  },
  apply: applyFuse,
  generate(t, rng, ctx) {
    const cands = loopsOf(t).flatMap((l) => {
      const inner = nestedLoop(l.stmt)?.inner;
      if (!l.name || !inner) return [];
      const v = inner.var.slice(inner.var.lastIndexOf('.') + 1);
      return [{ loop: l.stmt.var, name: inventName(t, l.name, `${l.name.v}${v}`) }];
    });
    return firstValid(rng, cands, (c) => ctx.valid(t, c));
  },
});

function applyFuse(t: TgtProgram, a: FuseArgs): TgtProgram {
  const l = resolveLoop(t, a.loop);
  const x = freshLoopVar(t, nameOf(l), a.name);
  const { wrappers, inner } = sameStageNest(t, l, 'FUSE-NESTED', 'fuse');
  return replaceInProgram(t, l.path, () => fuseLoops(l.stmt, wrappers, inner, x));
}

/**
 * `for xa in (ma, la) do W[for xb in (mb, lb) do s]` ⟶
 * `for x in (0, la·lb) do let xa = ma + x div lb in let xb = mb + x mod lb in W[s]`. The fused loop
 * keeps the traversal the two loops share, and is serial when they differ.
 */
export function fuseLoops(outer: ForStmt, wrappers: readonly LoopWrapper[], inner: ForStmt, x: string): Stmt {
  const body: Stmt = {
    k: 'let', var: outer.var, value: op('+', outer.min, op('div', vr(x), inner.len)),
    body: { k: 'let', var: inner.var, value: op('+', inner.min, op('mod', vr(x), inner.len)), body: rewrap(wrappers, inner.body) },
  };
  return {
    k: 'for', var: x, trav: outer.trav === inner.trav ? outer.trav : 'serial', min: cst(0), len: op('*', outer.len, inner.len), body,
    ...(outer.loc ? { loc: outer.loc } : {}),
  };
}
