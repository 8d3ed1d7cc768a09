// The FPIR instructions (Pitchfork §3.1, table 1; spec/fpir.md, "Instructions"). Each is defined
// once, as a composition of exact integer operations and of instructions defined before it, with
// every return into a machine type written out: `wrap` (modulo 2^bits) or `clamp` (saturation).
// Intermediate values are exact integers: a 64-bit saturating add means the same as an 8-bit one
// even though FPIR has no 128-bit type to widen into (spec/fpir.md, [FPIR-EXACT]).
import type { FpOp } from './ast.js';
import { shiftExact } from './prim.js';
import { type ScalarType, clamp, narrow, typeEq, typeName, widen, withSign, wrap } from './types.js';

/** How an instruction's result type follows from its operand types; a string explains a rejection. */
type Typing = (args: readonly ScalarType[], target: ScalarType | undefined) => ScalarType | string;

export interface Instruction {
  readonly op: FpOp;
  /** the spec rule defining it */
  readonly rule: string;
  readonly arity: number;
  readonly typing: Typing;
  /** the exact value from exact operand values, given the operand and result types */
  readonly value: (args: readonly bigint[], types: readonly ScalarType[], result: ScalarType) => bigint;
}

const name = typeName;

// ---- typing helpers ------------------------------------------------------------------------------

const sameType: Typing = ([a, b]) => (typeEq(a!, b!) ? a! : `operands must have the same type, got ${name(a!)} and ${name(b!)} (insert a cast)`);
const sameBits = ([a, b]: readonly ScalarType[]): string | undefined =>
  a!.bits === b!.bits ? undefined : `operands must have the same width, got ${name(a!)} and ${name(b!)} (insert a cast)`;
const wider = (t: ScalarType): ScalarType | string => widen(t) ?? `${name(t)} has no wider type (FPIR stops at 64 bits)`;

// implements [FPIR-MIXED-SIGN]
/** Widening of two operands of one width: signed when either is (spec/fpir.md, [FPIR-MIXED-SIGN]). */
const widening = (forceSigned: boolean): Typing => (ts) => {
  const err = sameBits(ts);
  if (err) return err;
  const w = wider(ts[0]!);
  return typeof w === 'string' ? w : withSign(w, forceSigned || ts[0]!.signed || ts[1]!.signed);
};
/** Shift-like: the amount has the operand's width and either signedness; the result is `res(x)`. */
const shiftTyping = (res: (t: ScalarType) => ScalarType | string): Typing => (ts) => sameBits(ts) ?? res(ts[0]!);
const extending: Typing = ([x, y]) => (x!.bits === 2 * y!.bits ? x! : `the first operand must have twice the bits of the second, got ${name(x!)} and ${name(y!)}`);
const unsignedOf = (t: ScalarType): ScalarType => withSign(t, false);
const narrowing: Typing = ([x]) => narrow(x!) ?? `${name(x!)} has no narrower type`;
const mulShr: Typing = (ts) => {
  const same = sameType(ts.slice(0, 2), undefined);
  return typeof same === 'string' ? same : (sameBits([ts[0]!, ts[2]!]) ?? same);
};

// ---- exact building blocks -----------------------------------------------------------------------

/** `⌊v / 2⌋`: FPIR's halving rounds down (toward −∞), as every ISA's halving instructions do. */
const half = (v: bigint): bigint => v >> 1n;
/** `⌊(x + 2^(y−1)) / 2^y⌋` for y > 0 (round half up), `x · 2^−y` for y ≤ 0: exact. */
const roundingShrExact = (x: bigint, y: bigint): bigint => {
  // Beyond 130 every operand (|x| < 2^128) rounds to 0, as at 130; capping keeps 2^(y−1) small.
  const s = y > 130n ? 130n : y;
  return shiftExact(x + (s > 0n ? 1n << (s - 1n) : 0n), -s);
};

