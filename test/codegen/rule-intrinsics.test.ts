// C-SELECT: the vector helpers' arithmetic intrinsics are cut from verified lowering rules.
import { describe, expect, it } from 'vitest';
import { registerCall } from '../../src/codegen/rule-intrinsics.js';
import { RUNTIME_SIMD } from '../../src/codegen/runtime-simd.js';
import { LOWERING_RULES } from '../../src/fpir/lower-rules.js';
import { callsOf } from '../../src/fpir/rhs.js';
import { rhsOf, verifyLowering } from '../../src/fpir/verify-rules.js';

const HELPER_RULES = ['lower-avx2-mul-i64-factors-fit-i32', 'lower-avx512-mul-i64', 'lower-avx512-min-i64', 'lower-avx512-max-i64', 'lower-avx2-min-i32', 'lower-avx2-max-i32'];
/** Intrinsics that only move or inspect bits (the spec's decision): not computed by rules. */
const DATA_MOVEMENT = /^_mm(256|512)?_(loadu_si(256|512)|storeu_si(256|512)|i64gather_epi64|i64scatter_epi64|test_epi64_mask|testz_si(128|256)|castsi128_si256|castsi256_si128|cvtepi32_epi64)$/

describe('C-SELECT', () => {
  it('every arithmetic intrinsic of the vector runtime is called by one of the helper rules', () => {
    const used = new Set(RUNTIME_SIMD.match(/_mm(256|512)?_[a-z0-9_]+(?=\()/g));
    const fromRules = new Set(HELPER_RULES.flatMap((n) => rhsOf(LOWERING_RULES.find((r) => r.name === n)!).flatMap(callsOf).map((e) => e.name)));
    const arithmetic = [...used].filter((n) => !DATA_MOVEMENT.test(n));
    expect(arithmetic.sort()).toEqual([...fromRules].sort());
  });

  it('the helper rules verify, and the helpers are their first registers', () => {
    for (const name of HELPER_RULES) {
      const v = verifyLowering(LOWERING_RULES.find((r) => r.name === name)!, { samples: 2000 });
      expect(v.status, name).toBe('sampled');
    }
    expect(registerCall('lower-avx512-min-i64', { x: 'a', y: 'b' })).toBe('_mm512_min_epi64(a, b)');
    expect(RUNTIME_SIMD).toContain('rs256_mullo(rs_v4 a, rs_v4 b) { return (rs_v4)_mm256_mul_epi32((__m256i)a, (__m256i)b); }');
    // 32-bit lanes: a whole register in the AVX-512 set, the low half of one in the AVX2 set
    expect(RUNTIME_SIMD).toContain('rs512h_min(rs_h8 a, rs_h8 b) { return (rs_h8)_mm256_min_epi32((__m256i)a, (__m256i)b); }');
    expect(RUNTIME_SIMD).toContain('rs256h_max(rs_h4 a, rs_h4 b) { return (rs_h4)_mm256_castsi256_si128(_mm256_max_epi32(_mm256_castsi128_si256((__m128i)a), _mm256_castsi128_si256((__m128i)b))); }');
  });

  it("the AVX2 multiply needs its precondition: without it verification refutes the rule", () => {
    const r = LOWERING_RULES.find((x) => x.name === 'lower-avx2-mul-i64-factors-fit-i32')!;
    const { pre: _, ...unguarded } = r;
    const v = verifyLowering(unguarded, { samples: 2000 });
    expect(v.status).toBe('refuted');
  });

  it('refuses to cut a rule whose registers mix (a pack reads two operand registers per result register)', () => {
    expect(() => registerCall('lower-avx2-saturating-cast-i16-u8', { x: 'a' })).toThrow(/mixes registers/);
  });
});
