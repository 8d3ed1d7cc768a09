// C for a selected FPIR expression (spec/fpir.md, [FPIR-EMIT-PROGRAM]): one function that runs
// the expression over arrays, a logical vector (LANES[target] lanes) at a time. Every selected node
// owns a lane array; a rule's node loads its operands' registers, calls its intrinsic tree and
// stores the result's registers; a portable node computes lane by lane on exact 128-bit integers
// and wraps or clamps into its type, mirroring src/fpir/instructions.ts operation by operation.
import type { FExpr } from './ast.js';
import { cCall, cLoad, cStore, cTargetAttr } from './emit-c.js';
import type { Intrinsic, RegType, Target } from './intrinsics.js';
import { LANES, REG_BITS } from './lower-rules.js';
import { type RhsTerm, callsOf, immValue } from './rhs.js';
import type { Selected } from './select.js';
import { type ScalarType, tmax, tmin } from './types.js';

export interface EmitFaults {
  /** C's truncating `/ 2` instead of the floor `>> 1` in the halving instructions */
  readonly truncatingHalving?: boolean;
}

export const cScalar = (t: ScalarType): string => (t.bits === 1 ? 'uint8_t' : `${t.signed ? 'int' : 'uint'}${t.bits}_t`);

/**
 * The C integer a portable node computes its lanes in, exact for every intermediate of the node
 * (see `exactFor`): 32 or 64 bits where those suffice, which the compiler vectorizes, else 128.
 */
interface Exact {
  readonly c: string;
  /** the unsigned type of the same width, for wrapping arithmetic */
  readonly u: string;
  /** the helpers' suffix */
  readonly s: string;
}
const EXACT32: Exact = { c: 'int32_t', u: 'uint32_t', s: '32' };
const EXACT64: Exact = { c: 'int64_t', u: 'uint64_t', s: '64' };
const EXACT128: Exact = { c: 'rs_i128', u: 'rs_u128', s: '' };

/**
 * The narrowest exact integer for a node of these types. Operands and result within 16 bits: every
 * sum, difference, square of a shift's rounding term and clamp stays below 2^30, so 32 bits; a
 * product of two 16-bit operands needs 33 bits with its sign, so `mul_shr` goes to 64. Within
 * 32 bits: sums and 16-bit products stay below 2^62, so 64 bits (wrapping products are computed
 * unsigned, modulo 2^64, then reduced to the result's width); a product of two 32-bit operands
 * needs 65 bits, and anything 64-bit stays on 128-bit integers.
 */
function exactFor(e: FExpr, operands: readonly ScalarType[]): Exact {
  const widest = Math.max(e.type.bits, ...operands.map((t) => t.bits));
  const product = e.k === 'fp' && (e.op === 'mul_shr' || e.op === 'rounding_mul_shr');
  if (widest <= 16 && !product) return EXACT32;
  if (widest <= 32 && !(product && widest > 16)) return EXACT64;
  return EXACT128;
}

const lit = (v: bigint, x: Exact = EXACT128): string =>
  x !== EXACT128 ? `((${x.c})INT64_C(${v}))` : v > 2n ** 63n - 1n ? `((rs_i128)UINT64_C(${v}))` : v < -(2n ** 63n) + 1n ? `((rs_i128)INT64_MIN)` : `((rs_i128)INT64_C(${v}))`;
const wrapC = (t: ScalarType, v: string, x: Exact): string => (t.bits === 1 ? `((${x.c})((${v}) != 0))` : `((${x.c})(${cScalar(t)})(${v}))`);
const clampC = (t: ScalarType, v: string, x: Exact): string => `rs_clamp${x.s}(${v}, ${lit(tmin(t), x)}, ${lit(tmax(t), x)})`;

/**
 * The shift and saturation helpers on one exact integer: `bits` wide, and `lim`, the largest
 * shift they perform; a larger one gives the same result on their operands (below 2^(lim − 1)
 * in magnitude: the rounding term then already exceeds them, and so does every saturation bound).
 */
