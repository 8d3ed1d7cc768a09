// The SIMD helper sets of the runtime header (spec/codegen.md, "Vector loops"): one set per
// instruction set, all with the same names under a prefix, so that emit-simd.ts writes one body
// for every ISA. Arithmetic uses GCC vector extensions (compiled to the ISA by the function's
// target attribute); loads, stores, scatters, 64-bit multiply and min/max use the immintrin.h
// intrinsics where the ISA has them, gathers load lane by lane ([C-GATHER]). Nothing here can
// fail: a lane that would overflow, divide INT64_MIN by -1, read an error value or leave its
// allocation sets the chunk's anomaly flag, and the emitted code reruns that chunk with the
// scalar code, which reports it exactly.
import { registerCall } from './rule-intrinsics.js';

/** One helper set: prefix, vector type, its unsigned twin, lanes, function attribute. */
interface VecSet {
  readonly p: string;
  readonly v: string;
  readonly u: string;
  readonly w: number;
  readonly attr: string;
  readonly guard: string; // preprocessor condition under which the set exists
  readonly d: string; // the double vector of the same lane count
  readonly h: string; // the int32 vector of the same lane count (narrowed lanes)
  readonly hu: string;
}

/**
 * What the AVX-512 variant needs: F and DQ for its 64-bit multiply, min and max; VL and BW let the
 * compiler use AVX-512's encodings, masks and min/max for the 128- and 256-bit lanes of short loops
 * and narrow values (a tenth off the Harris example). Every CPU with DQ has VL and BW.
 */
export const AVX512_FEATURES = ['avx512f', 'avx512dq', 'avx512vl', 'avx512bw'] as const;

const SETS: readonly VecSet[] = [
  { p: 'rs512', v: 'rs_v8', u: 'rs_u8', w: 8, attr: `__attribute__((always_inline, target("${AVX512_FEATURES.join(',')}")))`, guard: 'RS_X86', d: 'rs_d8', h: 'rs_h8', hu: 'rs_hu8' },
  { p: 'rs256', v: 'rs_v4', u: 'rs_u4', w: 4, attr: '__attribute__((always_inline, target("avx2")))', guard: 'RS_X86', d: 'rs_d4', h: 'rs_h4', hu: 'rs_hu4' },
  { p: 'rsg', v: 'rs_v4', u: 'rs_u4', w: 4, attr: '__attribute__((always_inline))', guard: '1', d: 'rs_d4', h: 'rs_h4', hu: 'rs_hu4' },
];

/** The lanes of a vector literal, `f(0), …, f(w − 1)`. */
function laneList(w: number, f: (j: number) => string): string {
  return Array.from({ length: w }, (_, j) => f(j)).join(', ');
}

function iota(w: number): string {
  return Array.from({ length: w }, (_, i) => i).join(', ');
}

/** The helpers' operands as x86 registers, for the rules' wildcards x and y. */
const AB512 = { x: '(__m512i)a', y: '(__m512i)b' };
const AB256 = { x: '(__m256i)a', y: '(__m256i)b' };
/** 128-bit operands in the low half of a 256-bit register. */
const LOW128 = { x: '_mm256_castsi128_si256((__m128i)a)', y: '_mm256_castsi128_si256((__m128i)b)' };

