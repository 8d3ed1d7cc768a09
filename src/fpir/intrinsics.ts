// The intrinsic semantics table (spec/fpir.md, "The intrinsic table"): one entry per x86 intrinsic
// (AVX2, AVX-512 through immintrin.h names) and per Arm Neon intrinsic that lowering rules use.
// As in VeGen's description language (§3.2), an entry says how many lanes of which element type
// each operand and the result have, the scalar operation every result lane computes (an FPIR
// formula over primitive operations, written the way vendor pseudocode is: widen, compute, then
// saturate or truncate), and how result lanes bind to operand lanes (the routing), including the
// 128-bit-lane structure of x86 packs. The same entries emit C (emit-c.ts), interpret calls
// (machine.ts) and generate the hardware harnesses (src/codegen/fpir-harness.ts).
import { type ScalarType, typeNamed } from './types.js';

export type Target = 'avx2' | 'avx512' | 'neon';
export const TARGETS: readonly Target[] = ['avx2', 'avx512', 'neon'];

/** A register's view: `lanes` lanes of `elem` (registers are bit strings; views reinterpret). */
export interface RegType {
  readonly elem: ScalarType;
  readonly lanes: number;
}

export const regBits = (r: RegType): number => r.elem.bits * r.lanes;

/**
 * How result lane i binds to operand lanes (VeGen's lane bindings):
 * - `lanewise`: lane i of every operand;
 * - `pack`: x86 packs: in each 128-bit block of the result, the first half comes from the same
 *   block of the first operand, the second half from the same block of the second;
 * - `permute64`: 64-bit block q of the result is block `(imm >> 2q) & 3` of the operand;
 * - `half`: lane `h · n + i` of the operand, n the result's lanes and h the immediate (or `part`);
 * - `concat`: the operands one after the other.
 */
export type Routing =
  | { readonly k: 'lanewise' }
  | { readonly k: 'pack' }
  | { readonly k: 'permute64' }
  | { readonly k: 'half'; readonly part?: number }
  | { readonly k: 'concat' };

export interface Intrinsic {
  /** the C name */
  readonly name: string;
  readonly target: Target;
  /** the instruction it compiles to ('' when it is only a type change) */
  readonly mnemonic: string;
  readonly args: readonly RegType[];
  readonly result: RegType;
  /** an immediate operand (last in C), with its valid range */
  readonly imm?: readonly [number, number];
  /** the scalar operation per result lane: FPIR over a_T, b_T, c_T (operands) and n_u8 (immediate) */
  readonly lane: string;
  readonly routing: Routing;
  /** the FPIR instruction it computes lane by lane, when there is one (checked against `lane`) */
  readonly implements?: string;
  /** CPU features it needs (x86: names for __builtin_cpu_supports and the target attribute) */
  readonly features: readonly string[];
}

const T = (name: string): ScalarType => typeNamed(name)!;
const reg = (elem: string, lanes: number): RegType => ({ elem: T(elem), lanes });
const LANEWISE: Routing = { k: 'lanewise' };

const AVX2 = ['avx2'];
const AVX512 = ['avx512f', 'avx512bw'];

/** Lanes of `elem` in a register of `bits`. */
const full = (elem: string, bits: number): RegType => reg(elem, bits / T(elem).bits);

interface Family {
  readonly c: string;
  readonly mnemonic: string;
  readonly elem: string;
  readonly lane: string;
  readonly implements?: string;
}

/** A lane-wise binary x86 intrinsic in both the 256- and the 512-bit form. */
function x86Binary(f: Family): Intrinsic[] {
  return ([[256, 'avx2', AVX2], [512, 'avx512', AVX512]] as const).map(([bits, target, features]) => ({
    name: `_mm${bits}_${f.c}`,
    target,
    mnemonic: f.mnemonic,
    args: [full(f.elem, bits), full(f.elem, bits)],
    result: full(f.elem, bits),
    lane: f.lane,
    routing: LANEWISE,
    ...(f.implements ? { implements: f.implements } : {}),
    features,
  }));
}