const helpers = (x: Exact, bits: number, lim: number): string => String.raw`static inline ${x.c} rs_clamp${x.s}(${x.c} v, ${x.c} lo, ${x.c} hi) { return v < lo ? lo : v > hi ? hi : v; }
/* x * 2^y (modulo 2^${bits}: callers wrap to fewer bits) or floor(x / 2^-y) */
static inline ${x.c} rs_shl${x.s}(${x.c} x, ${x.c} y) {
  if (y >= 0) return y >= ${bits} ? 0 : (${x.c})((${x.u})x << (int)y);
  return y <= -${bits - 1} ? (x < 0 ? -1 : 0) : x >> (int)-y;
}
static inline ${x.c} rs_div${x.s}(${x.c} a, ${x.c} b) { if (b == 0) return 0; ${x.c} q = a / b; if (a % b < 0) q = b > 0 ? q - 1 : q + 1; return q; }
static inline ${x.c} rs_mod${x.s}(${x.c} a, ${x.c} b) { if (b == 0) return 0; ${x.c} r = a % b; return r < 0 ? (b > 0 ? r + b : r - b) : r; }
/* floor((x + 2^(y-1)) / 2^y) for y > 0, else x * 2^-y */
static inline ${x.c} rs_rshr${x.s}(${x.c} x, ${x.c} y) { if (y > ${lim}) y = ${lim}; return y > 0 ? (x + ((${x.c})1 << (int)(y - 1))) >> (int)y : rs_shl${x.s}(x, -y); }
/* clamp(x * 2^s) exactly */
static inline ${x.c} rs_sat_shift${x.s}(${x.c} x, ${x.c} s, ${x.c} lo, ${x.c} hi) {
  if (s <= 0) return rs_clamp${x.s}(rs_shl${x.s}(x, s), lo, hi);
  if (x == 0) return 0;
  if (s >= ${lim}) return x > 0 ? hi : lo;
  if (x > (hi >> (int)s)) return hi;
  if (x < -((-lo) >> (int)s)) return lo;
  return x << (int)s;
}
`;

/** The exact-integer helpers the portable lanes use (FPIR-SHIFT, FPIR-DIV and saturation). */
export const PRELUDE = String.raw`#include <stdint.h>
#include <string.h>
typedef __int128 rs_i128;
typedef unsigned __int128 rs_u128;
${helpers(EXACT128, 128, 100)}${helpers(EXACT64, 64, 62)}${helpers(EXACT32, 32, 30)}/* (rounding_)mul_shr on i64: the product is exact in 128 bits (|x * y| <= 2^126); rounding adds
   bit z - 1 of the product to the floor (rs_shl by a negative amount), which is floor((p + 2^(z-1)) / 2^z) */
static inline rs_i128 rs_mul_shr_i64(rs_i128 x, rs_i128 y, rs_i128 z, int round) {
  rs_i128 p = x * y;
  if (z <= 0) return rs_sat_shift(p, -z, INT64_MIN, INT64_MAX);
  rs_i128 q = rs_shl(p, -z) + (round ? rs_shl(p, 1 - z) & 1 : 0);
  return rs_clamp(q, INT64_MIN, INT64_MAX);
}
/* the same on u64: the product needs all 128 bits unsigned */
static inline rs_i128 rs_mul_shr_u64(rs_i128 x, rs_i128 y, rs_i128 z, int round) {
  rs_u128 p = (rs_u128)x * (rs_u128)y, hi = UINT64_MAX;
  if (z <= 0) {
    if (p == 0) return 0;
    if (z <= -64) return (rs_i128)hi;
    return (rs_i128)(p > (hi >> (int)-z) ? hi : p << (int)-z);
  }
  rs_u128 q = z >= 128 ? 0 : p >> (int)z;
  if (round && z <= 128) q += (p >> (int)(z - 1)) & 1;
  return (rs_i128)(q > hi ? hi : q);
}
`;

