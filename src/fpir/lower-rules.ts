// Lowering rules (Pitchfork §3.3; spec/fpir.md, [FPIR-LOWER]): FPIR to x86 and Neon intrinsics,
// as data. A rule works on one logical vector of LANES[target] lanes; a wildcard of type T
// arrives split into registers `x.0`, `x.1`, … of the target's register size, lowest lanes
// first, and the right side gives the result's registers in the same order. Immediates are
// integers or constant wildcards (`c0`). The classes are Pitchfork's: direct mappings, fused
// mappings, compound instructions, predicated rules and specific constants.
import type { Target } from './intrinsics.js';
import type { RewriteRule } from './lift-rules.js';
import { neonSuffix } from './families.js';
import { type ScalarType, typeName, typeNamed } from './types.js';

export interface LoweringRule extends RewriteRule {
  readonly target: Target;
}

/** Lanes of the logical vector each target's rules work on: one register of bytes. */
export const LANES: Readonly<Record<Target, number>> = { avx2: 32, avx512: 64, neon: 16 };
/** Bits of one register. */
export const REG_BITS: Readonly<Record<Target, number>> = { avx2: 256, avx512: 512, neon: 128 };

const rule = (target: Target, name: string, lhs: string, rhs: string, pre?: string): LoweringRule => ({ name: `lower-${target}-${name}`, target, lhs, rhs, ...(pre ? { pre } : {}) });

/** A lane-wise x86 intrinsic applied register by register (`regs` registers per operand). */
const x86Each = (target: 'avx2' | 'avx512', name: string, lhs: string, c: string, regs: number, operands = 2, pre?: string): LoweringRule => {
  const p = target === 'avx2' ? '_mm256_' : '_mm512_';
  const ops = ['x', 'y'].slice(0, operands);
  const terms = Array.from({ length: regs }, (_, k) => `${p}${c}(${ops.map((o) => `${o}.${k}`).join(', ')})`);
  return rule(target, name, lhs, regs === 1 ? terms[0]! : `[${terms.join(', ')}]`, pre);
};

/** Both 64-bit factors within the 32-bit range, where vpmuldq's product is exact. */
const FACTORS_FIT_I32 = '(x_i64 >= -2147483648) & (x_i64 <= 2147483647) & (y_i64 >= -2147483648) & (y_i64 <= 2147483647)';

/**
 * An AVX2 dot product `x·y + z·w` over `regs` registers per operand: x with z and y with w
 * interleaved (vpermq 0xd8, then unpack low / high per 128-bit block), then the pairwise entry
 * `madd`; each operand register gives two result registers, lowest lanes first.
 */
const x86DotTerms = (madd: string, unpack: string, regs: number): string[] => {
  const p = (v: string, k: number) => `_mm256_permute4x64_epi64(${v}.${k}, 216)`;
  const half = (k: number, hl: 'lo' | 'hi') => `_mm256_${madd}(_mm256_unpack${hl}_${unpack}(${p('x', k)}, ${p('z', k)}), _mm256_unpack${hl}_${unpack}(${p('y', k)}, ${p('w', k)}))`;
  return Array.from({ length: regs }, (_, k) => [half(k, 'lo'), half(k, 'hi')]).flat();
};
const x86Dot = (madd: string, unpack: string, regs: number): string => `[${x86DotTerms(madd, unpack, regs).join(', ')}]`;

/** `x + a·b + c·d + e·f + g·h` on 32-bit lanes of 8-bit products, as lifting leaves it. */
const DOT4 = (acc: string, x: string, y: string): string =>
  ['ab', 'cd', 'ef', 'gh'].reduce((sum, [p, q]) => `(${sum} + ${acc}(${p}_${x}) * ${acc}(${q}_${y}))`, `x_${acc}`);