const X86_BINARY: readonly Family[] = [
  { c: 'adds_epu8', mnemonic: 'vpaddusb', elem: 'u8', lane: 'u8(min(u16(a_u8) + u16(b_u8), 255))', implements: 'saturating_add(a_u8, b_u8)' },
  { c: 'adds_epi8', mnemonic: 'vpaddsb', elem: 'i8', lane: 'i8(min(max(i16(a_i8) + i16(b_i8), -128), 127))', implements: 'saturating_add(a_i8, b_i8)' },
  { c: 'adds_epu16', mnemonic: 'vpaddusw', elem: 'u16', lane: 'u16(min(u32(a_u16) + u32(b_u16), 65535))', implements: 'saturating_add(a_u16, b_u16)' },
  { c: 'adds_epi16', mnemonic: 'vpaddsw', elem: 'i16', lane: 'i16(min(max(i32(a_i16) + i32(b_i16), -32768), 32767))', implements: 'saturating_add(a_i16, b_i16)' },
  { c: 'subs_epu8', mnemonic: 'vpsubusb', elem: 'u8', lane: 'u8(max(i16(a_u8) - i16(b_u8), 0))', implements: 'saturating_sub(a_u8, b_u8)' },
  { c: 'subs_epi8', mnemonic: 'vpsubsb', elem: 'i8', lane: 'i8(min(max(i16(a_i8) - i16(b_i8), -128), 127))', implements: 'saturating_sub(a_i8, b_i8)' },
  { c: 'subs_epu16', mnemonic: 'vpsubusw', elem: 'u16', lane: 'u16(max(i32(a_u16) - i32(b_u16), 0))', implements: 'saturating_sub(a_u16, b_u16)' },
  { c: 'subs_epi16', mnemonic: 'vpsubsw', elem: 'i16', lane: 'i16(min(max(i32(a_i16) - i32(b_i16), -32768), 32767))', implements: 'saturating_sub(a_i16, b_i16)' },
  { c: 'avg_epu8', mnemonic: 'vpavgb', elem: 'u8', lane: 'u8((u16(a_u8) + u16(b_u8) + 1) >> 1)', implements: 'rounding_halving_add(a_u8, b_u8)' },
  { c: 'avg_epu16', mnemonic: 'vpavgw', elem: 'u16', lane: 'u16((u32(a_u16) + u32(b_u16) + 1) >> 1)', implements: 'rounding_halving_add(a_u16, b_u16)' },
  { c: 'add_epi8', mnemonic: 'vpaddb', elem: 'u8', lane: 'a_u8 + b_u8' },
  { c: 'add_epi16', mnemonic: 'vpaddw', elem: 'u16', lane: 'a_u16 + b_u16' },
  { c: 'add_epi32', mnemonic: 'vpaddd', elem: 'u32', lane: 'a_u32 + b_u32' },
  { c: 'sub_epi8', mnemonic: 'vpsubb', elem: 'u8', lane: 'a_u8 - b_u8' },
  { c: 'sub_epi16', mnemonic: 'vpsubw', elem: 'u16', lane: 'a_u16 - b_u16' },
  { c: 'mullo_epi16', mnemonic: 'vpmullw', elem: 'i16', lane: 'a_i16 * b_i16' },
  { c: 'mulhi_epi16', mnemonic: 'vpmulhw', elem: 'i16', lane: 'i16((i32(a_i16) * i32(b_i16)) >> 16)', implements: 'mul_shr(a_i16, b_i16, 16)' },
  { c: 'mulhi_epu16', mnemonic: 'vpmulhuw', elem: 'u16', lane: 'u16((u32(a_u16) * u32(b_u16)) >> 16)', implements: 'mul_shr(a_u16, b_u16, 16)' },
  { c: 'mulhrs_epi16', mnemonic: 'vpmulhrsw', elem: 'i16', lane: 'i16((((i32(a_i16) * i32(b_i16)) >> 14) + 1) >> 1)' },
  { c: 'min_epu8', mnemonic: 'vpminub', elem: 'u8', lane: 'min(a_u8, b_u8)' },
  { c: 'max_epu8', mnemonic: 'vpmaxub', elem: 'u8', lane: 'max(a_u8, b_u8)' },
  { c: 'min_epi8', mnemonic: 'vpminsb', elem: 'i8', lane: 'min(a_i8, b_i8)' },
  { c: 'max_epi8', mnemonic: 'vpmaxsb', elem: 'i8', lane: 'max(a_i8, b_i8)' },
  { c: 'min_epu16', mnemonic: 'vpminuw', elem: 'u16', lane: 'min(a_u16, b_u16)' },
  { c: 'max_epu16', mnemonic: 'vpmaxuw', elem: 'u16', lane: 'max(a_u16, b_u16)' },
  { c: 'min_epi16', mnemonic: 'vpminsw', elem: 'i16', lane: 'min(a_i16, b_i16)' },
  { c: 'max_epi16', mnemonic: 'vpmaxsw', elem: 'i16', lane: 'max(a_i16, b_i16)' },
  { c: 'min_epi32', mnemonic: 'vpminsd', elem: 'i32', lane: 'min(a_i32, b_i32)' },
  { c: 'max_epi32', mnemonic: 'vpmaxsd', elem: 'i32', lane: 'max(a_i32, b_i32)' },
];

