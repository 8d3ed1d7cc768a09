// Operator semantics (fig. 2.5b, def. 2.6, §2.9). All operators are total; none short-circuits.
// Each function takes and returns canonical values (see value.ts): the number path handles the
// common case and falls back to bigint exactly when a result leaves the safe-integer range.
import { UserError } from '../diag.js';
import type { OpName } from './ast.js';
import { type Int, type Value, isError, normBig, normNum, toBig } from './value.js';

/**
 * The largest integers the evaluators compute, in bits; `mul` implements [VAL-LIMIT]. Integers are exact and have no
 * bound in the semantics, but a product of products doubles its length each time (squaring a value
 * 40 times needs 2^40 times its bits), which no machine holds; like the executors' buffer limit, this
 * is a resource limit of the tool, not an outcome of the program.
 */
export const MAX_BITS = 1 << 20;

/** Bits of |x| for a bigint (hexadecimal digits are a cheap, exact-enough measure). */
const bitsOf = (x: bigint): number => (x < 0n ? -x : x).toString(16).length * 4;

/** Factors both below 2^(MAX_BITS/2) never reach the limit: a comparison, not a digit count. */
const HALF = 1n << BigInt(MAX_BITS / 2);
const belowHalf = (x: bigint): boolean => x < HALF && x > -HALF;

/** Def. 2.6: an operation involving error values yields the greatest of them. */
function worstError(args: readonly Value[]): Value | undefined {
  let worst: Value | undefined;
  for (const a of args) {
    if (isError(a) && (worst === undefined || a.rank > (worst as { rank: number }).rank)) worst = a;
  }
  return worst;
}

export function add(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (Number.isSafeInteger(r)) return normNum(r);
  }
  return normBig(toBig(a) + toBig(b));
}

export function sub(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b;
    if (Number.isSafeInteger(r)) return normNum(r);
  }
  return normBig(toBig(a) - toBig(b));
}

export function mul(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    // If the exact product is safe, the rounded float product equals it; if it is not, the
    // rounded product is not safe either, so this test never accepts a rounded result.
    const r = a * b;
    if (Number.isSafeInteger(r)) return normNum(r);
  }
  const [x, y] = [toBig(a), toBig(b)];
  // Only products can outgrow the limit quickly: sums gain one bit per step.
  if (!(belowHalf(x) && belowHalf(y)) && bitsOf(x) + bitsOf(y) > MAX_BITS + 8) {
    throw new UserError(
      `a product of integers of about ${bitsOf(x)} and ${bitsOf(y)} bits; the evaluators stop at integers of ${MAX_BITS} bits [VAL-LIMIT]`,
      undefined,
      'the program squares or multiplies values repeatedly; run it on a smaller window or with fewer reduction steps',
    );
  }
  return normBig(x * y);
}

/** Euclidean remainder, in [0, |b|); x mod 0 = 0 (§2.9). */
export function mod(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    if (b === 0) return 0;
    const r = a % b; // exact for safe integers, sign of a
    return normNum(r < 0 ? r + Math.abs(b) : r);
  }
  const bb = toBig(b);
  if (bb === 0n) return 0;
  let r = toBig(a) % bb;
  if (r < 0n) r += bb < 0n ? -bb : bb;
  return normBig(r);
}

/** Euclidean quotient: a = b·q + (a mod b); x div 0 = 0 (§2.9). */
export function div(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    if (b === 0) return 0;
    const r = a % b;
    const d = a - (r < 0 ? r + Math.abs(b) : r);
    // d is a multiple of b; when it is safe the float division below is exact.
    if (Number.isSafeInteger(d)) return normNum(d / b);
  }
  const bb = toBig(b);
  if (bb === 0n) return 0;
  const aa = toBig(a);
  let r = aa % bb;
  if (r < 0n) r += bb < 0n ? -bb : bb;
  return normBig((aa - r) / bb);
}

/** The comparisons every exact-integer evaluator shares (FPIR, Halide's rule predicates): 1 or 0. */
export type Comparison = '<' | '<=' | '>' | '>=' | '==' | '!=';
export const isComparison = (op: string): op is Comparison => op === '<' || op === '<=' || op === '>' || op === '>=' || op === '==' || op === '!=';
export function compareBig(op: Comparison, a: bigint, b: bigint): bigint {
  const holds = op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : op === '>=' ? a >= b : op === '==' ? a === b : a !== b;
  return holds ? 1n : 0n;
}

const truth = (a: Int): boolean => a !== 0;
const bool = (b: boolean): Int => (b ? 1 : 0);

export const lt = (a: Int, b: Int): Int => bool(a < b);
export const gt = (a: Int, b: Int): Int => bool(a > b);
export const eq = (a: Int, b: Int): Int => bool(a === b);
export const or = (a: Int, b: Int): Int => bool(truth(a) || truth(b));
export const and = (a: Int, b: Int): Int => bool(truth(a) && truth(b));
export const not = (a: Int): Int => bool(!truth(a));
export const min = (a: Int, b: Int): Int => (a < b ? a : b);
export const max = (a: Int, b: Int): Int => (a > b ? a : b);
export const select = (c: Int, t: Int, f: Int): Int => (truth(c) ? t : f);

/** Integer semantics of each operator, on error-free arguments. */
export const INT_OPS: Readonly<Record<OpName, (...args: Int[]) => Int>> = {
  '+': add, '-': sub, '*': mul, div, mod,
  or, and, not: (a) => not(a), '<': lt, '>': gt, '=': eq,
  select: (c, t, f) => select(c, t, f), min, max,
};

/** The rule of spec/expr.md that defines each operator on integers. */
export const OP_RULE: Readonly<Record<OpName, string>> = {
  '+': 'OP-ADD', '-': 'OP-SUB', '*': 'OP-MUL', div: 'OP-DIV', mod: 'OP-MOD',
  or: 'OP-OR', and: 'OP-AND', not: 'OP-NOT', '<': 'OP-LT', '>': 'OP-GT', '=': 'OP-EQ',
  select: 'OP-SELECT', min: 'OP-MIN', max: 'OP-MAX',
};

/** Def. 2.6 as a rule of spec/expr.md. */
export const ERROR_RULE = 'VAL-ERROR';

/**
 * An operator applied to already-evaluated arguments, with the rule that decided the result.
 * This is the meaning of `op(c̄)` used by [OP-EVAL] (fig. 2.6) and [EVAL] (fig. 2.8).
 */
export function applyOpRule(o: OpName, args: readonly Value[]): { value: Value; rule: string } {
  const err = worstError(args);
  if (err !== undefined) return { value: err, rule: ERROR_RULE };
  return { value: INT_OPS[o](...(args as Int[])), rule: OP_RULE[o] };
}

export function applyOp(o: OpName, args: readonly Value[]): Value {
  const err = worstError(args);
  if (err !== undefined) return err;
  return INT_OPS[o](...(args as Int[]));
}