/** One lane of one node, from its operands' exact values `a`. */
function laneC(e: FExpr, a: readonly string[], f: EmitFaults, ex: Exact): string {
  const [x, y, z] = a;
  const t = e.type;
  const half = (v: string) => (f.truncatingHalving ? `((${v}) / 2)` : `((${v}) >> 1)`);
  switch (e.k) {
    case 'const':
      return lit(e.value, ex);
    case 'var':
      throw new Error('inputs are loaded, not computed');
    case 'cast':
      return wrapC(t, x!, ex);
    case 'select':
      return `(${x} ? ${y} : ${z})`;
    case 'prim':
      switch (e.op) {
        case '+':
        case '-':
        case '*':
          return wrapC(t, `(${ex.u})${x} ${e.op} (${ex.u})${y}`, ex);
        case '/':
          return wrapC(t, `rs_div${ex.s}(${x}, ${y})`, ex);
        case '%':
          return wrapC(t, `rs_mod${ex.s}(${x}, ${y})`, ex);
        case 'min':
          return `(${x} < ${y} ? ${x} : ${y})`;
        case 'max':
          return `(${x} > ${y} ? ${x} : ${y})`;
        case '<<':
          return wrapC(t, `rs_shl${ex.s}(${x}, ${y})`, ex);
        case '>>':
          return wrapC(t, `rs_shl${ex.s}(${x}, -${y})`, ex);
        case '&':
        case '|':
        case '^':
          return wrapC(t, `${x} ${e.op} ${y}`, ex);
        default:
          return `((${ex.c})(${x} ${e.op} ${y}))`;
      }
    case 'fp': {
      if ((e.op === 'mul_shr' || e.op === 'rounding_mul_shr') && t.bits === 64) {
        return `rs_mul_shr_${t.signed ? 'i' : 'u'}64(${x}, ${y}, ${z}, ${e.op === 'rounding_mul_shr' ? 1 : 0})`;
      }
      switch (e.op) {
        case 'extending_add':
        case 'extending_sub':
        case 'extending_mul':
          return wrapC(t, `(${ex.u})${x} ${e.op === 'extending_add' ? '+' : e.op === 'extending_sub' ? '-' : '*'} (${ex.u})${y}`, ex);
        case 'widening_add':
          return `(${x} + ${y})`;
        case 'widening_sub':
          return `(${x} - ${y})`;
        case 'widening_mul':
          return `(${x} * ${y})`;
        case 'widening_shl':
          return wrapC(t, `rs_shl${ex.s}(${x}, ${y})`, ex);
        case 'widening_shr':
          return wrapC(t, `rs_shl${ex.s}(${x}, -${y})`, ex);
        case 'abs':
          return `(${x} < 0 ? -${x} : ${x})`;
        case 'absd':
          return `(${x} > ${y} ? ${x} - ${y} : ${y} - ${x})`;
        case 'saturating_cast':
        case 'saturating_narrow':
          return clampC(t, x!, ex);
        case 'saturating_add':
          return clampC(t, `${x} + ${y}`, ex);
        case 'saturating_sub':
          return clampC(t, `${x} - ${y}`, ex);
        case 'halving_add':
          return wrapC(t, half(`${x} + ${y}`), ex);
        case 'halving_sub':
          return wrapC(t, half(`${x} - ${y}`), ex);
        case 'rounding_halving_add':
          return wrapC(t, half(`${x} + ${y} + 1`), ex);
        case 'rounding_shr':
          return wrapC(t, `rs_rshr${ex.s}(${x}, ${y})`, ex);
        case 'rounding_shl':
          return wrapC(t, `rs_rshr${ex.s}(${x}, -${y})`, ex);
        case 'mul_shr':
          return `rs_sat_shift${ex.s}(${x} * ${y}, -${z}, ${lit(tmin(t), ex)}, ${lit(tmax(t), ex)})`;
        case 'rounding_mul_shr':
          return `(${z} > 0 ? ${clampC(t, `rs_rshr${ex.s}(${x} * ${y}, ${z})`, ex)} : rs_sat_shift${ex.s}(${x} * ${y}, -${z}, ${lit(tmin(t), ex)}, ${lit(tmax(t), ex)}))`;
        case 'saturating_shl':
          return `rs_sat_shift${ex.s}(${x}, ${y}, ${lit(tmin(t), ex)}, ${lit(tmax(t), ex)})`;
      }
    }
  }
}