/** Operations whose best form depends on the ISA; their arithmetic intrinsics come from lowering rules ([C-SELECT]). */
function isaSpecific(s: VecSet): string {
  const { p, v, u, w, attr } = s;
  const lanes = (body: string) => `for (int j = 0; j < ${w}; j++) { ${body} }`;
  if (p === 'rs512') {
    return `
static inline ${attr} ${v} ${p}_loadu(const int64_t *q) { return (${v})_mm512_loadu_si512((const void *)q); }
static inline ${attr} void ${p}_storeu(int64_t *q, ${v} x) { _mm512_storeu_si512((void *)q, (__m512i)x); }
static inline ${attr} void ${p}_scatter(int64_t *base, ${v} off, ${v} x) { _mm512_i64scatter_epi64((void *)base, (__m512i)off, (__m512i)x, 8); }
static inline ${attr} ${v} ${p}_mullo(${v} a, ${v} b) { return (${v})${registerCall('lower-avx512-mul-i64', AB512)}; }
static inline ${attr} ${v} ${p}_min(${v} a, ${v} b) { return (${v})${registerCall('lower-avx512-min-i64', AB512)}; }
static inline ${attr} ${v} ${p}_max(${v} a, ${v} b) { return (${v})${registerCall('lower-avx512-max-i64', AB512)}; }
static inline ${attr} int ${p}_any(${v} m) { return _mm512_test_epi64_mask((__m512i)m, (__m512i)m) != 0; }`;
  }
  if (p === 'rs256') {
    return `
static inline ${attr} ${v} ${p}_loadu(const int64_t *q) { return (${v})_mm256_loadu_si256((const __m256i *)q); }
static inline ${attr} void ${p}_storeu(int64_t *q, ${v} x) { _mm256_storeu_si256((__m256i *)q, (__m256i)x); }
static inline ${attr} void ${p}_scatter(int64_t *base, ${v} off, ${v} x) { ${lanes('base[off[j]] = x[j];')} }
/* AVX2 has no 64-bit multiply; vpmuldq multiplies the sign-extended low halves, which is exact
   for the lanes ${p}_mul lets through (both factors fit in 32 bits: the rule's precondition). */
static inline ${attr} ${v} ${p}_mullo(${v} a, ${v} b) { return (${v})${registerCall('lower-avx2-mul-i64-factors-fit-i32', AB256)}; }
static inline ${attr} ${v} ${p}_min(${v} a, ${v} b) { ${v} m = a > b; return (a & ~m) | (b & m); }
static inline ${attr} ${v} ${p}_max(${v} a, ${v} b) { ${v} m = a > b; return (a & m) | (b & ~m); }
static inline ${attr} int ${p}_any(${v} m) { return !_mm256_testz_si256((__m256i)m, (__m256i)m); }`;
  }
  return `
static inline ${attr} ${v} ${p}_loadu(const int64_t *q) { ${v} x; memcpy(&x, q, sizeof x); return x; }
static inline ${attr} void ${p}_storeu(int64_t *q, ${v} x) { memcpy(q, &x, sizeof x); }
static inline ${attr} void ${p}_scatter(int64_t *base, ${v} off, ${v} x) { ${lanes('base[off[j]] = x[j];')} }
static inline ${attr} ${v} ${p}_mullo(${v} a, ${v} b) { return (${v})((${u})a * (${u})b); }
static inline ${attr} ${v} ${p}_min(${v} a, ${v} b) { ${v} m = a > b; return (a & ~m) | (b & m); }
static inline ${attr} ${v} ${p}_max(${v} a, ${v} b) { ${v} m = a > b; return (a & m) | (b & ~m); }
static inline ${attr} int ${p}_any(${v} m) { ${v} z = {0}; ${lanes('if (m[j] != z[j]) return 1;')} return 0; }`;
}

