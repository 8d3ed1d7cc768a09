// Lifting rules (Pitchfork §3.2; spec/fpir.md, [FPIR-LIFT]): plain integer code to FPIR, as data.
// Each rule is written once over a type placeholder and instantiated for every type it holds for
// (`T` the operand type, `W` the type of twice its width and same signedness, `S` the signed
// type of twice its width, `I` the signed type of T's width, `N`/`X` the type's minimum and maximum). Rules are tried bottom-up, so
// later rules are written over the FPIR the earlier ones produce (e.g. halving over widening_add).
import { INT_TYPES, type ScalarType, tmax, tmin, typeName, widen, withSign } from './types.js';

export interface RewriteRule {
  readonly name: string;
  readonly lhs: string;
  readonly rhs: string;
  /** a bool FPIR condition on the wildcards under which the rule holds */
  readonly pre?: string;
}

interface Template {
  readonly name: string;
  readonly lhs: string;
  readonly rhs: string;
  readonly pre?: string;
  readonly types: (t: ScalarType) => boolean;
}

const narrowable = (t: ScalarType) => t.bits <= 32;
/** c0 is half of 2^c1, for 1 ≤ c1 ≤ B (the rounding term of a right shift by c1). */
const ROUNDING_HALF = '(c1_W >= 1) & (c1_W <= B) & (c0_W == W(1) << (c1_W - 1))';
const TEMPLATES: readonly Template[] = [
  // Pitchfork §2.1: the widening sum written with casts.
  { name: 'widening-add', lhs: 'W(x_T) + W(y_T)', rhs: 'widening_add(x_T, y_T)', types: narrowable },
  { name: 'widening-sub', lhs: 'S(x_T) - S(y_T)', rhs: 'widening_sub(x_T, y_T)', types: narrowable },
  { name: 'widening-mul', lhs: 'W(x_T) * W(y_T)', rhs: 'widening_mul(x_T, y_T)', types: narrowable },
  // A product of an unsigned and a signed value, widened ([FPIR-MIXED-SIGN]; vpmaddubsw's operands), in both orders.
  { name: 'widening-mul-mixed', lhs: 'S(x_T) * S(y_I)', rhs: 'widening_mul(x_T, y_I)', types: (t) => narrowable(t) && !t.signed },
  { name: 'widening-mul-mixed-left', lhs: 'S(y_I) * S(x_T)', rhs: 'widening_mul(y_I, x_T)', types: (t) => narrowable(t) && !t.signed },
  // Fig. 4: `u16(x_u8) + y_u16 -> extending_add(y_u16, x_u8)`, in both operand orders.
  { name: 'extending-add', lhs: 'y_W + W(x_T)', rhs: 'extending_add(y_W, x_T)', types: narrowable },
  { name: 'extending-add-left', lhs: 'W(x_T) + y_W', rhs: 'extending_add(y_W, x_T)', types: narrowable },
  // Fig. 4: two extending adds of narrow values are one widening add.
  { name: 'extending-add-pair', lhs: 'extending_add(extending_add(x_W, y_T), z_T)', rhs: 'widening_add(y_T, z_T) + x_W', types: narrowable },
  // A constant shift of a widened value; the amount must fit the narrow type (§4.3, bounds on constants).
  { name: 'widening-shl', lhs: 'W(x_T) << c0_W', rhs: 'widening_shl(x_T, c0_T)', types: narrowable },
  { name: 'widening-shl-by-mul-2', lhs: 'W(x_T) * 2', rhs: 'widening_shl(x_T, 1)', types: narrowable },
  // §4.1's synthesized rule: a signed widening shift of an unsigned value is the unsigned
  // widening shift reinterpreted (a wrapping cast between types of one width keeps the bits).
  { name: 'widening-shl-signed', lhs: 'S(x_T) << c0_S', rhs: 'S(widening_shl(x_T, c0_T))', types: (t) => narrowable(t) && !t.signed },
  // Rounding right shift of a widened value by c1 ≥ 1: adding half of 2^c1 first (the `+ c0_W`
  // arrives lifted as an extending add). Exact in W, so the narrowing cast wraps like rounding_shr.
  { name: 'rounding-shr', lhs: 'T(extending_add(c0_W, x_T) >> c1_W)', rhs: 'rounding_shr(x_T, c1_T)', pre: ROUNDING_HALF, types: narrowable },
  // Fig. 4: `u8(min(x_u16, 255)) -> saturating_cast<u8>(x_u16)`; signed sources need both bounds.
  { name: 'saturating-cast-min', lhs: 'T(min(x_W, X))', rhs: 'saturating_cast<T>(x_W)', types: (t) => narrowable(t) && !t.signed },
  { name: 'saturating-cast-clamp', lhs: 'T(min(max(x_S, N), X))', rhs: 'saturating_cast<T>(x_S)', types: narrowable },
  { name: 'saturating-cast-clamp-flipped', lhs: 'T(max(min(x_S, X), N))', rhs: 'saturating_cast<T>(x_S)', types: narrowable },
  { name: 'saturating-add', lhs: 'saturating_cast<T>(widening_add(x_T, y_T))', rhs: 'saturating_add(x_T, y_T)', types: narrowable },
  { name: 'saturating-sub', lhs: 'saturating_cast<T>(widening_sub(x_T, y_T))', rhs: 'saturating_sub(x_T, y_T)', types: narrowable },
  // Fig. 2b: absolute difference written with a select; the difference wraps in T either way.
  { name: 'absd', lhs: 'select(x_T > y_T, x_T - y_T, y_T - x_T)', rhs: 'absd(x_T, y_T)', types: (t) => !t.signed },
  { name: 'absd-signed', lhs: 'select(x_T > y_T, x_T - y_T, y_T - x_T)', rhs: 'T(absd(x_T, y_T))', types: (t) => t.signed },
  // §2.1: averaging with and without rounding, by shift or by division.
  { name: 'halving-add', lhs: 'T(widening_add(x_T, y_T) >> 1)', rhs: 'halving_add(x_T, y_T)', types: narrowable },
  { name: 'halving-add-div', lhs: 'T(widening_add(x_T, y_T) / 2)', rhs: 'halving_add(x_T, y_T)', types: narrowable },
  { name: 'rounding-halving-add', lhs: 'T((widening_add(x_T, y_T) + 1) >> 1)', rhs: 'rounding_halving_add(x_T, y_T)', types: narrowable },
  { name: 'halving-sub', lhs: 'T(widening_sub(x_T, y_T) >> 1)', rhs: 'halving_sub(x_T, y_T)', types: narrowable },
  // The high half of a product (§3.3, "Specific constants", seen from the lifting side).
  { name: 'mul-shr-high-half', lhs: 'T(widening_mul(x_T, y_T) >> B)', rhs: 'mul_shr(x_T, y_T, B)', types: (t) => t.bits === 16 || t.bits === 32 },
  // The rounding of a product (the `vqrdmulh` idiom, §5.1.3): adding 2^(c1−1) cannot overflow W
  // while c1 ≤ B, since |x·y| ≤ 2^(2B−2) (signed) or < 2^2B − 2^(B+1) (unsigned).
  { name: 'rounding-shr-product', lhs: '(widening_mul(x_T, y_T) + c0_W) >> c1_W', rhs: 'rounding_shr(widening_mul(x_T, y_T), c1_W)', pre: ROUNDING_HALF, types: narrowable },
  // Saturating the shifted product is mul_shr / rounding_mul_shr (table 1) for amounts ≥ 0 / ≥ 1.
  { name: 'mul-shr', lhs: 'saturating_cast<T>(widening_mul(x_T, y_T) >> c0_W)', rhs: 'mul_shr(x_T, y_T, c0_T)', pre: 'c0_W >= 0', types: narrowable },
  { name: 'rounding-mul-shr', lhs: 'saturating_cast<T>(rounding_shr(widening_mul(x_T, y_T), c0_W))', rhs: 'rounding_mul_shr(x_T, y_T, c0_T)', pre: 'c0_W >= 1', types: narrowable },
  // Absolute value written with a select; `0 - x` wraps at the type's minimum as the cast does.
  { name: 'abs', lhs: 'select(x_T < 0, 0 - x_T, x_T)', rhs: 'T(abs(x_T))', types: (t) => t.signed },
];

/** The template with every placeholder replaced for type `t`. */
function instantiateTemplate(tp: Template, t: ScalarType): RewriteRule {
  const sub = (s: string): string =>
    s
      .replace(/\bT\(|_T\b|<T>/g, (m) => m.replace('T', typeName(t)))
      .replace(/\bW\(|_W\b/g, (m) => m.replace('W', typeName(widen(t)!)))
      .replace(/\bS\(|_S\b/g, (m) => m.replace('S', typeName(withSign(widen(t)!, true))))
      .replace(/_I\b/g, `_${typeName(withSign(t, true))}`)
      .replace(/\bN\b/g, String(tmin(t)))
      .replace(/\bX\b/g, String(tmax(t)))
      .replace(/\bB\b/g, String(t.bits));
  return { name: `lift-${tp.name}-${typeName(t)}`, lhs: sub(tp.lhs), rhs: sub(tp.rhs), ...(tp.pre ? { pre: sub(tp.pre) } : {}) };
}

export const LIFTING_RULES: readonly RewriteRule[] = TEMPLATES.flatMap((tp) => INT_TYPES.filter((t) => tp.types(t)).map((t) => instantiateTemplate(tp, t)));