/**
 * The AVX2 four-way dot product DOT4 on VNNI's `entry`: the byte operands a, c, e, g (and b, d, f,
 * h) are interleaved four ways, bytes into 16-bit pairs then pairs into 32-bit quads, each unpack
 * fed registers whose 64-bit quarters vpermq 0xd8 has put in lane order (as in x86Dot), so quad k
 * holds lanes 8k … 8k + 7 and meets the accumulator's register k.
 */
const x86Dot4 = (entry: string): string => {
  const q = (v: string) => `_mm256_permute4x64_epi64(${v}, 216)`;
  const pairs = (u: string, v: string, hl: string) => q(`_mm256_unpack${hl}_epi8(${q(`${u}.0`)}, ${q(`${v}.0`)})`);
  const quad = ([u, v, w, z]: string, k: number) => `_mm256_unpack${k % 2 ? 'hi' : 'lo'}_epi16(${pairs(u!, v!, k < 2 ? 'lo' : 'hi')}, ${pairs(w!, z!, k < 2 ? 'lo' : 'hi')})`;
  return `[${[0, 1, 2, 3].map((k) => `_mm256_${entry}(x.${k}, ${quad('aceg', k)}, ${quad('bdfh', k)})`).join(', ')}]`;
};

/**
 * The Neon four-way dot product DOT4 on sdot/udot: zip1/zip2 of the byte operands twice gives each
 * 32-bit lane k of register r the bytes of lane 4r + k of a, e, c, g (and of b, f, d, h in the same
 * order, so every product keeps its pair).
 */
const neonDot4 = (t: 'u8' | 'i8'): string => {
  const s = neonSuffix(typeNamed(t)!);
  const zip = (u: string, v: string, hi: boolean) => `vzip${hi ? 2 : 1}q_${s}(${u}, ${v})`;
  const quad = ([u, v, w, z]: string, r: number) => zip(zip(`${u}.0`, `${v}.0`, r >= 2), zip(`${w}.0`, `${z}.0`, r >= 2), r % 2 === 1);
  return `[${[0, 1, 2, 3].map((r) => `vdotq_${t === 'u8' ? 'u32' : 's32'}(x.${r}, ${quad('aceg', r)}, ${quad('bdfh', r)})`).join(', ')}]`;
};

const x86Common = (t: 'avx2' | 'avx512'): LoweringRule[] => [
  x86Each(t, 'saturating-add-u8', 'saturating_add(x_u8, y_u8)', 'adds_epu8', 1),
  x86Each(t, 'saturating-add-i8', 'saturating_add(x_i8, y_i8)', 'adds_epi8', 1),
  x86Each(t, 'saturating-add-u16', 'saturating_add(x_u16, y_u16)', 'adds_epu16', 2),
  x86Each(t, 'saturating-add-i16', 'saturating_add(x_i16, y_i16)', 'adds_epi16', 2),
  x86Each(t, 'saturating-sub-u8', 'saturating_sub(x_u8, y_u8)', 'subs_epu8', 1),
  x86Each(t, 'saturating-sub-i8', 'saturating_sub(x_i8, y_i8)', 'subs_epi8', 1),
  x86Each(t, 'saturating-sub-u16', 'saturating_sub(x_u16, y_u16)', 'subs_epu16', 2),
  x86Each(t, 'saturating-sub-i16', 'saturating_sub(x_i16, y_i16)', 'subs_epi16', 2),
  x86Each(t, 'rounding-halving-add-u8', 'rounding_halving_add(x_u8, y_u8)', 'avg_epu8', 1),
  x86Each(t, 'rounding-halving-add-u16', 'rounding_halving_add(x_u16, y_u16)', 'avg_epu16', 2),
  x86Each(t, 'add-u8', 'x_u8 + y_u8', 'add_epi8', 1),
  x86Each(t, 'add-i8', 'x_i8 + y_i8', 'add_epi8', 1),
  x86Each(t, 'add-u16', 'x_u16 + y_u16', 'add_epi16', 2),
  x86Each(t, 'add-i16', 'x_i16 + y_i16', 'add_epi16', 2),
  x86Each(t, 'sub-u16', 'x_u16 - y_u16', 'sub_epi16', 2),
  x86Each(t, 'min-u8', 'min(x_u8, y_u8)', 'min_epu8', 1),
  x86Each(t, 'max-u8', 'max(x_u8, y_u8)', 'max_epu8', 1),
  x86Each(t, 'min-i16', 'min(x_i16, y_i16)', 'min_epi16', 2),
  x86Each(t, 'max-i16', 'max(x_i16, y_i16)', 'max_epi16', 2),
  // Also the 32-bit lanes of the algorithm backend's narrowed vector code ([C-SELECT]).
  x86Each(t, 'min-i32', 'min(x_i32, y_i32)', 'min_epi32', 4),
  x86Each(t, 'max-i32', 'max(x_i32, y_i32)', 'max_epi32', 4),
  x86Each(t, 'abs-i8', 'abs(x_i8)', 'abs_epi8', 1, 1),
  x86Each(t, 'abs-i16', 'abs(x_i16)', 'abs_epi16', 2, 1),
  // Specific constants (§3.3): the high half of a 16-bit product.
  x86Each(t, 'mul-shr-16-i16', 'mul_shr(x_i16, y_i16, 16)', 'mulhi_epi16', 2),
  x86Each(t, 'mul-shr-16-u16', 'mul_shr(x_u16, y_u16, 16)', 'mulhi_epu16', 2),
];