/** Operations written once with vector extensions, instantiated per set. */
function common(s: VecSet): string {
  const { p, v, u, w, attr } = s;
  const lanes = (body: string) => `for (int j = 0; j < ${w}; j++) { ${body} }`;
  return `
static inline ${attr} ${v} ${p}_splat(int64_t x) { return (${v}){0} + x; }
static inline ${attr} ${v} ${p}_iota(int64_t x) { return (${v}){${iota(w)}} + x; }
/* Overflow: the wrapped sum differs in sign from both operands (wrapping is done unsigned). */
static inline ${attr} ${v} ${p}_add(${v} a, ${v} b, ${v} *an) { ${v} r = (${v})((${u})a + (${u})b); *an |= ((a ^ r) & (b ^ r)) < 0; return r; }
static inline ${attr} ${v} ${p}_sub(${v} a, ${v} b, ${v} *an) { ${v} r = (${v})((${u})a - (${u})b); *an |= ((a ^ b) & (a ^ r)) < 0; return r; }
/* [C-PROVED] operations: their ranges were proved at loop entry, so no lane can overflow. */
static inline ${attr} ${v} ${p}_wadd(${v} a, ${v} b) { return (${v})((${u})a + (${u})b); }
static inline ${attr} ${v} ${p}_wsub(${v} a, ${v} b) { return (${v})((${u})a - (${u})b); }
static inline ${attr} ${v} ${p}_wmul(${v} a, ${v} b) { return (${v})((${u})a * (${u})b); }
/* A lane fits in 32 bits when sign-extending its low half gives it back. Two such factors have an
   exact 64-bit product; other lanes are anomalies and go to the scalar code, which checks exactly. */
static inline ${attr} ${v} ${p}_fits32(${v} a) { return ((${v})((${u})a << 32) >> 32) == a; }
static inline ${attr} ${v} ${p}_mul(${v} a, ${v} b, ${v} *an) { *an |= ~(${p}_fits32(a) & ${p}_fits32(b)); return ${p}_mullo(a, b); }
/* By a constant c > 0 the test is exact: a·c fits iff INT64_MIN / c ≤ a ≤ INT64_MAX / c. */
static inline ${attr} ${v} ${p}_mulk(${v} a, int64_t c, ${v} *an) {
  *an |= (a > (${v}){0} + INT64_MAX / c) | (a < (${v}){0} + INT64_MIN / c);
  return (${v})((${u})a * (uint64_t)c);
}
/* Division through doubles: for |a|, |b| < 2^52 the correctly rounded quotient truncates to the
   exact truncated quotient (a non-integer a/b is at least 1/|b| from every integer, more than half
   an ulp of it). Larger lanes are anomalies. Division by 0 gives 0 (§2.9). */
static inline ${attr} ${v} ${p}_tquot(${v} a, ${v} b, ${v} *an, ${v} *zero, ${v} *bs, ${v} *r) {
  const int64_t lim = INT64_C(1) << 52;
  *an |= (a >= lim) | (a <= -lim) | (b >= lim) | (b <= -lim);
  *zero = b == 0;
  *bs = (b & ~*zero) | (1 & *zero);
  ${v} q = __builtin_convertvector(__builtin_convertvector(a, ${s.d}) / __builtin_convertvector(*bs, ${s.d}), ${v});
  *r = (${v})((${u})a - (${u})q * (${u})*bs);
  return q;
}
static inline ${attr} ${v} ${p}_div(${v} a, ${v} b, ${v} *an) {
  ${v} zero, bs, r, q = ${p}_tquot(a, b, an, &zero, &bs, &r);
  ${v} neg = r < 0, pos = bs > 0;
  q = q - (neg & pos & 1) + (neg & ~pos & 1);
  return q & ~zero;
}
static inline ${attr} ${v} ${p}_mod(${v} a, ${v} b, ${v} *an) {
  ${v} zero, bs, r;
  (void)${p}_tquot(a, b, an, &zero, &bs, &r);
  ${v} neg = r < 0, nb = bs < 0;
  r = r + (neg & ((bs & ~nb) | (-bs & nb)));
  return r & ~zero;
}
/* [C-DIV-POSITIVE] a ≥ 0, b ≥ 1 and a < 2^52: the doubles' quotient truncates to the Euclidean one.
   (A lane of a chunk that falls back may hold anything: a zero divisor is made 1 there.) */
static inline ${attr} ${v} ${p}_divp(${v} a, ${v} b) { return __builtin_convertvector(__builtin_convertvector(a, ${s.d}) / __builtin_convertvector(b - (b == 0), ${s.d}), ${v}); }
static inline ${attr} ${v} ${p}_modp(${v} a, ${v} b) { return (${v})((${u})a - (${u})${p}_divp(a, b) * (${u})b); }
static inline ${attr} ${v} ${p}_tdiv(${v} a, ${v} b, ${v} *an) {
  ${v} zero, bs, r, q = ${p}_tquot(a, b, an, &zero, &bs, &r);
  return q & ~zero;
}
static inline ${attr} ${v} ${p}_tmod(${v} a, ${v} b, ${v} *an) {
  ${v} zero, bs, r;
  (void)${p}_tquot(a, b, an, &zero, &bs, &r);
  return r & ~zero;
}
static inline ${attr} ${v} ${p}_lt(${v} a, ${v} b) { return (a < b) & 1; }
static inline ${attr} ${v} ${p}_gt(${v} a, ${v} b) { return (a > b) & 1; }
static inline ${attr} ${v} ${p}_eq(${v} a, ${v} b) { return (a == b) & 1; }
static inline ${attr} ${v} ${p}_and(${v} a, ${v} b) { return (a != 0) & (b != 0) & 1; }
static inline ${attr} ${v} ${p}_or(${v} a, ${v} b) { return ((a != 0) | (b != 0)) & 1; }
static inline ${attr} ${v} ${p}_not(${v} a) { return (a == 0) & 1; }
static inline ${attr} ${v} ${p}_select(${v} c, ${v} t, ${v} f) { ${v} m = c != 0; return (t & m) | (f & ~m); }
static inline ${attr} ${v} ${p}_reverse(${v} x) { return __builtin_shuffle(x, (${v}){${iota(w).split(', ').reverse().join(', ')}}); }
/* Lanes whose coordinate lies outside [min, min+len): unsigned compare of the distance. */
static inline ${attr} ${v} ${p}_outside(${v} i, int64_t min, int64_t len) { return (${v})(((${u})i - (uint64_t)min) >= (uint64_t)len); }
/* Any written-tag of the lanes' points that is not a plain integer. */
static inline ${attr} int ${p}_tags_gather(const uint8_t *tag, ${v} off) { int t = 0; ${lanes('t |= tag[off[j]];')} return t; }
static inline ${attr} int ${p}_tags_load(const uint8_t *tag) { uint${w * 8}_t t; memcpy(&t, tag, sizeof t); return t != 0; }
static inline ${attr} void ${p}_tags_clear(uint8_t *tag) { memset(tag, 0, ${w}); }
static inline ${attr} void ${p}_tags_clear_scatter(uint8_t *tag, ${v} off) { ${lanes('tag[off[j]] = 0;')} }
/* [C-STORAGE] 32-bit payloads, as lanes of the same count. */
static inline ${attr} ${s.h} ${p}_load32(const int32_t *q) { ${s.h} x; memcpy(&x, q, sizeof x); return x; }
static inline ${attr} void ${p}_store32(int32_t *q, ${s.h} x) { memcpy(q, &x, sizeof x); }
${gathers(s)}
static inline ${attr} void ${p}_scatter32(int32_t *base, ${v} off, ${s.h} x) { ${lanes('base[off[j]] = x[j];')} }`;
}

