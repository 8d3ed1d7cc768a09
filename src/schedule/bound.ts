// bound(f, x, e_min, e_len) (§2.8.5): the compute bounds of f's final stage in dimension x are
// exactly (e_min, e_len); recorded as a hint the bounds engine honours. A non-constant extent is
// asserted non-negative at the start of the program.
import { type Expr, cst, op, vr } from '../expr/ast.js';
import { hintExpr, hintTarget, hintTargets, withHint } from './hints.js';
import { dimsOf, firstValid } from './loops.js';
import { type Directive, defineDirective } from './plugin.js';
import { boundsObligations } from './obligations.js';

export interface BoundArgs {
  readonly dim: string;
  readonly min: Expr;
  readonly len: Expr;
}

export const bound: Directive<BoundArgs> = defineDirective<BoundArgs>({
  name: 'bound',
  rule: 'BOUND',
  phase: 'bounds',
  summary: 'fix the compute bounds of a func dimension to (min, len)',
  obligations: boundsObligations,
  params: [
    { name: 'dim', type: 'dim' },
    { name: 'min', type: 'expr', key: 'min' },
    { name: 'len', type: 'expr', key: 'len' },
  ],
  validate(t, a) {
    hintTarget(t, a.dim);
    hintExpr(t, a.min, 'the min', -Infinity, 'BOUND-LEN');
    hintExpr(t, a.len, 'the extent', 0, 'BOUND-LEN');
  },
  apply(t, a) {
    const { func, dim } = hintTarget(t, a.dim);
    return withHint(t, { k: 'bound', func, dim, min: a.min, len: a.len }, [op('not', op('<', a.len, cst(0)))]);
  },
  generate(t, rng, ctx) {
    // Mostly generous bounds, which cover small demands, so that fuzzed programs compute: the
    // window of the same dimension widened on both sides (it follows the window wherever it is),
    // or a fixed box around the origin.
    const generous = rng.below(4) < 3;
    const cands = hintTargets(t).flatMap((d) => {
      const w = t.window[dimsOf(t, d.slice(0, d.lastIndexOf('.'))).indexOf(d.slice(d.lastIndexOf('.') + 1))];
      const pairs: [Expr, Expr][] = generous
        ? [...(w ? [[op('-', vr(w.min), cst(8)), op('+', vr(w.len), cst(16))] as [Expr, Expr]] : []), [cst(-16), cst(48)]]
        : [[cst(0), cst(4)], [cst(-2), cst(0)], ...t.window.map((x): [Expr, Expr] => [vr(x.min), vr(x.len)])];
      return pairs.map(([min, len]) => ({ dim: d, min, len }));
    });
    return firstValid(rng, cands, (c) => ctx.valid(t, c));
  },
});