const AVX2: readonly LoweringRule[] = [
  // Dot products (§5.1.1): vpmaddwd / vpmaddubsw sum adjacent lanes, so both products' operands
  // are interleaved first. An unpack interleaves within 128-bit blocks; vpermq 0xd8 first puts
  // lanes 0–3 and 8–11 (16-bit) in the low block, so the unpacks give the pairs in lane order.
  rule('avx2', 'dot-i16', 'widening_mul(x_i16, y_i16) + widening_mul(z_i16, w_i16)', x86Dot('madd_epi16', 'epi16', 2)),
  // Accumulated (a matrix product's inner loop, as lifting leaves it: the sum associates left).
  rule('avx2', 'dot-i16-acc', '(a_i32 + widening_mul(x_i16, y_i16)) + widening_mul(z_i16, w_i16)', `[${x86DotTerms('madd_epi16', 'epi16', 2).map((d, k) => `_mm256_add_epi32(a.${k}, ${d})`).join(', ')}]`),
  // Four products per lane: AVX-VNNI's vpdpbusd (u8 · i8, the sum wrapping like FPIR's i32 adds).
  rule('avx2', 'dot4-u8-i8', DOT4('i32', 'u8', 'i8'), x86Dot4('dpbusd_avx_epi32')),
  rule('avx2', 'dot-u8-i8', 'saturating_add(widening_mul(x_u8, y_i8), widening_mul(z_u8, w_i8))', x86Dot('maddubs_epi16', 'epi8', 1)),
  // A narrowing shift (§5.1.3): x86 has none; a shift then the pack. A u16 shifted by ≥ 1 is at
  // most 32767, where vpackuswb's signed reading is right (the i16 ones compose from the rules above).
  rule('avx2', 'saturating-shr-narrow-u16-u8', 'saturating_cast<u8>(x_u16 >> c0_u16)', '_mm256_permute4x64_epi64(_mm256_packus_epi16(_mm256_srli_epi16(x.0, c0), _mm256_srli_epi16(x.1, c0)), 216)', '(c0_u16 >= 1) & (c0_u16 <= 255)'),
  // The rounding one: a shift by c0 − 1 then a rounding average with 0 adds the last bit shifted
  // out (⌊(⌊x / 2^(c0−1)⌋ + 1) / 2⌋ = ⌊(x + 2^(c0−1)) / 2^c0⌋). c0 ≥ 2 keeps it at most 16384 for
  // vpackuswb's signed reading (c0 = 1 rounds 65535 up to 32768).
  rule('avx2', 'saturating-rounding-shr-narrow-u16-u8', 'saturating_cast<u8>(rounding_shr(x_u16, c0_u16))', `_mm256_permute4x64_epi64(_mm256_packus_epi16(${[0, 1].map((k) => `_mm256_avg_epu16(_mm256_srli_epi16(x.${k}, c0-1), _mm256_set1_epi16(0))`).join(', ')}), 216)`, '(c0_u16 >= 2) & (c0_u16 <= 256)'),
  ...x86Common('avx2'),
  // Compound (§3.3): x86 has no absolute difference; both saturating differences, one of them 0.
  rule('avx2', 'absd-u8', 'absd(x_u8, y_u8)', '_mm256_or_si256(_mm256_subs_epu8(x.0, y.0), _mm256_subs_epu8(y.0, x.0))'),
  rule('avx2', 'absd-u16', 'absd(x_u16, y_u16)', '[_mm256_or_si256(_mm256_subs_epu16(x.0, y.0), _mm256_subs_epu16(y.0, x.0)), _mm256_or_si256(_mm256_subs_epu16(x.1, y.1), _mm256_subs_epu16(y.1, x.1))]'),
  // Widening through vpmovzxbw of each 128-bit half.
  rule('avx2', 'widening-add-u8', 'widening_add(x_u8, y_u8)',
    '[_mm256_add_epi16(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(x.0)), _mm256_cvtepu8_epi16(_mm256_castsi256_si128(y.0))), _mm256_add_epi16(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(x.0, 1)), _mm256_cvtepu8_epi16(_mm256_extracti128_si256(y.0, 1)))]'),
  rule('avx2', 'widening-shl-u8', 'widening_shl(x_u8, c0_u8)',
    '[_mm256_slli_epi16(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(x.0)), c0), _mm256_slli_epi16(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(x.0, 1)), c0)]'),
  // §4.1's signed widening shift: the unsigned one, its bits read as i16.
  rule('avx2', 'widening-shl-u8-signed', 'i16(widening_shl(x_u8, c0_u8))',
    '[_mm256_slli_epi16(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(x.0)), c0), _mm256_slli_epi16(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(x.0, 1)), c0)]'),
  // Compound (§3.3): vpmulhrsw is rounding_mul_shr by 15 except for −32768 · −32768, where it
  // wraps to −32768 instead of saturating to 32767; −32768 arises only there, so flipping its bits fixes it.
  rule('avx2', 'rounding-mul-shr-15-i16', 'rounding_mul_shr(x_i16, y_i16, 15)', `[${[0, 1].map((k) => `_mm256_xor_si256(_mm256_mulhrs_epi16(x.${k}, y.${k}), _mm256_cmpeq_epi16(_mm256_mulhrs_epi16(x.${k}, y.${k}), _mm256_set1_epi16(-32768)))`).join(', ')}]`),
  rule('avx2', 'shr-u16', 'x_u16 >> c0_u16', '[_mm256_srli_epi16(x.0, c0), _mm256_srli_epi16(x.1, c0)]', 'c0_u16 <= 255'),
  rule('avx2', 'shr-i16', 'x_i16 >> c0_i16', '[_mm256_srai_epi16(x.0, c0), _mm256_srai_epi16(x.1, c0)]', '(c0_i16 >= 0) & (c0_i16 <= 255)'),
  rule('avx2', 'shl-u16', 'x_u16 << c0_u16', '[_mm256_slli_epi16(x.0, c0), _mm256_slli_epi16(x.1, c0)]', 'c0_u16 <= 255'),
  // Packs saturate per 128-bit block; vpermq 0xd8 puts the blocks back in order.
  rule('avx2', 'saturating-cast-i16-u8', 'saturating_cast<u8>(x_i16)', '_mm256_permute4x64_epi64(_mm256_packus_epi16(x.0, x.1), 216)'),
  rule('avx2', 'saturating-cast-i16-i8', 'saturating_cast<i8>(x_i16)', '_mm256_permute4x64_epi64(_mm256_packs_epi16(x.0, x.1), 216)'),
  // Predicated (§3.3): vpackuswb reads its operands as signed, right for u16 only up to 32767.
  rule('avx2', 'saturating-cast-u16-u8', 'saturating_cast<u8>(x_u16)', '_mm256_permute4x64_epi64(_mm256_packus_epi16(x.0, x.1), 216)', 'x_u16 <= 32767'),
  // Predicated 64-bit multiply ([C-SELECT]): the algorithm backend's vector code ensures the
  // precondition at run time, sending lanes whose factors do not fit to the scalar code.
  x86Each('avx2', 'mul-i64-factors-fit-i32', 'x_i64 * y_i64', 'mul_epi32', 8, 2, FACTORS_FIT_I32),
];

