// The intrinsic semantics table (spec/fpir.md, "The intrinsic table"): one entry per x86 intrinsic
// (AVX2, AVX-512 through immintrin.h names) and per Arm Neon intrinsic that lowering rules use.
// As in VeGen's description language (§3.2), an entry says how many lanes of which element type
// each operand and the result have, the scalar operation every result lane computes (an FPIR
// formula over primitive operations, written the way vendor pseudocode is: widen, compute, then
// saturate or truncate), and how result lanes bind to operand lanes (the routing), including the
// 128-bit-lane structure of x86 packs. The same entries emit C (emit-c.ts), interpret calls
// (machine.ts) and generate the hardware harnesses (src/codegen/fpir-harness.ts).
import { generatedIntrinsics } from './families.js';
import { type ScalarType, typeNamed } from './types.js';

export { type Intrinsic, type RegType, type Routing, type Target, TARGETS, regBits } from './intrinsic-model.js';
import type { Intrinsic, RegType, Target } from './intrinsic-model.js';

const T = (name: string): ScalarType => typeNamed(name)!;
const reg = (elem: string, lanes: number): RegType => ({ elem: T(elem), lanes });

const AVX2 = ['avx2'];
const AVX512 = ['avx512f', 'avx512bw'];

/** Lanes of `elem` in a register of `bits`. */
const full = (elem: string, bits: number): RegType => reg(elem, bits / T(elem).bits);

const packs = (bits: 128 | 256 | 512, target: Target, features: readonly string[]): Intrinsic[] =>
  ([
    ['packus_epi16', 'vpackuswb', 'i16', 'u8', 'u8(min(max(a_i16, 0), 255))', 'saturating_cast<u8>(a_i16)'],
    ['packs_epi16', 'vpacksswb', 'i16', 'i8', 'i8(min(max(a_i16, -128), 127))', 'saturating_cast<i8>(a_i16)'],
    ['packus_epi32', 'vpackusdw', 'i32', 'u16', 'u16(min(max(a_i32, 0), 65535))', 'saturating_cast<u16>(a_i32)'],
    ['packs_epi32', 'vpackssdw', 'i32', 'i16', 'i16(min(max(a_i32, -32768), 32767))', 'saturating_cast<i16>(a_i32)'],
  ] as const).map(([c, mnemonic, from, to, lane, impl]) => ({
    name: `_mm${bits === 128 ? '' : bits}_${c}`, target, mnemonic, args: [full(from, bits), full(from, bits)], result: full(to, bits), lane, routing: { k: 'pack' }, implements: impl, features,
  }));

/** Moves between register sizes and of 64-bit blocks: the routing of wide vectors (the arithmetic is generated, families.ts). */
const X86_MOVES: readonly Intrinsic[] = [
  { name: '_mm256_castsi256_si128', target: 'avx2', mnemonic: '', args: [reg('u8', 32)], result: reg('u8', 16), lane: 'a_u8', routing: { k: 'half', part: 0 }, features: AVX2 },
  { name: '_mm256_extracti128_si256', target: 'avx2', mnemonic: 'vextracti128', args: [reg('u8', 32)], result: reg('u8', 16), imm: [0, 1], lane: 'a_u8', routing: { k: 'half' }, features: AVX2 },
  { name: '_mm512_castsi512_si256', target: 'avx512', mnemonic: '', args: [reg('u8', 64)], result: reg('u8', 32), lane: 'a_u8', routing: { k: 'half', part: 0 }, features: ['avx512f'] },
  { name: '_mm512_extracti64x4_epi64', target: 'avx512', mnemonic: 'vextracti64x4', args: [reg('u8', 64)], result: reg('u8', 32), imm: [0, 1], lane: 'a_u8', routing: { k: 'half' }, features: ['avx512f'] },
  // Data movement is described on bytes, the finest lanes it keeps apart, so that tag evaluation
  // sees exactly which bytes go where.
  { name: '_mm256_permute4x64_epi64', target: 'avx2', mnemonic: 'vpermq', args: [reg('u8', 32)], result: reg('u8', 32), imm: [0, 255], lane: 'a_u8', routing: { k: 'permute64' }, features: AVX2 },
];

/**
 * Moves of 32-bit lanes across a whole register, which swizzle lowering (src/swizzle/lower.ts)
 * assembles gathers from: vpermd picks any lane by an index register, vpblendd merges two
 * registers by an immediate mask, valignd takes eight (sixteen) consecutive lanes of a pair of
 * registers — HVX's valign (the swizzle seed's §5.1) on x86.
 */
const LANE_MOVES: readonly Intrinsic[] = [
  { name: '_mm256_permutevar8x32_epi32', target: 'avx2', mnemonic: 'vpermd', args: [reg('u32', 8), reg('u32', 8)], result: reg('u32', 8), lane: 'a_u32', routing: { k: 'permutevar', index: 1 }, features: AVX2 },
  { name: '_mm256_blend_epi32', target: 'avx2', mnemonic: 'vpblendd', args: [reg('u32', 8), reg('u32', 8)], result: reg('u32', 8), imm: [0, 255], lane: 'a_u32', routing: { k: 'blend' }, features: AVX2 },
  { name: '_mm256_alignr_epi32', target: 'avx512', mnemonic: 'valignd', args: [reg('u32', 8), reg('u32', 8)], result: reg('u32', 8), imm: [0, 7], lane: 'a_u32', routing: { k: 'align' }, features: ['avx512f', 'avx512vl'] },
  { name: '_mm512_permutexvar_epi32', target: 'avx512', mnemonic: 'vpermd', args: [reg('u32', 16), reg('u32', 16)], result: reg('u32', 16), lane: 'a_u32', routing: { k: 'permutevar', index: 0 }, features: ['avx512f'] },
  { name: '_mm512_alignr_epi32', target: 'avx512', mnemonic: 'valignd', args: [reg('u32', 16), reg('u32', 16)], result: reg('u32', 16), imm: [0, 15], lane: 'a_u32', routing: { k: 'align' }, features: ['avx512f'] },
];

export const INTRINSICS: readonly Intrinsic[] = [
  ...packs(128, 'avx2', ['sse4.1']),
  ...packs(256, 'avx2', AVX2),
  ...packs(512, 'avx512', AVX512),
  ...X86_MOVES,
  ...LANE_MOVES,
  ...generatedIntrinsics(),
];