// implements [C-GATHER]
/**
 * Gathers of 64-bit and of 32-bit payloads: one load per lane, the vector a literal of the loads,
 * which the compiler builds in registers (a scalar load and an insert per lane) — neither a gather
 * instruction nor a vector assembled in a stack slot, which every later use reads back through a
 * failed store-to-load forwarding.
 */
function gathers(s: VecSet): string {
  const { p, v, w, attr, h } = s;
  const loads = laneList(w, (j) => `base[off[${j}]]`);
  return `static inline ${attr} ${v} ${p}_gather(const int64_t *base, ${v} off) { return (${v}){${loads}}; }
static inline ${attr} ${h} ${p}_gather32(const int32_t *base, ${v} off) { return (${h}){${loads}}; }`;
}

/**
 * 32-bit lanes ([C-NARROW]): used only when the lanes' value ranges are proved to fit, so no
 * operation checks overflow; arithmetic is still done unsigned, so that even the planted fault
 * that skips the proof wraps instead of invoking undefined behaviour.
 */
function narrow(s: VecSet): string {
  const { p, w, attr, d, h, hu } = s;
  const q = `${p}h`;
  return `
static inline ${attr} ${h} ${q}_splat(int64_t x) { return (${h}){0} + (int32_t)x; }
static inline ${attr} ${h} ${q}_iota(int64_t x) { return (${h}){${iota(w)}} + (int32_t)x; }
static inline ${attr} ${h} ${q}_add(${h} a, ${h} b) { return (${h})((${hu})a + (${hu})b); }
static inline ${attr} ${h} ${q}_sub(${h} a, ${h} b) { return (${h})((${hu})a - (${hu})b); }
static inline ${attr} ${h} ${q}_mul(${h} a, ${h} b) { return (${h})((${hu})a * (${hu})b); }
/* Euclidean div and mod by a constant 0 < c < 2^31: C's truncating division by a constant, which
   the compiler turns into a multiply-high, corrected by the sign of the remainder (|t·c| ≤ |a|). */
static inline ${attr} ${h} ${q}_divc(${h} a, ${h} c) { ${h} t = a / c; return t + ((a - t * c) >> 31); }
static inline ${attr} ${h} ${q}_modc(${h} a, ${h} c) { ${h} r = a - a / c * c; return r + ((r >> 31) & c); }
static inline ${attr} ${h} ${q}_tquot(${h} a, ${h} b, ${h} *zero, ${h} *bs, ${h} *r) {
  *zero = b == 0;
  *bs = (b & ~*zero) | (1 & *zero);
  ${h} t = __builtin_convertvector(__builtin_convertvector(a, ${d}) / __builtin_convertvector(*bs, ${d}), ${h});
  *r = (${h})((${hu})a - (${hu})t * (${hu})*bs);
  return t;
}
static inline ${attr} ${h} ${q}_div(${h} a, ${h} b) {
  ${h} zero, bs, r, t = ${q}_tquot(a, b, &zero, &bs, &r);
  ${h} neg = r < 0, pos = bs > 0;
  t = t - (neg & pos & 1) + (neg & ~pos & 1);
  return t & ~zero;
}
static inline ${attr} ${h} ${q}_mod(${h} a, ${h} b) {
  ${h} zero, bs, r;
  (void)${q}_tquot(a, b, &zero, &bs, &r);
  ${h} neg = r < 0, nb = bs < 0;
  return (r + (neg & ((bs & ~nb) | (-bs & nb)))) & ~zero;
}
static inline ${attr} ${h} ${q}_divp(${h} a, ${h} b) { return __builtin_convertvector(__builtin_convertvector(a, ${d}) / __builtin_convertvector(b - (b == 0), ${d}), ${h}); }
static inline ${attr} ${h} ${q}_modp(${h} a, ${h} b) { return (${h})((${hu})a - (${hu})${q}_divp(a, b) * (${hu})b); }
static inline ${attr} ${h} ${q}_tdiv(${h} a, ${h} b) { ${h} zero, bs, r, t = ${q}_tquot(a, b, &zero, &bs, &r); return t & ~zero; }
static inline ${attr} ${h} ${q}_tmod(${h} a, ${h} b) { ${h} zero, bs, r; (void)${q}_tquot(a, b, &zero, &bs, &r); return r & ~zero; }
static inline ${attr} ${h} ${q}_lt(${h} a, ${h} b) { return (a < b) & 1; }
static inline ${attr} ${h} ${q}_gt(${h} a, ${h} b) { return (a > b) & 1; }
static inline ${attr} ${h} ${q}_eq(${h} a, ${h} b) { return (a == b) & 1; }
static inline ${attr} ${h} ${q}_and(${h} a, ${h} b) { return (a != 0) & (b != 0) & 1; }
static inline ${attr} ${h} ${q}_or(${h} a, ${h} b) { return ((a != 0) | (b != 0)) & 1; }
static inline ${attr} ${h} ${q}_not(${h} a) { return (a == 0) & 1; }
static inline ${attr} ${h} ${q}_select(${h} c, ${h} t, ${h} f) { ${h} m = c != 0; return (t & m) | (f & ~m); }
${narrowMinMax(s)}
${widen(s)}
${anyZero(s)}`;
}