// implements [FPIR-EXACT]
// The instructions, in table 1's order. Later definitions call earlier ones through `def`.
const TABLE: readonly Instruction[] = [
  { op: 'extending_add', rule: 'FPIR-EXTENDING-ADD', arity: 2, typing: extending, value: ([x, y], _ts, r) => wrap(x! + y!, r) },
  { op: 'extending_sub', rule: 'FPIR-EXTENDING-SUB', arity: 2, typing: extending, value: ([x, y], _ts, r) => wrap(x! - y!, r) },
  { op: 'extending_mul', rule: 'FPIR-EXTENDING-MUL', arity: 2, typing: extending, value: ([x, y], _ts, r) => wrap(x! * y!, r) },
  // The exact sum, difference or product of two n-bit values always fits the 2n-bit result type.
  { op: 'widening_add', rule: 'FPIR-WIDENING-ADD', arity: 2, typing: widening(false), value: ([x, y]) => x! + y! },
  { op: 'widening_sub', rule: 'FPIR-WIDENING-SUB', arity: 2, typing: widening(true), value: ([x, y]) => x! - y! },
  { op: 'widening_mul', rule: 'FPIR-WIDENING-MUL', arity: 2, typing: widening(false), value: ([x, y]) => x! * y! },
  { op: 'widening_shl', rule: 'FPIR-WIDENING-SHL', arity: 2, typing: shiftTyping(wider), value: ([x, y], _ts, r) => wrap(shiftExact(x!, y!), r) },
  { op: 'widening_shr', rule: 'FPIR-WIDENING-SHR', arity: 2, typing: shiftTyping(wider), value: ([x, y], _ts, r) => wrap(shiftExact(x!, -y!), r) },
  { op: 'abs', rule: 'FPIR-ABS', arity: 1, typing: ([x]) => unsignedOf(x!), value: ([x]) => (x! < 0n ? -x! : x!) },
  { op: 'absd', rule: 'FPIR-ABSD', arity: 2, typing: (ts) => { const t = sameType(ts, undefined); return typeof t === 'string' ? t : unsignedOf(t); }, value: ([x, y]) => (x! > y! ? x! - y! : y! - x!) },
  {
    op: 'saturating_cast', rule: 'FPIR-SATURATING-CAST', arity: 1,
    typing: (_ts, target) => target ?? 'saturating_cast needs a target type: saturating_cast<u8>(x)',
    value: ([x], _ts, r) => clamp(x!, r),
  },
  { op: 'saturating_narrow', rule: 'FPIR-SATURATING-NARROW', arity: 1, typing: narrowing, value: ([x], _ts, r) => def('saturating_cast', [x!], r) },
  { op: 'saturating_add', rule: 'FPIR-SATURATING-ADD', arity: 2, typing: sameType, value: ([x, y], ts, r) => def('saturating_cast', [def('widening_add', [x!, y!], r, ts)], r) },
  { op: 'saturating_sub', rule: 'FPIR-SATURATING-SUB', arity: 2, typing: sameType, value: ([x, y], ts, r) => def('saturating_cast', [def('widening_sub', [x!, y!], r, ts)], r) },
  { op: 'halving_add', rule: 'FPIR-HALVING-ADD', arity: 2, typing: sameType, value: ([x, y], ts, r) => wrap(half(def('widening_add', [x!, y!], r, ts)), r) },
  // For unsigned operands with x < y the exact half-difference is negative: it wraps, as the
  // seed's "widening preserves signedness" implies.
  { op: 'halving_sub', rule: 'FPIR-HALVING-SUB', arity: 2, typing: sameType, value: ([x, y], ts, r) => wrap(half(def('widening_sub', [x!, y!], r, ts)), r) },
  { op: 'rounding_halving_add', rule: 'FPIR-ROUNDING-HALVING-ADD', arity: 2, typing: sameType, value: ([x, y], ts, r) => wrap(half(def('widening_add', [x!, y!], r, ts) + 1n), r) },
  { op: 'rounding_shr', rule: 'FPIR-ROUNDING-SHR', arity: 2, typing: shiftTyping((t) => t), value: ([x, y], _ts, r) => wrap(roundingShrExact(x!, y!), r) },
  { op: 'rounding_shl', rule: 'FPIR-ROUNDING-SHL', arity: 2, typing: shiftTyping((t) => t), value: ([x, y], ts, r) => def('rounding_shr', [x!, -y!], r, ts) },
  { op: 'mul_shr', rule: 'FPIR-MUL-SHR', arity: 3, typing: mulShr, value: ([x, y, z], ts, r) => def('saturating_cast', [shiftExact(def('widening_mul', [x!, y!], r, ts), -z!)], r) },
  { op: 'rounding_mul_shr', rule: 'FPIR-ROUNDING-MUL-SHR', arity: 3, typing: mulShr, value: ([x, y, z], ts, r) => def('saturating_cast', [roundingShrExact(def('widening_mul', [x!, y!], r, ts), z!)], r) },
  { op: 'saturating_shl', rule: 'FPIR-SATURATING-SHL', arity: 2, typing: shiftTyping((t) => t), value: ([x, y], _ts, r) => def('saturating_cast', [shiftExact(x!, y!)], r) },
];

export const INSTRUCTIONS: ReadonlyMap<FpOp, Instruction> = new Map(TABLE.map((i) => [i.op, i]));

/**
 * An instruction's exact value inside another's definition. Only the result type of the outer
 * instruction matters to the callers above (wrapping and saturation use it; the widening
 * instructions inside are exact and ignore it).
 */
function def(op: FpOp, args: readonly bigint[], result: ScalarType, types: readonly ScalarType[] = []): bigint {
  return INSTRUCTIONS.get(op)!.value(args, types, result);
}

export function instruction(op: FpOp): Instruction {
  return INSTRUCTIONS.get(op)!;
}