export interface EmittedFunction {
  readonly text: string;
  /** the inputs in parameter order */
  readonly inputs: readonly Extract<FExpr, { k: 'var' }>[];
  readonly lanes: number;
}

// implements [FPIR-EMIT-PROGRAM]
/** `void name(const T *in0, …, R *out, long n)`, n a multiple of the lanes. */
export function emitFunction(s: Selected, target: Target, name: string, faults: EmitFaults = {}): EmittedFunction {
  const W = LANES[target];
  const regBytes = REG_BITS[target] / 8;
  const body: string[] = [];
  const inputs: Extract<FExpr, { k: 'var' }>[] = [];
  const features = new Set<string>();
  const names = new Map<Selected, string>();
  // The root's lanes go straight to `out`: a copy from its own array would be one more round trip
  // through memory, and one that GCC may read back wider than it was stored (see below).
  const go = (x: Selected, dest?: string): string => {
    const known = names.get(x);
    if (known) return known;
    let name: string;
    if (x.k === 'input') {
      let k = inputs.findIndex((v) => v.name === x.expr.name);
      if (k < 0) k = inputs.push(x.expr) - 1;
      name = `in${k} + i`;
    } else if (x.k === 'rule') {
      const ops = new Map([...x.operands].map(([v, o]) => [v, { at: go(o), type: o.expr.type }]));
      name = dest ?? `t${names.size}`;
      if (!dest) body.push(`    ${cScalar(x.expr.type)} ${name}[${W}];`);
      const part = (v: string, k: number): string => {
        const o = ops.get(v)!;
        const view: RegType = { elem: o.type, lanes: REG_BITS[target] / o.type.bits };
        return cLoad(view, target, `(const char *)(${o.at}) + ${k * regBytes}`);
      };
      const expr = (t: RhsTerm): { c: string; entry?: Intrinsic } => {
        if (t.k === 'part') return { c: part(t.var, t.index) };
        return { c: cCall(t.entry, t.args.map((a) => expr(a).c), immValue(t.imm, x.consts)), entry: t.entry };
      };
      let off = 0;
      for (const t of x.terms) {
        callsOf(t).forEach((c) => c.features.forEach((f) => features.add(f)));
        const r = expr(t);
        const view = r.entry!.result;
        body.push(`    ${cStore(view, target, `(char *)${name} + ${off}`, r.c)};`);
        off += (view.elem.bits * view.lanes) / 8;
      }
    } else {
      const args = x.args.map((a) => ({ at: go(a), type: a.expr.type }));
      name = dest ?? `t${names.size}`;
      if (!dest) body.push(`    ${cScalar(x.expr.type)} ${name}[${W}];`);
      const ex = exactFor(x.expr, args.map((a) => a.type));
      body.push(`    for (int l = 0; l < ${W}; l++) ${name}[l] = (${cScalar(x.expr.type)})${laneC(x.expr, args.map((a) => `((${ex.c})(${a.at})[l])`), faults, ex)};`);
    }
    names.set(x, name);
    return name;
  };
  const root = go(s, s.k === 'input' ? undefined : '(out + i)');
  // x86: the portable nodes' lane loops vectorized at the target's register width. Left to
  // -march=native on an AVX-512 CPU, GCC widens a loop over an AVX2 node's lane array to 512 bits and
  // reads back as one 64-byte load what the intrinsics stored as two 32-byte halves, a failed store
  // forward in every iteration (measured 40 times slower than the same code at 256 bits on this CPU).
  const params = [...inputs.map((v, k) => `const ${cScalar(v.type)} *in${k}`), `${cScalar(s.expr.type)} *out`, 'long n'];
  const text = [
    `${cTargetAttr(target === 'neon' ? [...features] : [...features, `prefer-vector-width=${REG_BITS[target]}`])}static void ${name}(${params.join(', ')}) {`,
    `  for (long i = 0; i < n; i += ${W}) {`,
    ...body,
    ...(s.k === 'input' ? [`    memcpy(out + i, ${root}, sizeof(${cScalar(s.expr.type)}) * ${W});`] : []),
    '  }',
    '}',
  ].join('\n');
  return { text, inputs, lanes: W };
}

