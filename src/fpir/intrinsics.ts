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
 * - `concat`: the operands one after the other;
 * - `pairs`: lanes 2i and 2i + 1 of both operands (dot products: a, b then c, d in the formula);
 * - `hpairs`: x86 horizontal pairs per 128-bit block: lanes 2k, 2k + 1 of the first operand's block, then of the second's (a, b in the formula);
 * - `count`: lane i of the first operand, lane 0 of the second (a shift count register);
 * - `unpack`: x86 unpacks per 128-bit block: the low (or high) halves of both operands' blocks interleaved.
 */
export type Routing =
  | { readonly k: 'lanewise' }
  | { readonly k: 'pack' }
  | { readonly k: 'permute64' }
  | { readonly k: 'half'; readonly part?: number }
  | { readonly k: 'concat' }
  | { readonly k: 'pairs' }
  | { readonly k: 'count' }
  | { readonly k: 'hpairs' }
  | { readonly k: 'unpack'; readonly high: boolean };

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

export const INTRINSICS: readonly Intrinsic[] = [
  ...packs(128, 'avx2', ['sse4.1']),
  ...packs(256, 'avx2', AVX2),
  ...packs(512, 'avx512', AVX512),
  ...X86_MOVES,
  ...generatedIntrinsics(),
];