const AVX512: readonly LoweringRule[] = [
  ...x86Common('avx512'),
  rule('avx512', 'absd-u16', 'absd(x_u16, y_u16)', '[_mm512_or_si512(_mm512_subs_epu16(x.0, y.0), _mm512_subs_epu16(y.0, x.0)), _mm512_or_si512(_mm512_subs_epu16(x.1, y.1), _mm512_subs_epu16(y.1, x.1))]'),
  rule('avx512', 'widening-add-u8', 'widening_add(x_u8, y_u8)',
    '[_mm512_add_epi16(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(x.0)), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(y.0))), _mm512_add_epi16(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(x.0, 1)), _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(y.0, 1)))]'),
  rule('avx512', 'widening-shl-u8', 'widening_shl(x_u8, c0_u8)',
    '[_mm512_slli_epi16(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(x.0)), c0), _mm512_slli_epi16(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(x.0, 1)), c0)]'),
  rule('avx512', 'widening-shl-u8-signed', 'i16(widening_shl(x_u8, c0_u8))',
    '[_mm512_slli_epi16(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(x.0)), c0), _mm512_slli_epi16(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(x.0, 1)), c0)]'),
  // The rounding narrowing shift as on AVX2, before the plain narrow below (which would take its
  // outer cast); the unsigned saturating narrow also takes c0 = 1's 32768.
  rule('avx512', 'saturating-rounding-shr-narrow-u16-u8', 'saturating_cast<u8>(rounding_shr(x_u16, c0_u16))', `[${[0, 1].map((k) => `_mm512_cvtusepi16_epi8(_mm512_avg_epu16(_mm512_srli_epi16(x.${k}, c0-1), _mm512_set1_epi16(0)))`).join(', ')}]`, '(c0_u16 >= 1) & (c0_u16 <= 256)'),
  // AVX-512 has a lane-wise unsigned saturating narrow: no precondition, no fix-up.
  rule('avx512', 'saturating-cast-u16-u8', 'saturating_cast<u8>(x_u16)', '[_mm512_cvtusepi16_epi8(x.0), _mm512_cvtusepi16_epi8(x.1)]'),
  // 64-bit lanes, used by the algorithm backend's vector code ([C-SELECT]).
  x86Each('avx512', 'mul-i64', 'x_i64 * y_i64', 'mullo_epi64', 8),
  x86Each('avx512', 'min-i64', 'min(x_i64, y_i64)', 'min_epi64', 8),
  x86Each('avx512', 'max-i64', 'max(x_i64, y_i64)', 'max_epi64', 8),
];

