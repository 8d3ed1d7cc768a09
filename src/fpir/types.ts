// FPIR's element types (spec/fpir.md, [FPIR-TYPES]): unsigned and signed integers of 8, 16, 32 and
// 64 bits, plus the 1-bit boolean that comparisons produce. A value is an exact integer (bigint)
// inside its type's range; every operation states how it gets back into range: wrapping
// (`wrap`) or saturation (`clamp`). Pitchfork §3.1 relies on this split throughout table 1.

// implements [FPIR-TYPES]
export type Bits = 1 | 8 | 16 | 32 | 64;

export interface ScalarType {
  readonly signed: boolean;
  readonly bits: Bits;
}

export const BOOL: ScalarType = { signed: false, bits: 1 };

/** The eight integer types, narrowest first, unsigned before signed. */
export const INT_TYPES: readonly ScalarType[] = ([8, 16, 32, 64] as const).flatMap((bits) => [{ signed: false, bits }, { signed: true, bits }]);

export const typeName = (t: ScalarType): string => (t.bits === 1 ? 'bool' : `${t.signed ? 'i' : 'u'}${t.bits}`);

export function typeNamed(name: string): ScalarType | undefined {
  if (name === 'bool') return BOOL;
  return INT_TYPES.find((t) => typeName(t) === name);
}

export const typeEq = (a: ScalarType, b: ScalarType): boolean => a.signed === b.signed && a.bits === b.bits;

export const tmin = (t: ScalarType): bigint => (t.signed ? -(1n << BigInt(t.bits - 1)) : 0n);
export const tmax = (t: ScalarType): bigint => (t.signed ? (1n << BigInt(t.bits - 1)) - 1n : (1n << BigInt(t.bits)) - 1n);

/** The value of `v` modulo 2^bits, read in `t` (two's complement wrapping). */
export function wrap(v: bigint, t: ScalarType): bigint {
  return t.signed ? BigInt.asIntN(t.bits, v) : BigInt.asUintN(t.bits, v);
}

/** The nearest value of `t` (saturation). */
export const clamp = (v: bigint, t: ScalarType): bigint => (v < tmin(t) ? tmin(t) : v > tmax(t) ? tmax(t) : v);

/** Twice the bits, same signedness; undefined for 64 bits (FPIR has no 128-bit type). */
export const widen = (t: ScalarType): ScalarType | undefined => (t.bits >= 8 && t.bits < 64 ? { signed: t.signed, bits: (t.bits * 2) as Bits } : undefined);

/** Half the bits, same signedness; undefined for 8 bits. */
export const narrow = (t: ScalarType): ScalarType | undefined => (t.bits > 8 ? { signed: t.signed, bits: (t.bits / 2) as Bits } : undefined);

export const withSign = (t: ScalarType, signed: boolean): ScalarType => ({ signed, bits: t.bits });

export const inRange = (v: bigint, t: ScalarType): boolean => v >= tmin(t) && v <= tmax(t);