const packs = (bits: 256 | 512, target: Target, features: readonly string[]): Intrinsic[] =>
  ([
    ['packus_epi16', 'vpackuswb', 'i16', 'u8', 'u8(min(max(a_i16, 0), 255))', 'saturating_cast<u8>(a_i16)'],
    ['packs_epi16', 'vpacksswb', 'i16', 'i8', 'i8(min(max(a_i16, -128), 127))', 'saturating_cast<i8>(a_i16)'],
    ['packus_epi32', 'vpackusdw', 'i32', 'u16', 'u16(min(max(a_i32, 0), 65535))', 'saturating_cast<u16>(a_i32)'],
    ['packs_epi32', 'vpackssdw', 'i32', 'i16', 'i16(min(max(a_i32, -32768), 32767))', 'saturating_cast<i16>(a_i32)'],
  ] as const).map(([c, mnemonic, from, to, lane, impl]) => ({
    name: `_mm${bits}_${c}`, target, mnemonic, args: [full(from, bits), full(from, bits)], result: full(to, bits), lane, routing: { k: 'pack' }, implements: impl, features,
  }));

/** One-operand x86 intrinsics: widening moves, shifts by an immediate, abs, halves, permutes. */
const X86_OTHER: readonly Intrinsic[] = [
  { name: '_mm256_cvtepu8_epi16', target: 'avx2', mnemonic: 'vpmovzxbw', args: [reg('u8', 16)], result: reg('u16', 16), lane: 'u16(a_u8)', routing: LANEWISE, features: AVX2 },
  { name: '_mm256_cvtepi8_epi16', target: 'avx2', mnemonic: 'vpmovsxbw', args: [reg('i8', 16)], result: reg('i16', 16), lane: 'i16(a_i8)', routing: LANEWISE, features: AVX2 },
  { name: '_mm512_cvtepu8_epi16', target: 'avx512', mnemonic: 'vpmovzxbw', args: [reg('u8', 32)], result: reg('u16', 32), lane: 'u16(a_u8)', routing: LANEWISE, features: AVX512 },
  { name: '_mm512_cvtusepi16_epi8', target: 'avx512', mnemonic: 'vpmovuswb', args: [reg('u16', 32)], result: reg('u8', 32), lane: 'u8(min(a_u16, 255))', routing: LANEWISE, implements: 'saturating_cast<u8>(a_u16)', features: AVX512 },
  { name: '_mm256_castsi256_si128', target: 'avx2', mnemonic: '', args: [reg('u8', 32)], result: reg('u8', 16), lane: 'a_u8', routing: { k: 'half', part: 0 }, features: AVX2 },
  { name: '_mm256_extracti128_si256', target: 'avx2', mnemonic: 'vextracti128', args: [reg('u8', 32)], result: reg('u8', 16), imm: [0, 1], lane: 'a_u8', routing: { k: 'half' }, features: AVX2 },
  { name: '_mm512_castsi512_si256', target: 'avx512', mnemonic: '', args: [reg('u8', 64)], result: reg('u8', 32), lane: 'a_u8', routing: { k: 'half', part: 0 }, features: ['avx512f'] },
  { name: '_mm512_extracti64x4_epi64', target: 'avx512', mnemonic: 'vextracti64x4', args: [reg('u8', 64)], result: reg('u8', 32), imm: [0, 1], lane: 'a_u8', routing: { k: 'half' }, features: ['avx512f'] },
  // Data movement and bitwise operations are described on bytes, the finest lanes they keep apart,
  // so that tag evaluation sees exactly which bytes go where.
  { name: '_mm256_permute4x64_epi64', target: 'avx2', mnemonic: 'vpermq', args: [reg('u8', 32)], result: reg('u8', 32), imm: [0, 255], lane: 'a_u8', routing: { k: 'permute64' }, features: AVX2 },
  { name: '_mm256_or_si256', target: 'avx2', mnemonic: 'vpor', args: [reg('u8', 32), reg('u8', 32)], result: reg('u8', 32), lane: 'a_u8 | b_u8', routing: LANEWISE, features: AVX2 },
  { name: '_mm512_or_si512', target: 'avx512', mnemonic: 'vporq', args: [reg('u8', 64), reg('u8', 64)], result: reg('u8', 64), lane: 'a_u8 | b_u8', routing: LANEWISE, features: ['avx512f'] },
  ...([[256, 'avx2', AVX2], [512, 'avx512', AVX512]] as const).flatMap(([bits, target, features]): Intrinsic[] => [
    { name: `_mm${bits}_abs_epi8`, target, mnemonic: 'vpabsb', args: [full('i8', bits)], result: full('u8', bits), lane: 'u8(select(a_i8 < 0, 0 - i16(a_i8), i16(a_i8)))', routing: LANEWISE, implements: 'abs(a_i8)', features },
    { name: `_mm${bits}_abs_epi16`, target, mnemonic: 'vpabsw', args: [full('i16', bits)], result: full('u16', bits), lane: 'u16(select(a_i16 < 0, 0 - i32(a_i16), i32(a_i16)))', routing: LANEWISE, implements: 'abs(a_i16)', features },
    { name: `_mm${bits}_slli_epi16`, target, mnemonic: 'vpsllw', args: [full('u16', bits)], result: full('u16', bits), imm: [0, 255], lane: 'a_u16 << n_u8', routing: LANEWISE, features },
    { name: `_mm${bits}_srli_epi16`, target, mnemonic: 'vpsrlw', args: [full('u16', bits)], result: full('u16', bits), imm: [0, 255], lane: 'a_u16 >> n_u8', routing: LANEWISE, features },
    { name: `_mm${bits}_srai_epi16`, target, mnemonic: 'vpsraw', args: [full('i16', bits)], result: full('i16', bits), imm: [0, 255], lane: 'a_i16 >> n_u8', routing: LANEWISE, features },
  ]),
];

