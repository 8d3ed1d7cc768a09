// The seed's missed patterns (FPIR-LIFT, FPIR-LOWER), the termination order of lifting
// (FPIR-LIFT-ORDER), Z3 proofs of rules (FPIR-PROVE), the generated table (FPIR-FAMILIES) and
// Neon entries run under qemu-aarch64 (FPIR-TABLE-CPU).
import { afterAll, describe, expect, it } from 'vitest';
import { lift } from '../../src/fpir/lift.js';
import { LIFTING_RULES } from '../../src/fpir/lift-rules.js';
import { orderViolation } from '../../src/fpir/lift-order.js';
import { parseFpir } from '../../src/fpir/parse.js';
import { printFpir } from '../../src/fpir/print.js';
import { selectInstructions, summarize } from '../../src/fpir/select.js';
import { isolated, proveLifting, proveLowering } from '../../src/fpir/prove-rules.js';
import { LOWERING_RULES } from '../../src/fpir/lower-rules.js';
import { shutdownZ3 } from '../../src/expr/smt.js';
import { INTRINSICS } from '../../src/fpir/intrinsics.js';
import { NEON_PACKAGES, checkTableOnCpu, neonToolchain } from '../../src/codegen/fpir-harness.js';

const selected = (src: string, target: 'neon' | 'avx2') => {
  const e = lift(parseFpir(src)).expr;
  return { lifted: printFpir(e), ...summarize(selectInstructions(e, target)) };
};

describe('the seed’s missed patterns lift and select its instructions', () => {
  it('i16(x_u8) << 6 is a reinterpreted widening shift (ushll on Neon, vpmovzxbw + vpsllw on AVX2)', () => {
    expect(selected('i16(x_u8) << 6', 'neon')).toMatchObject({ lifted: 'i16(widening_shl(x_u8, 6))', intrinsics: expect.arrayContaining(['vshll_n_u8']), portable: 0 });
    expect(selected('i16(x_u8) << 6', 'avx2').intrinsics).toEqual(expect.arrayContaining(['_mm256_cvtepu8_epi16', '_mm256_slli_epi16']));
  });
  it('the vqrdmulh idiom lifts to rounding_mul_shr and selects sqrdmulh, and vpmulhrsw with its fix-up on AVX2', () => {
    const src = 'i16(min(max((i32(x_i16) * i32(y_i16) + 16384) >> 15, -32768), 32767))';
    expect(selected(src, 'neon')).toMatchObject({ lifted: 'rounding_mul_shr(x_i16, y_i16, 15)', intrinsics: ['vqrdmulhq_s16', 'vqrdmulhq_s16'], portable: 0 });
    expect(selected(src, 'avx2').intrinsics).toContain('_mm256_mulhrs_epi16');
    // A rounding term other than half of 2^15 is not a rounding shift: the precondition keeps it.
    expect(selected(src.replace('16384', '16383'), 'neon').lifted).not.toContain('rounding');
  });
  it('z_u16 + widening_mul(x_u8, y_u8) becomes umlal on Neon, in both operand orders', () => {
    expect(selected('z_u16 + u16(x_u8) * u16(y_u8)', 'neon')).toMatchObject({ rules: ['lower-neon-umlal-u8'], portable: 0 });
    expect(selected('u16(x_u8) * u16(y_u8) + z_u16', 'neon').intrinsics).toContain('vmlal_u8');
    expect(selected('z_i16 + i16(x_i8) * i16(y_i8)', 'neon').intrinsics).toContain('vmlal_s8');
  });
});

