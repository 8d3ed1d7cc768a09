// FPIR in Z3's bit-vectors (spec/fpir.md, [FPIR-PROVE]): every value is its exact integer in a
// two's complement bit-vector of K bits, K wide enough for every exact intermediate of the
// formula (twice the widest type plus a margin: a product of two n-bit values needs 2n + 1 bits).
// Wrapping and clamping are written out as in src/fpir/instructions.ts, so the encoding says
// what the interpreter computes, operation by operation, for all inputs at once.
import type { BitVec, Bool } from 'z3-solver';
import type { Ctx } from '../expr/smt.js';
import type { FExpr, FpOp, PrimOp } from './ast.js';
import { type ScalarType, tmax, tmin } from './types.js';

export type BV = BitVec<number, 'refsem'>;
export type ZBool = Bool<'refsem'>;

export interface Encoder {
  readonly k: number;
  readonly val: (v: bigint) => BV;
  /** the value modulo 2^bits read in `t` */
  readonly wrap: (v: BV, t: ScalarType) => BV;
  readonly clamp: (v: BV, t: ScalarType) => BV;
  /** the formula's exact value, `env` giving each variable's */
  readonly expr: (e: FExpr, env: (name: string) => BV) => BV;
  /** the fact that `v` lies in t's range */
  readonly inRange: (v: BV, t: ScalarType) => ZBool;
  /** a fresh variable of type `t`, and the fact that it lies in t's range (true by construction) */
  readonly fresh: (name: string, t: ScalarType) => { v: BV; inRange: ZBool };
  /**
   * With abstracted products: the range facts of the variables standing for the products built so
   * far (read after building every term of a query); empty otherwise.
   */
  readonly assumptions: readonly ZBool[];
}

export interface EncoderOptions {
  /**
   * Each product of two non-constant terms stands for a fresh variable ranging over the interval
   * product of its factors' ranges, one per pair of factors (the same pair, the same variable).
   * Every input then still has a model (the product's own value is in that range), so a query
   * unsatisfiable with abstracted products is unsatisfiable without them; a satisfiable one proves
   * nothing and is asked again with the multipliers.
   */
  readonly abstractProducts?: boolean;
}

/** The bits of the narrowest two's complement number holding `v`. */
const bitsOf = (v: bigint): number => (v < 0n ? (-v - 1n).toString(2).length : v.toString(2).length) + 1;

/** The widest type a formula mentions (casts and instructions included). */
export function widestBits(es: readonly FExpr[]): number {
  let w = 8;
  const go = (e: FExpr): void => {
    if (e.type.bits > w) w = e.type.bits;
    if (e.k === 'cast') go(e.arg);
    else if (e.k !== 'var' && e.k !== 'const') e.args.forEach(go);
  };
  es.forEach(go);
  return w;
}

/**
 * Euclidean quotient and remainder of two's complement bit-vectors, both 0 for a zero divisor
 * ([OP-DIV]): SMT-LIB's truncating sdiv/srem, corrected when the remainder is negative. The
 * quotient of the most negative value by −1 wraps, as every result does modulo 2^width.
 */
export function euclidBV(c: Ctx, a: BV, b: BV): { q: BV; r: BV } {
  const zero = c.BitVec.val(0, a.size());
  const one = c.BitVec.val(1, a.size());
  const ite = (x: ZBool, y: BV, z: BV): BV => c.If(x, y, z) as BV;
  const q0 = a.sdiv(b);
  const r0 = a.srem(b);
  const neg = r0.slt(zero);
  const pos = b.sgt(zero);
  const q = ite(b.eq(zero), zero, ite(neg, ite(pos, q0.sub(one), q0.add(one)), q0));
  const r = ite(b.eq(zero), zero, ite(neg, ite(pos, r0.add(b), r0.sub(b)), r0));
  return { q, r };
}