/**
 * Narrowed lanes back to 64 bits (stores, offsets, range checks): one sign-extending move where
 * the ISA has it — GCC 12 splits a converted vector into halves and joins them, four instructions —
 * else the portable conversion. A move, not arithmetic: no rule selects it ([C-SELECT]).
 */
function widen(s: VecSet): string {
  const { p, v, attr, h } = s;
  const body = p === 'rs512' ? `(${v})_mm512_cvtepi32_epi64((__m256i)a)` : p === 'rs256' ? `(${v})_mm256_cvtepi32_epi64((__m128i)a)` : `__builtin_convertvector(a, ${v})`;
  return `static inline ${attr} ${v} ${p}h_widen(${h} a) { return ${body}; }`;
}

/**
 * Min and max of 32-bit lanes ([C-SELECT]): AVX2's vpminsd / vpmaxsd, cut from the lowering rules,
 * on the AVX-512 set's 256-bit vectors of narrowed lanes and, through the low half of a 256-bit
 * register, on the AVX2 set's 128-bit ones (the rules are lane-wise, so the undefined upper half
 * of the cast changes no lane of the low one); portable code compares and blends.
 */
function narrowMinMax(s: VecSet): string {
  const { p, attr, h } = s;
  const q = `${p}h`;
  const helper = (name: 'min' | 'max', blend: string): string => {
    const rule = `lower-avx2-${name}-i32`;
    const body =
      p === 'rs512' ? `return (${h})${registerCall(rule, AB256)};`
      : p === 'rs256' ? `return (${h})_mm256_castsi256_si128(${registerCall(rule, LOW128)});`
      : `${h} m = a > b; return ${blend};`;
    return `static inline ${attr} ${h} ${q}_${name}(${h} a, ${h} b) { ${body} }`;
  };
  return `${helper('min', '(a & ~m) | (b & m)')}\n${helper('max', '(a & m) | (b & ~m)')}`;
}

