// Values of the expression language: V = Z ∪ {ε_rdom, ε_mem} (fig. 2.5b, def. 2.6).
//
// Integers are exact. A value in the safe-integer range is a JS number (the fast path); outside
// it, a bigint. Every producer normalizes, so a given integer has exactly one representation and
// `===` is equality on integers of either kind.

export type ErrorValue = { readonly err: 'rdom' | 'mem'; readonly rank: 1 | 2 };
export type Int = number | bigint;
export type Value = Int | ErrorValue;

export const E_RDOM: ErrorValue = Object.freeze({ err: 'rdom', rank: 1 });
export const E_MEM: ErrorValue = Object.freeze({ err: 'mem', rank: 2 });

const MAX = BigInt(Number.MAX_SAFE_INTEGER);
const MIN = -MAX;

export function isError(v: Value): v is ErrorValue {
  return typeof v === 'object';
}

export function isInt(v: Value): v is Int {
  return typeof v !== 'object';
}

/** Canonical form of an exact integer: number when safe, bigint otherwise; never -0. */
export function normBig(b: bigint): Int {
  return b >= MIN && b <= MAX ? Number(b) : b;
}

/** Canonical form of a JS number that is known to be an exact integer. */
export function normNum(n: number): number {
  return n === 0 ? 0 : n;
}

export function toBig(v: Int): bigint {
  return typeof v === 'bigint' ? v : BigInt(v);
}

/** Parses a decimal integer literal exactly. */
export function intFromString(s: string): Int {
  return normBig(BigInt(s));
}

export function int(n: number | bigint): Int {
  if (typeof n === 'bigint') return normBig(n);
  if (!Number.isInteger(n)) throw new RangeError(`not an integer: ${n}`);
  return Number.isSafeInteger(n) ? normNum(n) : normBig(BigInt(n));
}

/** Value printing used everywhere (traces, JSON, spec examples). */
export function showValue(v: Value): string {
  if (isError(v)) return v.err === 'rdom' ? 'ε_rdom' : 'ε_mem';
  return v.toString();
}

/** The JSON encoding fixed by docs/architecture.md: numbers when |v| ≤ 2^53−1, else decimal strings. */
export function valueToJson(v: Value): number | string {
  if (isError(v)) return `err:${v.err}`;
  return typeof v === 'number' ? v : v.toString();
}

export function valueFromJson(j: unknown): Value {
  if (j === 'err:rdom') return E_RDOM;
  if (j === 'err:mem') return E_MEM;
  if (typeof j === 'number') return int(j);
  if (typeof j === 'string' && /^-?\d+$/.test(j)) return intFromString(j);
  throw new TypeError(`not a value: ${JSON.stringify(j)}`);
}

export function valueEquals(a: Value, b: Value): boolean {
  return a === b;
}