describe('dot products and narrowing shifts select the seed’s instructions (FPIR-LOWER)', () => {
  it('a sum of two 16-bit products is vpmaddwd on AVX2 and smull + smlal on Neon', () => {
    const src = 'i32(a_i16) * i32(b_i16) + i32(c_i16) * i32(d_i16)';
    expect(selected(src, 'avx2')).toMatchObject({ rules: ['lower-avx2-dot-i16'], intrinsics: expect.arrayContaining(['_mm256_madd_epi16']), portable: 0 });
    expect(selected(src, 'neon')).toMatchObject({ rules: ['lower-neon-dot-i16'], intrinsics: expect.arrayContaining(['vmull_s16', 'vmlal_s16']), portable: 0 });
  });
  it('the saturated sum of two u8 · i8 products lifts through the mixed-sign widening multiply to vpmaddubsw', () => {
    const src = 'i16(min(max(i32(i16(a_u8) * i16(b_i8)) + i32(i16(c_u8) * i16(d_i8)), -32768), 32767))';
    expect(selected(src, 'avx2')).toMatchObject({ lifted: 'saturating_add(widening_mul(a_u8, b_i8), widening_mul(c_u8, d_i8))', rules: ['lower-avx2-dot-u8-i8'], portable: 0 });
  });
  it.each([
    ['u8(u16((u32(x_u16) + 8) >> 4))', 'vrshrn_n_u16'],
    ['u8(min(u16((u32(x_u16) + 8) >> 4), 255))', 'vqrshrn_n_u16'],
    ['u8(x_u16 >> 3)', 'vshrn_n_u16'],
    ['i8(min(max(x_i16 >> 2, -128), 127))', 'vqshrn_n_s16'],
    ['i16(min(max(x_i32 >> 16, -32768), 32767))', 'vqshrn_n_s32'],
  ])('%s is the narrowing shift %s on Neon', (src, intrinsic) => {
    expect(selected(src, 'neon')).toMatchObject({ intrinsics: expect.arrayContaining([intrinsic]), portable: 0 });
  });
  it('the rounding narrowing shift is vpsrlw by c0 − 1 then vpavgw with 0 on x86, packed for c0 ≥ 2 on AVX2', async () => {
    const src = 'u8(min(u16((u32(x_u16) + 8) >> 4), 255))';
    expect(selected(src, 'avx2')).toMatchObject({ rules: ['lower-avx2-saturating-rounding-shr-narrow-u16-u8'], intrinsics: expect.arrayContaining(['_mm256_avg_epu16', '_mm256_packus_epi16']), portable: 0 });
    expect(selected('u8(min(u16((u32(x_u16) + 1) >> 1), 255))', 'avx2').rules).not.toContain('lower-avx2-saturating-rounding-shr-narrow-u16-u8');
    // Without c0 ≥ 2 the pack reads 65535's rounded 32768 as negative: Z3 refutes it there.
    const rule = LOWERING_RULES.find((r) => r.name === 'lower-avx2-saturating-rounding-shr-narrow-u16-u8')!;
    expect(await proveLowering({ ...rule, pre: '(c0_u16 >= 1) & (c0_u16 <= 256)' })).toMatchObject({ status: 'refuted', reason: expect.stringMatching(/^c0=1 x=\[.*65535/) });
    await shutdownZ3();
  }, 60_000);
  it('four products per lane are vpdpbusd on AVX2 (bytes interleaved four ways by unpacks) and udot/sdot on Neon (by zips)', () => {
    const dot4 = (acc: string, x: string, y: string) => `x_${acc} + ${acc}(a_${x}) * ${acc}(b_${y}) + ${acc}(c_${x}) * ${acc}(d_${y}) + ${acc}(e_${x}) * ${acc}(f_${y}) + ${acc}(g_${x}) * ${acc}(h_${y})`;
    expect(selected(dot4('i32', 'u8', 'i8'), 'avx2')).toMatchObject({ rules: ['lower-avx2-dot4-u8-i8'], intrinsics: expect.arrayContaining(['_mm256_dpbusd_avx_epi32', '_mm256_unpacklo_epi8', '_mm256_unpackhi_epi16']), portable: 0 });
    expect(selected(dot4('u32', 'u8', 'u8'), 'neon')).toMatchObject({ rules: ['lower-neon-dot4-u8'], intrinsics: expect.arrayContaining(['vdotq_u32', 'vzip1q_u8', 'vzip2q_u8']), portable: 0 });
    expect(selected(dot4('i32', 'i8', 'i8'), 'neon')).toMatchObject({ rules: ['lower-neon-dot4-i8'], intrinsics: expect.arrayContaining(['vdotq_s32', 'vzip1q_s8']), portable: 0 });
    // Mixed signs have no Neon dot product (usdot is Armv8.6): no rule takes them.
    expect(selected(dot4('i32', 'u8', 'i8'), 'neon').rules).not.toContain('lower-neon-dot4-i8');
  });
  it('a narrowing shift by 17 is beyond Arm’s immediate range and is not selected', () => {
    expect(selected('i16(min(max(x_i32 >> 17, -32768), 32767))', 'neon').intrinsics).not.toContain('vqshrn_n_s32');
  });
});

describe('FPIR-LIFT-ORDER', () => {
  it('every lifting rule decreases the weight, and no wildcard occurs more often on the right', () => {
    expect(LIFTING_RULES.map(orderViolation).filter((v) => v !== undefined)).toEqual([]);
  });
  it('a rule that does not decrease it is named (a duplicating rule, a growing rule)', () => {
    expect(orderViolation({ name: 'dup', lhs: 'u16(x_u8) + u16(y_u8)', rhs: 'widening_add(x_u8, x_u8)' })).toMatch(/x occurs 2 times on the right/);
    expect(orderViolation({ name: 'grow', lhs: 'widening_add(x_u8, y_u8)', rhs: 'u16(x_u8) + u16(y_u8)' })).toMatch(/right side weighs/);
  });
});

describe('FPIR-PROVE', () => {
  afterAll(shutdownZ3);
  it('proves a 32-bit lifting rule no sample could exhaust, and a precondition-guarded one', async () => {
    expect((await proveLifting(LIFTING_RULES.find((r) => r.name === 'lift-abs-i32')!)).status).toBe('proved');
    expect((await proveLifting(LIFTING_RULES.find((r) => r.name === 'lift-rounding-shr-u16')!)).status).toBe('proved');
  }, 60_000);
  it('refutes a wrong rule with a counterexample the interpreter replays', async () => {
    const p = await proveLifting({ name: 'wrong', lhs: 'u32(x_u16) << c0_u32', rhs: 'widening_shl(x_u16, c0_u16)', pre: 'c0_u32 <= 40' });
    expect(p.status).toBe('proved');
    const q = await proveLifting({ name: 'wrong', lhs: 'i32(x_u16) << c0_i32', rhs: 'i32(widening_shl(x_u16, c0_u16)) + 1' });
    expect(q).toMatchObject({ status: 'refuted', reason: expect.stringMatching(/x_u16=/) });
  }, 60_000);
  it('proves the signed high-half products: the product formed once at the width of its factors, lanes one at a time, factors narrowed by the precondition', async () => {
    const lifting = (n: string) => proveLifting(LIFTING_RULES.find((r) => r.name === n)!);
    expect((await lifting('lift-mul-shr-high-half-i32')).status).toBe('proved');
    expect((await lifting('lift-widening-mul-i32')).status).toBe('proved');
    const lowering = (n: string) => proveLowering(LOWERING_RULES.find((r) => r.name === n)!);
    expect((await lowering('lower-avx2-mul-i64-factors-fit-i32')).status).toBe('proved');
    // The narrow product still sees every bit: dropping the bound on one factor is refuted, and
    // a high half taken one bit too low is refuted too.
    const unbounded = { ...LOWERING_RULES.find((r) => r.name === 'lower-avx2-mul-i64-factors-fit-i32')!, pre: '(x_i64 >= -2147483648) & (x_i64 <= 2147483647)' };
    expect((await proveLowering(unbounded)).status).toBe('refuted');
    expect(await proveLifting({ name: 'wrong', lhs: 'i16(widening_mul(x_i16, y_i16) >> 15)', rhs: 'mul_shr(x_i16, y_i16, 15)' })).toMatchObject({ status: 'refuted', reason: expect.stringMatching(/x_i16=-32768 y_i16=-32768/) });
  }, 120_000);
  it('proves with products abstracted first, and falls back to the multipliers where a product\'s own structure matters', async () => {
    // The rounding of a 64-bit product holds for any value in the product's range.
    const p = await proveLifting(LIFTING_RULES.find((r) => r.name === 'lift-rounding-shr-product-i32')!);
    expect(p).toMatchObject({ status: 'proved', queryMs: expect.any(Number) });
    // A square is never negative: false of an abstracted product, true of the exact one.
    expect((await proveLifting({ name: 'square', lhs: 'max(widening_mul(x_i8, x_i8), 0)', rhs: 'widening_mul(x_i8, x_i8)' })).status).toBe('proved');
    expect(await proveLifting({ name: 'wrong', lhs: 'max(widening_mul(x_i8, y_i8), 0)', rhs: 'widening_mul(x_i8, y_i8)' })).toMatchObject({ status: 'refuted' });
  }, 60_000);
  it('a trap of Z3\'s wasm build leaves its rule unknown with the trap as reason, and the next rule gets a fresh Z3', async () => {
    const trapped = await isolated(async () => {
      throw new WebAssembly.RuntimeError('memory access out of bounds');
    });
    expect(trapped).toMatchObject({ status: 'unknown', reason: expect.stringContaining('memory access out of bounds') });
    expect((await proveLifting(LIFTING_RULES.find((r) => r.name === 'lift-abs-i32')!)).status).toBe('proved');
    await expect(isolated(async () => Promise.reject(new Error('not a trap')))).rejects.toThrow('not a trap');
  }, 60_000);
});

describe('FPIR-FAMILIES', () => {
  it('generates at least 400 x86 and 150 Neon entries, each named once', () => {
    expect(INTRINSICS.filter((e) => e.target !== 'neon').length).toBeGreaterThanOrEqual(400);
    expect(INTRINSICS.filter((e) => e.target === 'neon').length).toBeGreaterThanOrEqual(150);
    expect(new Set(INTRINSICS.map((e) => e.name)).size).toBe(INTRINSICS.length);
  });
});

const cross = neonToolchain();
describe('FPIR-TABLE-CPU under qemu-aarch64', () => {
  it.skipIf(!cross)(`runs Neon entries and compares them with the interpreter (skipped without ${NEON_PACKAGES.join(', ')})`, async () => {
    // sdot/udot (quads routing) run with the dot product extension that qemu-aarch64's default CPU has.
    const some = INTRINSICS.filter((e) => ['vqrdmulhq_s16', 'vmlal_u8', 'vqrshrn_n_u16', 'vget_high_s8', 'vdotq_s32', 'vdot_u32', 'vzip1q_u8', 'vzip2q_s8'].includes(e.name));
    const lying = { ...some[0]!, name: 'vqdmulhq_s16' };
    const r = await checkTableOnCpu([...some, lying], { neon: true, samples: 1024 });
    expect(r.entries.slice(0, -1).map((e) => e.status)).toEqual(Array(8).fill('validated'));
    expect(r.entries.at(-1)!.status).toBe('refuted');
  }, 120_000);
});