const NEON: readonly LoweringRule[] = [
  rule('neon', 'saturating-add-u8', 'saturating_add(x_u8, y_u8)', 'vqaddq_u8(x.0, y.0)'),
  rule('neon', 'saturating-add-i8', 'saturating_add(x_i8, y_i8)', 'vqaddq_s8(x.0, y.0)'),
  rule('neon', 'saturating-add-u16', 'saturating_add(x_u16, y_u16)', '[vqaddq_u16(x.0, y.0), vqaddq_u16(x.1, y.1)]'),
  rule('neon', 'saturating-sub-u8', 'saturating_sub(x_u8, y_u8)', 'vqsubq_u8(x.0, y.0)'),
  rule('neon', 'saturating-sub-u16', 'saturating_sub(x_u16, y_u16)', '[vqsubq_u16(x.0, y.0), vqsubq_u16(x.1, y.1)]'),
  rule('neon', 'halving-add-u8', 'halving_add(x_u8, y_u8)', 'vhaddq_u8(x.0, y.0)'),
  rule('neon', 'halving-add-i8', 'halving_add(x_i8, y_i8)', 'vhaddq_s8(x.0, y.0)'),
  rule('neon', 'halving-sub-u8', 'halving_sub(x_u8, y_u8)', 'vhsubq_u8(x.0, y.0)'),
  rule('neon', 'halving-sub-i8', 'halving_sub(x_i8, y_i8)', 'vhsubq_s8(x.0, y.0)'),
  rule('neon', 'rounding-halving-add-u8', 'rounding_halving_add(x_u8, y_u8)', 'vrhaddq_u8(x.0, y.0)'),
  // Direct mappings (§3.3): uabd, uaddl.
  rule('neon', 'absd-u8', 'absd(x_u8, y_u8)', 'vabdq_u8(x.0, y.0)'),
  rule('neon', 'absd-u16', 'absd(x_u16, y_u16)', '[vabdq_u16(x.0, y.0), vabdq_u16(x.1, y.1)]'),
  rule('neon', 'widening-add-u8', 'widening_add(x_u8, y_u8)', '[vaddl_u8(vget_low_u8(x.0), vget_low_u8(y.0)), vaddl_u8(vget_high_u8(x.0), vget_high_u8(y.0))]'),
  rule('neon', 'widening-mul-u8', 'widening_mul(x_u8, y_u8)', '[vmull_u8(vget_low_u8(x.0), vget_low_u8(y.0)), vmull_u8(vget_high_u8(x.0), vget_high_u8(y.0))]'),
  rule('neon', 'widening-shl-u8', 'widening_shl(x_u8, c0_u8)', '[vshll_n_u8(vget_low_u8(x.0), c0), vshll_n_u8(vget_high_u8(x.0), c0)]', 'c0_u8 <= 8'),
  rule('neon', 'widening-shl-u8-signed', 'i16(widening_shl(x_u8, c0_u8))', '[vreinterpretq_s16_u16(vshll_n_u8(vget_low_u8(x.0), c0)), vreinterpretq_s16_u16(vshll_n_u8(vget_high_u8(x.0), c0))]', 'c0_u8 <= 8'),
  // Four products per lane (Armv8.2 dot product): sdot for i8 · i8, udot for u8 · u8.
  rule('neon', 'dot4-u8', DOT4('u32', 'u8', 'u8'), neonDot4('u8')),
  rule('neon', 'dot4-i8', DOT4('i32', 'i8', 'i8'), neonDot4('i8')),
  // Dot products of two pairs (§5.1.1): the widening multiply, then the multiply-accumulate
  // (before umlal/smlal, which would take the first product as their accumulator).
  ...(['u8', 'i8', 'u16', 'i16'] as const).map((n) => {
    const s = neonSuffix(typeNamed(n)!);
    const half = (k: number, hl: 'low' | 'high') => `vmlal_${s}(vmull_${s}(vget_${hl}_${s}(x.${k}), vget_${hl}_${s}(y.${k})), vget_${hl}_${s}(z.${k}), vget_${hl}_${s}(w.${k}))`;
    const regs = n.endsWith('8') ? 1 : 2;
    return rule('neon', `dot-${n}`, `widening_mul(x_${n}, y_${n}) + widening_mul(z_${n}, w_${n})`, `[${Array.from({ length: regs }, (_, k) => [half(k, 'low'), half(k, 'high')]).flat().join(', ')}]`);
  }),
  // Fused (§5.1.1): a widening multiply-accumulate, in either operand order.
  ...(['u', 's'] as const).flatMap((s) => {
    const [w, n] = s === 'u' ? ['u16', 'u8'] : ['i16', 'i8'];
    const halves = (k: 'low' | 'high', i: number) => `vmlal_${s}8(x.${i}, vget_${k}_${s}8(y.0), vget_${k}_${s}8(z.0))`;
    const rhs = `[${halves('low', 0)}, ${halves('high', 1)}]`;
    return [rule('neon', `${s}mlal-${n}`, `x_${w} + widening_mul(y_${n}, z_${n})`, rhs), rule('neon', `${s}mlal-${n}-left`, `widening_mul(y_${n}, z_${n}) + x_${w}`, rhs)];
  }),
  // Fused (§3.3): an add of a widening shift by one is a widening multiply-accumulate by 2.
  rule('neon', 'umlal-shl-1', 'x_u16 + widening_shl(y_u8, 1)', '[vmlal_u8(x.0, vget_low_u8(y.0), vdup_n_u8(2)), vmlal_u8(x.1, vget_high_u8(y.0), vdup_n_u8(2))]'),
  // Narrowing shifts right by 1 … half the width (§5.1.3; Arm's immediate range): truncating
  // (shrn), rounding (rshrn), saturating (sqshrn/uqshrn) and both (sqrshrn/uqrshrn). The
  // rounding_shr of a value shifted by ≥ 1 never wraps, so its saturating cast is the narrowing's.
  ...(['u16', 'i16', 'u32', 'i32'] as const).flatMap((t) => {
    const wide = typeNamed(t)!;
    const half = { signed: wide.signed, bits: wide.bits / 2 } as ScalarType;
    const h = typeName(half);
    const s = neonSuffix(wide);
    const narrow = (c: string) => `[${Array.from({ length: wide.bits / 8 / 2 }, (_, k) => `vcombine_${neonSuffix(half)}(${c}(x.${2 * k}, c0), ${c}(x.${2 * k + 1}, c0))`).join(', ')}]`;
    const pre = `(c0_${t} >= 1) & (c0_${t} <= ${wide.bits / 2})`;
    return [
      rule('neon', `shr-narrow-${t}`, `${h}(x_${t} >> c0_${t})`, narrow(`vshrn_n_${s}`), pre),
      rule('neon', `rounding-shr-narrow-${t}`, `${h}(rounding_shr(x_${t}, c0_${t}))`, narrow(`vrshrn_n_${s}`), pre),
      rule('neon', `saturating-shr-narrow-${t}`, `saturating_cast<${h}>(x_${t} >> c0_${t})`, narrow(`vqshrn_n_${s}`), pre),
      rule('neon', `saturating-rounding-shr-narrow-${t}`, `saturating_cast<${h}>(rounding_shr(x_${t}, c0_${t}))`, narrow(`vqrshrn_n_${s}`), pre),
    ];
  }),
  rule('neon', 'add-u16', 'x_u16 + y_u16', '[vaddq_u16(x.0, y.0), vaddq_u16(x.1, y.1)]'),
  rule('neon', 'saturating-cast-u16-u8', 'saturating_cast<u8>(x_u16)', 'vcombine_u8(vqmovn_u16(x.0), vqmovn_u16(x.1))'),
  rule('neon', 'saturating-narrow-u16', 'saturating_narrow(x_u16)', 'vcombine_u8(vqmovn_u16(x.0), vqmovn_u16(x.1))'),
  rule('neon', 'saturating-cast-i16-u8', 'saturating_cast<u8>(x_i16)', 'vcombine_u8(vqmovun_s16(x.0), vqmovun_s16(x.1))'),
  rule('neon', 'mul-shr-15-i16', 'mul_shr(x_i16, y_i16, 15)', '[vqdmulhq_s16(x.0, y.0), vqdmulhq_s16(x.1, y.1)]'),
  rule('neon', 'rounding-mul-shr-15-i16', 'rounding_mul_shr(x_i16, y_i16, 15)', '[vqrdmulhq_s16(x.0, y.0), vqrdmulhq_s16(x.1, y.1)]'),
];

export const LOWERING_RULES: readonly LoweringRule[] = [...AVX2, ...AVX512, ...NEON];
