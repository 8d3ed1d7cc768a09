// bound-extent(f, x, e_len) (§2.8.5): as bound, but only the extent is fixed; the min is inferred.
import { type Expr, cst, op, vr } from '../expr/ast.js';
import { hintExpr, hintTarget, hintTargets, withHint } from './hints.js';
import { firstValid } from './loops.js';
import { type Directive, defineDirective } from './plugin.js';
import { boundsObligations } from './obligations.js';

export interface BoundExtentArgs {
  readonly dim: string;
  readonly len: Expr;
}

export const boundExtent: Directive<BoundExtentArgs> = defineDirective<BoundExtentArgs>({
  name: 'bound-extent',
  rule: 'BOUND-EXTENT',
  phase: 'bounds',
  summary: 'fix the extent of the compute bounds of a func dimension',
  obligations: boundsObligations,
  params: [
    { name: 'dim', type: 'dim' },
    { name: 'len', type: 'expr', key: 'len' },
  ],
  validate(t, a) {
    hintTarget(t, a.dim);
    hintExpr(t, a.len, 'the extent', 0, 'BOUND-EXTENT-LEN');
  },
  apply(t, a) {
    const { func, dim } = hintTarget(t, a.dim);
    return withHint(t, { k: 'bound-extent', func, dim, len: a.len }, [op('not', op('<', a.len, cst(0)))]);
  },
  generate(t, rng, ctx) {
    // Mostly generous extents, which cover small demands, so that fuzzed programs compute.
    const lens: Expr[] = rng.below(4) < 3 ? [cst(48), ...t.window.map((w) => op('+', vr(w.len), cst(8)))] : [cst(0), cst(3), ...t.window.map((w) => vr(w.len))];
    const cands = hintTargets(t).flatMap((d) => lens.map((len) => ({ dim: d, len })));
    return firstValid(rng, cands, (c) => ctx.valid(t, c));
  },
});
