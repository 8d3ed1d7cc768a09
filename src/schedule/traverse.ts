// traverse(ℓ, τ) (§2.8.2): serial or parallel traversal; parallel only on pure loops (def. 2.16),
// whose iterations touch disjoint points of the func (def. 2.7, proof of lemma 2.14) — unless a
// split with φ_Shift made them overlap ([TRAVERSE-DISJOINT]).
import { type Expr, freeVars, walkExpr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { type ForStmt, loopsOf, replaceInProgram } from '../target-semantics/walk.js';
import { firstValid, isPure, resolveLoop } from './loops.js';
import { type Directive, type DirectiveCtx, defineDirective } from './plugin.js';

/**
 * A let under `loop` that can map two values of its variable to one point: a min or max with an
 * argument depending on the variable (through earlier lets). A split with φ_Shift writes
 * `x = min(m + xo·e, m + l − e) + xi`, so its last two outer iterations recompute the same points;
 * every other loop rewrite (guard and round splits, fuse, lowering) keeps the map injective.
 */
function overlappingLet(loop: ForStmt): { var: string; value: Expr } | undefined {
  const dependent = new Set([loop.var]);
  const mentions = (e: Expr) => [...freeVars(e)].some((v) => dependent.has(v));
  const visit = (s: Stmt): { var: string; value: Expr } | undefined => {
    switch (s.k) {
      case 'let': {
        if (mentions(s.value)) {
          let folds = false;
          walkExpr(s.value, (x) => {
            if (x.k === 'op' && (x.op === 'min' || x.op === 'max') && x.args.some(mentions)) folds = true;
          });
          if (folds) return { var: s.var, value: s.value };
          dependent.add(s.var);
        }
        return visit(s.body);
      }
      case 'seq':
        for (const b of s.body) {
          const r = visit(b);
          if (r) return r;
        }
        return undefined;
      case 'if':
        return visit(s.then) ?? visit(s.else);
      case 'for':
      case 'label':
        return visit(s.body);
      default:
        return undefined;
    }
  };
  return visit(loop.body);
}

/**
 * Once the whole schedule is applied: no parallel loop has iterations that overlap. Checked by
 * both traverse and split, since either may come last.
 */
export function requireDisjointParallel(t: TgtProgram, ctx: DirectiveCtx): void {
  for (const l of loopsOf(t)) if (l.stmt.trav === 'parallel') requireDisjoint(l.stmt, ctx);
}

function requireDisjoint(loop: ForStmt, ctx: DirectiveCtx): void {
  const bad = overlappingLet(loop);
  if (bad) {
    ctx.reject('TRAVERSE-DISJOINT', `distinct iterations of parallel loop ${loop.var} touch the same points: ${bad.var} = ${printExpr(bad.value, 'tgt')} repeats points of another iteration (a split with tail shift)`,
      'split the loop with tail guard or round, or run it serially');
  }
}

export interface TraverseArgs {
  readonly loop: string;
  readonly order: 'serial' | 'parallel';
}

export const traverse: Directive<TraverseArgs> = defineDirective<TraverseArgs>({
  name: 'traverse',
  rule: 'TRAVERSE',
  phase: 'loops',
  summary: 'run a loop serially or in parallel',
  params: [
    { name: 'loop', type: 'loop' },
    { name: 'order', type: { choice: ['serial', 'parallel'] } },
  ],
  validate(t, a, ctx) {
    const l = resolveLoop(t, a.loop);
    if (a.order === 'parallel' && !isPure(t, l.stmt.var)) {
      ctx.reject('TRAVERSE-PURE', `${l.stmt.var} is a reduction loop; its iterations update the same points`,
        'only pure loops (def. 2.16) may run in parallel');
    }
    // Known already when the split came first (so `generate` never proposes it); a split that
    // comes later is caught by the whole-schedule check.
    if (a.order === 'parallel') requireDisjoint(l.stmt, ctx);
  },
  apply(t, a) {
    const l = resolveLoop(t, a.loop);
    return replaceInProgram(t, l.path, (s) => ({ ...(s as ForStmt), trav: a.order }));
  },
  finalCheck: (t, _a, ctx) => requireDisjointParallel(t, ctx),
  generate(t, rng, ctx) {
    const cands = loopsOf(t).flatMap((l) => (['parallel', 'serial'] as const).map((order) => ({ loop: l.stmt.var, order })));
    return firstValid(rng, cands, (c) => ctx.valid(t, c));
  },
});
