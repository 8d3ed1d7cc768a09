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

const lit = (v: bigint): string => (v > 2n ** 63n - 1n ? `((rs_i128)UINT64_C(${v}))` : v < -(2n ** 63n) + 1n ? `((rs_i128)INT64_MIN)` : `((rs_i128)INT64_C(${v}))`);
const wrapC = (t: ScalarType, v: string): string => (t.bits === 1 ? `((rs_i128)((${v}) != 0))` : `((rs_i128)(${cScalar(t)})(${v}))`);
const clampC = (t: ScalarType, v: string): string => `rs_clamp(${v}, ${lit(tmin(t))}, ${lit(tmax(t))})`;

/** The exact-integer helpers the portable lanes use (FPIR-SHIFT, FPIR-DIV and saturation). */
export const PRELUDE = String.raw`#include <stdint.h>
#include <string.h>
typedef __int128 rs_i128;
typedef unsigned __int128 rs_u128;
static inline rs_i128 rs_clamp(rs_i128 v, rs_i128 lo, rs_i128 hi) { return v < lo ? lo : v > hi ? hi : v; }
/* x * 2^y (modulo 2^128: callers wrap to at most 64 bits) or floor(x / 2^-y) */
static inline rs_i128 rs_shl(rs_i128 x, rs_i128 y) {
  if (y >= 0) return y >= 128 ? 0 : (rs_i128)((rs_u128)x << (int)y);
  return y <= -127 ? (x < 0 ? -1 : 0) : x >> (int)-y;
}
static inline rs_i128 rs_div(rs_i128 a, rs_i128 b) { if (b == 0) return 0; rs_i128 q = a / b; if (a % b < 0) q = b > 0 ? q - 1 : q + 1; return q; }
static inline rs_i128 rs_mod(rs_i128 a, rs_i128 b) { if (b == 0) return 0; rs_i128 r = a % b; return r < 0 ? (b > 0 ? r + b : r - b) : r; }
/* floor((x + 2^(y-1)) / 2^y) for y > 0, else x * 2^-y; operands below 2^66 */
static inline rs_i128 rs_rshr(rs_i128 x, rs_i128 y) { if (y > 100) y = 100; return y > 0 ? (x + ((rs_i128)1 << (int)(y - 1))) >> (int)y : rs_shl(x, -y); }
/* clamp(x * 2^s) exactly, |x| below 2^66 */
static inline rs_i128 rs_sat_shift(rs_i128 x, rs_i128 s, rs_i128 lo, rs_i128 hi) {
  if (s <= 0) return rs_clamp(rs_shl(x, s), lo, hi);
  if (x == 0) return 0;
  if (s >= 100) return x > 0 ? hi : lo;
  if (x > (hi >> (int)s)) return hi;
  if (x < -((-lo) >> (int)s)) return lo;
  return x << (int)s;
}
/* (rounding_)mul_shr on i64: the product is exact in 128 bits (|x * y| <= 2^126); rounding adds
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
function laneC(e: FExpr, a: readonly string[], f: EmitFaults): string {
  const [x, y, z] = a;
  const t = e.type;
  const half = (v: string) => (f.truncatingHalving ? `((${v}) / 2)` : `((${v}) >> 1)`);
  switch (e.k) {
    case 'const':
      return lit(e.value);
    case 'var':
      throw new Error('inputs are loaded, not computed');
    case 'cast':
      return wrapC(t, x!);
    case 'select':
      return `(${x} ? ${y} : ${z})`;
    case 'prim':
      switch (e.op) {
        case '+':
        case '-':
        case '*':
          return wrapC(t, `(rs_u128)${x} ${e.op} (rs_u128)${y}`);
        case '/':
          return wrapC(t, `rs_div(${x}, ${y})`);
        case '%':
          return wrapC(t, `rs_mod(${x}, ${y})`);
        case 'min':
          return `(${x} < ${y} ? ${x} : ${y})`;
        case 'max':
          return `(${x} > ${y} ? ${x} : ${y})`;
        case '<<':
          return wrapC(t, `rs_shl(${x}, ${y})`);
        case '>>':
          return wrapC(t, `rs_shl(${x}, -${y})`);
        case '&':
        case '|':
        case '^':
          return wrapC(t, `${x} ${e.op} ${y}`);
        default:
          return `((rs_i128)(${x} ${e.op} ${y}))`;
      }
    case 'fp': {
      if ((e.op === 'mul_shr' || e.op === 'rounding_mul_shr') && t.bits === 64) {
        return `rs_mul_shr_${t.signed ? 'i' : 'u'}64(${x}, ${y}, ${z}, ${e.op === 'rounding_mul_shr' ? 1 : 0})`;
      }
      switch (e.op) {
        case 'extending_add':
        case 'extending_sub':
        case 'extending_mul':
          return wrapC(t, `(rs_u128)${x} ${e.op === 'extending_add' ? '+' : e.op === 'extending_sub' ? '-' : '*'} (rs_u128)${y}`);
        case 'widening_add':
          return `(${x} + ${y})`;
        case 'widening_sub':
          return `(${x} - ${y})`;
        case 'widening_mul':
          return `(${x} * ${y})`;
        case 'widening_shl':
          return wrapC(t, `rs_shl(${x}, ${y})`);
        case 'widening_shr':
          return wrapC(t, `rs_shl(${x}, -${y})`);
        case 'abs':
          return `(${x} < 0 ? -${x} : ${x})`;
        case 'absd':
          return `(${x} > ${y} ? ${x} - ${y} : ${y} - ${x})`;
        case 'saturating_cast':
        case 'saturating_narrow':
          return clampC(t, x!);
        case 'saturating_add':
          return clampC(t, `${x} + ${y}`);
        case 'saturating_sub':
          return clampC(t, `${x} - ${y}`);
        case 'halving_add':
          return wrapC(t, half(`${x} + ${y}`));
        case 'halving_sub':
          return wrapC(t, half(`${x} - ${y}`));
        case 'rounding_halving_add':
          return wrapC(t, half(`${x} + ${y} + 1`));
        case 'rounding_shr':
          return wrapC(t, `rs_rshr(${x}, ${y})`);
        case 'rounding_shl':
          return wrapC(t, `rs_rshr(${x}, -${y})`);
        case 'mul_shr':
          return `rs_sat_shift(${x} * ${y}, -${z}, ${lit(tmin(t))}, ${lit(tmax(t))})`;
        case 'rounding_mul_shr':
          return `(${z} > 0 ? ${clampC(t, `rs_rshr(${x} * ${y}, ${z})`)} : rs_sat_shift(${x} * ${y}, -${z}, ${lit(tmin(t))}, ${lit(tmax(t))}))`;
        case 'saturating_shl':
          return `rs_sat_shift(${x}, ${y}, ${lit(tmin(t))}, ${lit(tmax(t))})`;
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
  const go = (x: Selected): string => {
    const known = names.get(x);
    if (known) return known;
    let name: string;
    if (x.k === 'input') {
      let k = inputs.findIndex((v) => v.name === x.expr.name);
      if (k < 0) k = inputs.push(x.expr) - 1;
      name = `in${k} + i`;
    } else if (x.k === 'rule') {
      const ops = new Map([...x.operands].map(([v, o]) => [v, { at: go(o), type: o.expr.type }]));
      name = `t${names.size}`;
      body.push(`    ${cScalar(x.expr.type)} ${name}[${W}];`);
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
      name = `t${names.size}`;
      body.push(`    ${cScalar(x.expr.type)} ${name}[${W}];`);
      body.push(`    for (int l = 0; l < ${W}; l++) ${name}[l] = (${cScalar(x.expr.type)})${laneC(x.expr, args.map((a) => `((rs_i128)(${a.at})[l])`), faults)};`);
    }
    names.set(x, name);
    return name;
  };
  const root = go(s);
  const params = [...inputs.map((v, k) => `const ${cScalar(v.type)} *in${k}`), `${cScalar(s.expr.type)} *out`, 'long n'];
  const text = [
    `${cTargetAttr([...features])}static void ${name}(${params.join(', ')}) {`,
    `  for (long i = 0; i < n; i += ${W}) {`,
    ...body,
    `    memcpy(out + i, ${root}, sizeof(${cScalar(s.expr.type)}) * ${W});`,
    '  }',
    '}',
  ].join('\n');
  return { text, inputs, lanes: W };
}