/**
 * Whether some 32-bit lane is 0 (a guard false in that lane): one test instruction where the ISA has
 * it (a mask test, like `_any`), else an OR of the lanes without branches, which the compiler keeps
 * in vector registers; an early exit per lane was a fifth of the blur's vector loop.
 */
function anyZero(s: VecSet): string {
  const { p, w, attr, h } = s;
  const head = `static inline ${attr} int ${p}h_anyzero(${h} a) { ${h} m = a == 0;`;
  if (p === 'rs512') return `${head} return !_mm256_testz_si256((__m256i)m, (__m256i)m); }`;
  if (p === 'rs256') return `${head} return !_mm_testz_si128((__m128i)m, (__m128i)m); }`;
  return `${head} int32_t t = 0; for (int j = 0; j < ${w}; j++) t |= m[j]; return t != 0; }`;
}

export const RUNTIME_SIMD = `
#if defined(__x86_64__) || defined(__i386__)
#define RS_X86 1
#include <immintrin.h>
#else
#define RS_X86 0
#endif
#pragma GCC diagnostic ignored "-Wpsabi"
typedef long long rs_v8 __attribute__((vector_size(64)));
typedef unsigned long long rs_u8 __attribute__((vector_size(64)));
typedef long long rs_v4 __attribute__((vector_size(32)));
typedef unsigned long long rs_u4 __attribute__((vector_size(32)));
typedef double rs_d8 __attribute__((vector_size(64)));
typedef double rs_d4 __attribute__((vector_size(32)));
typedef int32_t rs_h8 __attribute__((vector_size(32))); /* 32-bit lanes ([C-NARROW]) */
typedef int32_t rs_h4 __attribute__((vector_size(16)));
typedef uint32_t rs_hu8 __attribute__((vector_size(32)));
typedef uint32_t rs_hu4 __attribute__((vector_size(16)));

/* Run-time CPU detection (spec/codegen.md, [C-DISPATCH]): 64-bit multiply/min/max need AVX-512DQ/F. */
#if RS_X86
static inline int rs_cpu_has_avx512(void) { return ${AVX512_FEATURES.map((f) => `__builtin_cpu_supports("${f}")`).join(' && ')}; }
static inline int rs_cpu_has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#else
static inline int rs_cpu_has_avx512(void) { return 0; }
static inline int rs_cpu_has_avx2(void) { return 0; }
#endif
static inline int rs_cpu_has_generic(void) { return 1; }
${SETS.map((s) => `#if ${s.guard}\n${isaSpecific(s)}\n${common(s)}\n${narrow(s)}\n#endif`).join('\n')}
`;
