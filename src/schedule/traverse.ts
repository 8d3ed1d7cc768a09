// traverse(ℓ, τ) (§2.8.2): serial or parallel traversal; parallel only on pure loops (def. 2.16),
// whose iterations touch disjoint points of the func (def. 2.7, proof of lemma 2.14) — unless a
// split tail made them overlap ([TRAVERSE-DISJOINT], src/schedule/disjoint.ts).
import type { TgtProgram } from '../target-semantics/ast.js';
import { type ForStmt, loopsOf, replaceInProgram } from '../target-semantics/walk.js';
import { requireDisjointParallel } from './disjoint.js';
import { firstValid, isPure, resolveLoop } from './loops.js';
import { type Directive, defineDirective } from './plugin.js';
import { traverseObligations } from './obligations.js';

export interface TraverseArgs {
  readonly loop: string;
  readonly order: 'serial' | 'parallel';
}

export const traverse: Directive<TraverseArgs> = defineDirective<TraverseArgs>({
  name: 'traverse',
  rule: 'TRAVERSE',
  phase: 'loops',
  summary: 'run a loop serially or in parallel',
  obligations: traverseObligations,
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
    requireDisjointParallel(t, traversed(t, a), ctx);
  },
  apply: traversed,
  generate(t, rng, ctx) {
    const cands = loopsOf(t).flatMap((l) => (['parallel', 'serial'] as const).map((order) => ({ loop: l.stmt.var, order })));
    return firstValid(rng, cands, (c) => ctx.valid(t, c));
  },
});

function traversed(t: TgtProgram, a: TraverseArgs): TgtProgram {
  const l = resolveLoop(t, a.loop);
  return replaceInProgram(t, l.path, (s) => ({ ...(s as ForStmt), trav: a.order }));
}
