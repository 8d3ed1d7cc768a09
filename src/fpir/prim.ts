// The primitive integer operations of FPIR (spec/fpir.md, "Primitive operations"): what lifting
// starts from and what the instruction definitions are composed of. Each computes the exact
// integer result first and then gets back into the result type by wrapping, so that the only
// place a rounding or overflow decision is made is named in the spec.
import { compareBig } from '../expr/ops.js';
import type { PrimOp } from './ast.js';
import { BOOL, type ScalarType, wrap } from './types.js';

/**
 * `x · 2^y` for y ≥ 0 and `⌊x / 2^−y⌋` for y < 0, on exact integers. Every operand of FPIR fits
 * in 128 bits, so amounts beyond ±130 give the same result as ±130 (all bits shifted out, or the
 * sign filling everything): the cap keeps huge amounts from allocating huge integers.
 */
export function shiftExact(x: bigint, y: bigint): bigint {
  const s = y > 130n ? 130n : y < -130n ? -130n : y;
  return s >= 0n ? x << s : x >> -s;
}

// implements [FPIR-DIV]
/** Euclidean division and remainder, total: x / 0 = 0 and x % 0 = 0 (Halide's rules). */
export function euclid(x: bigint, y: bigint): { q: bigint; r: bigint } {
  if (y === 0n) return { q: 0n, r: 0n };
  let q = x / y;
  let r = x % y;
  if (r < 0n) {
    q = y > 0n ? q - 1n : q + 1n;
    r = y > 0n ? r + y : r - y;
  }
  return { q, r };
}

/** The exact value of a primitive operation before wrapping (comparisons give 0 or 1). */
function exact(op: PrimOp, a: bigint, b: bigint): bigint {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return euclid(a, b).q;
    case '%':
      return euclid(a, b).r;
    case 'min':
      return a < b ? a : b;
    case 'max':
      return a > b ? a : b;
    // implements [FPIR-SHIFT]: the amount is an exact integer of any type; a negative amount shifts the other
    // way, an amount of at least the width shifts every bit out (or fills with the sign).
    case '<<':
      return shiftExact(a, b);
    case '>>':
      return shiftExact(a, -b);
    // Bitwise operations on two's complement (bigint's infinite-precision & | ^ are exactly that).
    case '&':
      return a & b;
    case '|':
      return a | b;
    case '^':
      return a ^ b;
    case '<':
    case '<=':
    case '>':
    case '>=':
    case '==':
    case '!=':
      return compareBig(op, a, b);
  }
}

// implements [FPIR-PRIM]
/** A primitive operation: the exact result wrapped into the result type. */
export function applyPrim(op: PrimOp, a: bigint, b: bigint, type: ScalarType): bigint {
  return wrap(exact(op, a, b), type);
}

export const isComparison = (op: PrimOp): boolean => ['<', '<=', '>', '>=', '==', '!='].includes(op);

/** Shifts take their amount from any integer type; every other binary operation needs equal types. */
export const isShift = (op: PrimOp): boolean => op === '<<' || op === '>>';

/** The result type of a primitive operation on operands of type `a` (the left one for shifts). */
export const primResultType = (op: PrimOp, a: ScalarType): ScalarType => (isComparison(op) ? BOOL : a);
