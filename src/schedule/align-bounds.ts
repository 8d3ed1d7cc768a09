// align-bounds(f, x, e_m, e_r) (§2.8.5): the inferred compute bounds of f's final stage in x are
// widened so that the min is ≡ e_r (mod e_m) and the extent is a multiple of e_m (the widening
// formula is the bounds engine's, spec/bounds.md). A constant modulus must be positive; a
// non-constant one is asserted positive at the start of the program.
import { type Expr, cst, op, vr } from '../expr/ast.js';
import { hintExpr, hintTarget, hintTargets, withHint } from './hints.js';
import { firstValid } from './loops.js';
import { type Directive, defineDirective } from './plugin.js';
import { boundsObligations } from './obligations.js';

export interface AlignBoundsArgs {
  readonly dim: string;
  readonly modulus: Expr;
  /** Defaults to 0. */
  readonly remainder?: Expr;
}

export const alignBounds: Directive<AlignBoundsArgs> = defineDirective<AlignBoundsArgs>({
  name: 'align-bounds',
  rule: 'ALIGN-BOUNDS',
  phase: 'bounds',
  summary: 'widen the compute bounds of a func dimension to an aligned window',
  obligations: boundsObligations,
  params: [
    { name: 'dim', type: 'dim' },
    { name: 'modulus', type: 'expr', key: 'modulus' },
    { name: 'remainder', type: 'expr', key: 'remainder', optional: true },
  ],
  validate(t, a) {
    hintTarget(t, a.dim);
    hintExpr(t, a.modulus, 'the modulus', 1, 'ALIGN-BOUNDS-MODULUS');
    if (a.remainder) hintExpr(t, a.remainder, 'the remainder', -Infinity, 'ALIGN-BOUNDS-MODULUS');
  },
  apply(t, a) {
    const { func, dim } = hintTarget(t, a.dim);
    return withHint(t, { k: 'align-bounds', func, dim, modulus: a.modulus, remainder: a.remainder ?? cst(0) }, [op('>', a.modulus, cst(0))]);
  },
  generate(t, rng, ctx) {
    const mods: Expr[] = [cst(1), cst(2), cst(4), ...t.params.map((p) => vr(p))];
    const rems: Expr[] = [cst(0), cst(1), cst(-3)];
    const cands = hintTargets(t).flatMap((d) => mods.flatMap((modulus) => rems.map((remainder) => ({ dim: d, modulus, remainder }))));
    return firstValid(rng, cands, (c) => ctx.valid(t, c));
  },
});