/**
 * 64-bit lane arithmetic that the algorithm backend's vector code uses (spec/codegen.md,
 * [C-SELECT]): AVX2's vpmuldq multiplies the sign-extended low halves of its 64-bit lanes;
 * AVX-512 has the full wrapping multiply and signed 64-bit min and max.
 */
const X86_WIDE: readonly Intrinsic[] = [
  { name: '_mm256_mul_epi32', target: 'avx2', mnemonic: 'vpmuldq', args: [full('i64', 256), full('i64', 256)], result: full('i64', 256), lane: 'i64(i32(a_i64)) * i64(i32(b_i64))', routing: LANEWISE, features: AVX2 },
  { name: '_mm512_mullo_epi64', target: 'avx512', mnemonic: 'vpmullq', args: [full('i64', 512), full('i64', 512)], result: full('i64', 512), lane: 'a_i64 * b_i64', routing: LANEWISE, features: ['avx512f', 'avx512dq'] },
  { name: '_mm512_min_epi64', target: 'avx512', mnemonic: 'vpminsq', args: [full('i64', 512), full('i64', 512)], result: full('i64', 512), lane: 'min(a_i64, b_i64)', routing: LANEWISE, features: ['avx512f'] },
  { name: '_mm512_max_epi64', target: 'avx512', mnemonic: 'vpmaxsq', args: [full('i64', 512), full('i64', 512)], result: full('i64', 512), lane: 'max(a_i64, b_i64)', routing: LANEWISE, features: ['avx512f'] },
];

const neon = (name: string, mnemonic: string, args: readonly RegType[], result: RegType, lane: string, impl?: string, routing: Routing = LANEWISE, imm?: readonly [number, number]): Intrinsic => ({
  name, target: 'neon', mnemonic, args, result, lane, routing, ...(impl ? { implements: impl } : {}), ...(imm ? { imm } : {}), features: ['neon'],
});
const q = (elem: string) => full(elem, 128);
const d = (elem: string) => full(elem, 64);