export function encoder(c: Ctx, widest: number, opts: EncoderOptions = {}): Encoder {
  const k = 2 * widest + 6;
  // The interval a term is known to lie in, recorded where a term is built, and the signed width
  // that interval fits (its value is the sign extension of its low bits): a product of two terms
  // of widths a and b fits a + b bits, so it is formed by one (a + b)-bit multiplier and
  // extended, never by a K-bit one. This is what keeps the high-half products of two 16- or
  // 32-bit values within the solver's reach.
  const range = new WeakMap<BV, readonly [bigint, bigint]>();
  const signedWidth = (lo: bigint, hi: bigint): number => Math.max(bitsOf(lo), bitsOf(hi));
  const known = (v: BV, lo: bigint, hi: bigint): BV => {
    if (signedWidth(lo, hi) < k) range.set(v, [lo, hi]);
    return v;
  };
  const rangeOf = (v: BV): readonly [bigint, bigint] => range.get(v) ?? [-(1n << BigInt(k - 1)), (1n << BigInt(k - 1)) - 1n];
  const widthOf = (v: BV): number => signedWidth(...rangeOf(v));
  const within = (v: BV, t: ScalarType): boolean => tmin(t) <= rangeOf(v)[0] && rangeOf(v)[1] <= tmax(t);
  const val = (v: bigint): BV => known(c.BitVec.val(BigInt.asUintN(k, v), k), v, v);
  const zero = val(0n);
  const one = val(1n);
  const assumptions: ZBool[] = [];
  const abstracted = new Map<string, BV>();
  const mul = (a: BV, b: BV): BV => {
    const w = widthOf(a) + widthOf(b);
    if (w >= k) return a.mul(b);
    const [[a0, a1], [b0, b1]] = [rangeOf(a), rangeOf(b)];
    const ends = [a0 * b0, a0 * b1, a1 * b0, a1 * b1];
    const [lo, hi] = [ends.reduce((x, y) => (y < x ? y : x)), ends.reduce((x, y) => (y > x ? y : x))];
    if (opts.abstractProducts && a0 !== a1 && b0 !== b1) {
      const key = [a.id(), b.id()].sort((x, y) => x - y).join('*');
      const seen = abstracted.get(key);
      if (seen) return seen;
      const narrow = c.BitVec.const(`product.${abstracted.size}`, w);
      const p = known(narrow.signExt(k - w), lo, hi);
      assumptions.push(c.And(narrow.sge(c.BitVec.val(BigInt.asUintN(w, lo), w)), narrow.sle(c.BitVec.val(BigInt.asUintN(w, hi), w))));
      abstracted.set(key, p);
      return p;
    }
    return known(c.Extract(w - 1, 0, a).mul(c.Extract(w - 1, 0, b)).signExt(k - w), lo, hi);
  };
  // A wrap or clamp of a value already in the type's range is the value itself: said here rather
  // than left to the solver, so that `i32(x_i16) * i32(y_i16)` is the very product `x_i16 · y_i16`.
  const wrap = (v: BV, t: ScalarType): BV => {
    if (t.bits === 1) return c.If(v.neq(zero), one, zero) as BV;
    if (within(v, t)) return v;
    const low = c.Extract(t.bits - 1, 0, v);
    return known(t.signed ? low.signExt(k - t.bits) : low.zeroExt(k - t.bits), tmin(t), tmax(t));
  };
  const clamp = (v: BV, t: ScalarType): BV => {
    if (within(v, t)) return v;
    const [lo, hi] = [val(tmin(t)), val(tmax(t))];
    return known(c.If(v.slt(lo), lo, c.If(v.sgt(hi), hi, v)) as BV, tmin(t), tmax(t));
  };
  const ite = (b: ZBool, x: BV, y: BV): BV => c.If(b, x, y) as BV;
  const bool = (b: ZBool): BV => ite(b, one, zero);
  /** x · 2^y for y ≥ 0, ⌊x / 2^−y⌋ for y < 0, exact when it fits K bits (SMT-LIB shifts by ≥ K give 0 or the sign). */
  const shift = (x: BV, y: BV): BV => ite(y.sge(zero), x.shl(y), x.shr(zero.sub(y)));
  /** clamp(x · 2^s) into t without forming an out-of-range product (as rs_sat_shift in C). */
  const satShift = (x: BV, s: BV, t: ScalarType): BV => {
    const [lo, hi] = [val(tmin(t)), val(tmax(t))];
    const up = ite(x.sgt(hi.shr(s)), hi, ite(x.slt(zero.sub(zero.sub(lo).shr(s))), lo, x.shl(s)));
    return ite(s.sle(zero), clamp(x.shr(zero.sub(s)), t), up);
  };
  /** ⌊(x + 2^(y−1)) / 2^y⌋ for y > 0, x · 2^−y otherwise; |x| < 2^(bits). */
  const roundShr = (x: BV, y: BV, bits: number): BV => {
    const big = val(BigInt(bits + 1));
    const r = x.add(one.shl(y.sub(one))).shr(y);
    return ite(y.sle(zero), shift(x, zero.sub(y)), ite(y.sgt(big), zero, r));
  };
  const prim = (op: PrimOp, a: BV, b: BV, t: ScalarType): BV => {
    switch (op) {
      case '+':
        return wrap(a.add(b), t);
      case '-':
        return wrap(a.sub(b), t);
      case '*':
        return wrap(mul(a, b), t);
      case '/':
        return wrap(euclidBV(c, a, b).q, t);
      case '%':
        return wrap(euclidBV(c, a, b).r, t);
      case 'min':
        return ite(a.slt(b), a, b);
      case 'max':
        return ite(a.sgt(b), a, b);
      case '<<':
        return wrap(shift(a, b), t);
      case '>>':
        return wrap(shift(a, zero.sub(b)), t);
      case '&':
        return wrap(a.and(b), t);
      case '|':
        return wrap(a.or(b), t);
      case '^':
        return wrap(a.xor(b), t);
      case '<':
        return bool(a.slt(b));
      case '<=':
        return bool(a.sle(b));
      case '>':
        return bool(a.sgt(b));
      case '>=':
        return bool(a.sge(b));
      case '==':
        return bool(a.eq(b));
      case '!=':
        return bool(a.neq(b));
    }
  };
  const fp = (op: FpOp, xs: readonly BV[], bits: number, t: ScalarType): BV => {
    const [x, y, z] = xs as [BV, BV, BV];
    switch (op) {
      case 'extending_add':
        return wrap(x.add(y), t);
      case 'extending_sub':
        return wrap(x.sub(y), t);
      case 'extending_mul':
        return wrap(mul(x, y), t);
      case 'widening_add':
        return known(x.add(y), rangeOf(x)[0] + rangeOf(y)[0], rangeOf(x)[1] + rangeOf(y)[1]);
      case 'widening_sub':
        return known(x.sub(y), rangeOf(x)[0] - rangeOf(y)[1], rangeOf(x)[1] - rangeOf(y)[0]);
      case 'widening_mul':
        return mul(x, y);
      case 'widening_shl':
        return wrap(shift(x, y), t);
      case 'widening_shr':
        return wrap(shift(x, zero.sub(y)), t);
      case 'abs':
        return ite(x.slt(zero), zero.sub(x), x);
      case 'absd':
        return ite(x.sgt(y), x.sub(y), y.sub(x));
      case 'saturating_cast':
      case 'saturating_narrow':
        return clamp(x, t);
      case 'saturating_add':
        return clamp(x.add(y), t);
      case 'saturating_sub':
        return clamp(x.sub(y), t);
      case 'halving_add':
        return wrap(x.add(y).shr(one), t);
      case 'halving_sub':
        return wrap(x.sub(y).shr(one), t);
      case 'rounding_halving_add':
        return wrap(x.add(y).add(one).shr(one), t);
      case 'rounding_shr':
        return wrap(roundShr(x, y, bits), t);
      case 'rounding_shl':
        return wrap(roundShr(x, zero.sub(y), bits), t);
      case 'mul_shr':
        return satShift(mul(x, y), zero.sub(z), t);
      case 'rounding_mul_shr': {
        const p = mul(x, y);
        return ite(z.sgt(zero), clamp(roundShr(p, z, 2 * bits), t), satShift(p, zero.sub(z), t));
      }
      case 'saturating_shl':
        return satShift(x, y, t);
    }
  };
  const expr = (e: FExpr, env: (name: string) => BV): BV => {
    const go = (x: FExpr) => expr(x, env);
    const t = e.type;
    switch (e.k) {
      case 'var':
        return env(e.name);
      case 'const':
        return val(e.value);
      case 'cast':
        return wrap(go(e.arg), t);
      case 'select':
        return ite(go(e.args[0]).neq(zero), go(e.args[1]), go(e.args[2]));
      case 'prim':
        return prim(e.op, go(e.args[0]), go(e.args[1]), t);
      case 'fp':
        return fp(e.op, e.args.map(go), e.args[0]!.type.bits, t);
    }
  };
  const inRange = (v: BV, t: ScalarType): ZBool => c.And(v.sge(val(tmin(t))), v.sle(val(tmax(t))));
  // A variable of t's own width, extended: the solver sees which bits are copies of the sign (or
  // zero) instead of learning it from a range fact, which keeps products of narrow values small.
  const fresh = (name: string, t: ScalarType) => {
    const narrow = c.BitVec.const(name, t.bits);
    const v = known(t.signed ? narrow.signExt(k - t.bits) : narrow.zeroExt(k - t.bits), tmin(t), tmax(t));
    return { v, inRange: c.Bool.val(true) };
  };
  return { k, val, wrap, clamp, expr, inRange, fresh, assumptions };
}
