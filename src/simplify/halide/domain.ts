// The domains a Halide rule is checked in (spec/simplify.md [HR-DOMAIN], [HR-WRAP]): `halide`,
// unbounded integers standing for the wide signed types Halide assumes never overflow, and one
// wrapping domain per narrow or unsigned type, where every operator's result is reduced modulo
// 2^bits into the type's range. Both are given to the encoder (encode.ts) as a `Values` over the
// same operator names, so a rule is encoded once whatever its domain.
import type { BitVec } from 'z3-solver';
import type { OpName } from '../../expr/ast.js';
import { type BoolE, type Ctx, type IntE, type SortOps, intOp, opOver } from '../../expr/smt.js';
import { euclidBV } from '../../fpir/smt.js';
import { type ScalarType, tmax, tmin } from '../../fpir/types.js';

type BV = BitVec<number, 'refsem'>;
/** A value of either domain: an unbounded integer or a bit-vector. */
export type Val = IntE | BV;

/** Halide's wrapping integer types: unsigned ones, and signed ones narrower than 32 bits. */
export const WRAPPING_TYPES: readonly ScalarType[] = [
  { signed: false, bits: 8 }, { signed: true, bits: 8 }, { signed: false, bits: 16 }, { signed: true, bits: 16 }, { signed: false, bits: 32 },
];

/** A domain's name: `halide`, or a type as Halide spells it (`uint8`, `int16`). */
export type DomainName = string;

export const domainName = (t: ScalarType): DomainName => `${t.signed ? 'int' : 'uint'}${t.bits}`;

export const wrappingType = (d: DomainName): ScalarType | undefined => WRAPPING_TYPES.find((t) => domainName(t) === d);

export const DOMAIN_NAMES: readonly DomainName[] = ['halide', ...WRAPPING_TYPES.map(domainName)];

/** Operators on the values of one domain, with what a counterexample search needs of them. */
export interface Values {
  readonly lit: (v: bigint) => Val;
  readonly named: (name: string) => Val;
  readonly op: (o: OpName, args: readonly Val[]) => Val;
  readonly neg: (a: Val) => Val;
  readonly eq: (a: Val, b: Val) => BoolE;
  /** the fact that `v` is a boolean, 0 or 1 */
  readonly bool01: (v: Val) => BoolE;
  /** a lane index (an unbounded integer) as a value, for `ramp` */
  readonly fromLane: (i: IntE) => Val;
  /** 1 when `v` is the largest (`max`) or smallest value of the type, else 0 */
  readonly extreme: (which: 'max' | 'min', v: Val) => Val;
  /** the fact that `v` lies within ±b */
  readonly box: (v: Val, b: bigint) => BoolE;
  /** the integer a model gives `v` */
  readonly read: (model: { eval: (e: Val, complete: boolean) => unknown }, v: Val) => bigint;
}

/** The domain `halide` ([HR-DOMAIN]): refsem's integer operators. */
export function halideValues(c: Ctx): Values {
  const I = (v: Val) => v as IntE;
  return {
    lit: (v) => c.Int.val(v),
    named: (name) => c.Int.const(name),
    op: (o, args) => intOp(c, o, args.map(I)),
    neg: (a) => c.Int.val(0).sub(I(a)),
    eq: (a, b) => I(a).eq(I(b)),
    bool01: (v) => c.And(I(v).ge(0), I(v).le(1)),
    fromLane: (i) => i,
    // No integer is the largest or the smallest in an unbounded domain.
    extreme: () => c.Int.val(0),
    box: (v, b) => c.And(I(v).ge(-b), I(v).le(b)),
    read: (m, v) => {
      const x = m.eval(v, true);
      return c.isIntVal(x) ? x.value() : 0n;
    },
  };
}

// implements [HR-WRAP]
export function wrappingValues(c: Ctx, t: ScalarType): Values {
  const n = t.bits;
  const B = (v: Val) => v as BV;
  const lit = (v: bigint): BV => c.BitVec.val(BigInt.asUintN(n, v), n);
  const zero = lit(0n);
  const one = lit(1n);
  const ite = (b: BoolE, x: BV, y: BV) => c.If(b, x, y) as BV;
  const bool = (b: BoolE) => ite(b, one, zero);
  const sort: SortOps<BV> = {
    zero, one,
    add: (x, y) => x.add(y),
    sub: (x, y) => x.sub(y),
    mul: (x, y) => x.mul(y),
    div: (x, y) => (t.signed ? euclidBV(c, x, y).q : ite(y.eq(zero), zero, x.udiv(y))),
    mod: (x, y) => (t.signed ? euclidBV(c, x, y).r : ite(y.eq(zero), zero, x.urem(y))),
    lt: (x, y) => (t.signed ? x.slt(y) : x.ult(y)),
    le: (x, y) => (t.signed ? x.sle(y) : x.ule(y)),
    gt: (x, y) => (t.signed ? x.sgt(y) : x.ugt(y)),
    ge: (x, y) => (t.signed ? x.sge(y) : x.uge(y)),
    eq: (x, y) => x.eq(y),
    neq: (x, y) => x.neq(y),
  };
  const op = (o: OpName, args: readonly Val[]): BV => opOver(c, sort, o, args.map(B));
  return {
    lit,
    named: (name) => c.BitVec.const(name, n),
    op,
    neg: (a) => zero.sub(B(a)),
    eq: (a, b) => B(a).eq(B(b)),
    bool01: (v) => c.Or(B(v).eq(zero), B(v).eq(one)),
    fromLane: (i) => c.Int2BV(i, n),
    extreme: (which, v) => bool(B(v).eq(lit(which === 'max' ? tmax(t) : tmin(t)))),
    box: (v, b) => (t.signed ? (b >= tmax(t) ? c.Bool.val(true) : c.And(B(v).sge(lit(-b)), B(v).sle(lit(b)))) : b >= tmax(t) ? c.Bool.val(true) : B(v).ule(lit(b))),
    read: (m, v) => {
      const x = m.eval(v, true);
      if (!c.isBitVecVal(x)) return 0n;
      return t.signed ? x.asSignedValue() : x.value();
    },
  };
}

export const valuesOf = (c: Ctx, d: DomainName): Values => {
  const t = wrappingType(d);
  return t ? wrappingValues(c, t) : halideValues(c);
};