/** Neon: 128-bit (q) and 64-bit (d) registers; lane formulas follow Arm's pseudocode. */
const NEON: readonly Intrinsic[] = [
  neon('vqaddq_u8', 'uqadd', [q('u8'), q('u8')], q('u8'), 'u8(min(u16(a_u8) + u16(b_u8), 255))', 'saturating_add(a_u8, b_u8)'),
  neon('vqaddq_s8', 'sqadd', [q('i8'), q('i8')], q('i8'), 'i8(min(max(i16(a_i8) + i16(b_i8), -128), 127))', 'saturating_add(a_i8, b_i8)'),
  neon('vqaddq_u16', 'uqadd', [q('u16'), q('u16')], q('u16'), 'u16(min(u32(a_u16) + u32(b_u16), 65535))', 'saturating_add(a_u16, b_u16)'),
  neon('vqsubq_u8', 'uqsub', [q('u8'), q('u8')], q('u8'), 'u8(max(i16(a_u8) - i16(b_u8), 0))', 'saturating_sub(a_u8, b_u8)'),
  neon('vqsubq_u16', 'uqsub', [q('u16'), q('u16')], q('u16'), 'u16(max(i32(a_u16) - i32(b_u16), 0))', 'saturating_sub(a_u16, b_u16)'),
  neon('vqsubq_s16', 'sqsub', [q('i16'), q('i16')], q('i16'), 'i16(min(max(i32(a_i16) - i32(b_i16), -32768), 32767))', 'saturating_sub(a_i16, b_i16)'),
  neon('vhaddq_u8', 'uhadd', [q('u8'), q('u8')], q('u8'), 'u8((u16(a_u8) + u16(b_u8)) >> 1)', 'halving_add(a_u8, b_u8)'),
  neon('vhaddq_s8', 'shadd', [q('i8'), q('i8')], q('i8'), 'i8((i16(a_i8) + i16(b_i8)) >> 1)', 'halving_add(a_i8, b_i8)'),
  neon('vhsubq_u8', 'uhsub', [q('u8'), q('u8')], q('u8'), 'u8((i16(a_u8) - i16(b_u8)) >> 1)', 'halving_sub(a_u8, b_u8)'),
  neon('vhsubq_s8', 'shsub', [q('i8'), q('i8')], q('i8'), 'i8((i16(a_i8) - i16(b_i8)) >> 1)', 'halving_sub(a_i8, b_i8)'),
  neon('vrhaddq_u8', 'urhadd', [q('u8'), q('u8')], q('u8'), 'u8((u16(a_u8) + u16(b_u8) + 1) >> 1)', 'rounding_halving_add(a_u8, b_u8)'),
  neon('vabdq_u8', 'uabd', [q('u8'), q('u8')], q('u8'), 'u8(select(a_u8 > b_u8, a_u8 - b_u8, b_u8 - a_u8))', 'absd(a_u8, b_u8)'),
  neon('vabdq_u16', 'uabd', [q('u16'), q('u16')], q('u16'), 'u16(select(a_u16 > b_u16, a_u16 - b_u16, b_u16 - a_u16))', 'absd(a_u16, b_u16)'),
  neon('vaddl_u8', 'uaddl', [d('u8'), d('u8')], q('u16'), 'u16(a_u8) + u16(b_u8)', 'widening_add(a_u8, b_u8)'),
  neon('vmull_u8', 'umull', [d('u8'), d('u8')], q('u16'), 'u16(a_u8) * u16(b_u8)', 'widening_mul(a_u8, b_u8)'),
  neon('vshll_n_u8', 'ushll', [d('u8')], q('u16'), 'u16(a_u8) << n_u8', 'widening_shl(a_u8, n_u8)', LANEWISE, [0, 8]),
  neon('vmlal_u8', 'umlal', [q('u16'), d('u8'), d('u8')], q('u16'), 'a_u16 + u16(b_u8) * u16(c_u8)', 'a_u16 + widening_mul(b_u8, c_u8)'),
  neon('vqmovn_u16', 'uqxtn', [q('u16')], d('u8'), 'u8(min(a_u16, 255))', 'saturating_narrow(a_u16)'),
  neon('vqmovun_s16', 'sqxtun', [q('i16')], d('u8'), 'u8(min(max(a_i16, 0), 255))', 'saturating_cast<u8>(a_i16)'),
  neon('vaddq_u16', 'add', [q('u16'), q('u16')], q('u16'), 'a_u16 + b_u16'),
  neon('vqdmulhq_s16', 'sqdmulh', [q('i16'), q('i16')], q('i16'), 'i16(min(max((i64(a_i16) * i64(b_i16) * 2) >> 16, -32768), 32767))', 'mul_shr(a_i16, b_i16, 15)'),
  neon('vqrdmulhq_s16', 'sqrdmulh', [q('i16'), q('i16')], q('i16'), 'i16(min(max((i64(a_i16) * i64(b_i16) * 2 + 32768) >> 16, -32768), 32767))', 'rounding_mul_shr(a_i16, b_i16, 15)'),
  neon('vdup_n_u8', 'dup', [], d('u8'), 'n_u8', undefined, LANEWISE, [0, 255]),
  neon('vget_low_u8', '', [q('u8')], d('u8'), 'a_u8', undefined, { k: 'half', part: 0 }),
  neon('vget_high_u8', '', [q('u8')], d('u8'), 'a_u8', undefined, { k: 'half', part: 1 }),
  neon('vcombine_u8', '', [d('u8'), d('u8')], q('u8'), 'a_u8', undefined, { k: 'concat' }),
];

export const INTRINSICS: readonly Intrinsic[] = [
  ...X86_BINARY.flatMap(x86Binary),
  ...packs(256, 'avx2', AVX2),
  ...packs(512, 'avx512', AVX512),
  ...X86_OTHER,
  ...X86_WIDE,
  ...NEON,
];
