// What an intrinsic is (spec/fpir.md, "The intrinsic table"): its target, operand and result
// registers, lane formula and routing. Kept apart from the table so that the generated families
// (families.ts) and the written entries (intrinsics.ts) share it without importing each other.
import type { ScalarType } from './types.js';

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
 * - `quads`: lane i of the first operand (the accumulator, a), then lanes 4i … 4i + 3 of the second and
 *   third, alternating (b, c; d, e; f, g; h, i in the formula): the four-way dot products;
 * - `hpairs`: x86 horizontal pairs per 128-bit block: lanes 2k, 2k + 1 of the first operand's block, then of the second's (a, b in the formula);
 * - `count`: lane i of the first operand, lane 0 of the second (a shift count register);
 * - `unpack`: x86 unpacks per 128-bit block: the low (or high) halves of both operands' blocks interleaved;
 * - `blend`: lane i of the operand that bit i of the immediate names (0: the first, 1: the second);
 * - `align`: lane i + imm of the second operand followed by the first (valignd: the first is the high half);
 * - `permutevar`: lane (index mod lanes) of the data operand, the index being lane i of operand `index`
 *   (vpermd): the one routing that reads an operand's values.
 */
export type Routing =
  | { readonly k: 'lanewise' }
  | { readonly k: 'pack' }
  | { readonly k: 'permute64' }
  | { readonly k: 'half'; readonly part?: number }
  | { readonly k: 'concat' }
  | { readonly k: 'pairs' }
  | { readonly k: 'quads' }
  | { readonly k: 'count' }
  | { readonly k: 'hpairs' }
  | { readonly k: 'unpack'; readonly high: boolean }
  | { readonly k: 'blend' }
  | { readonly k: 'align' }
  | { readonly k: 'permutevar'; readonly index: number };

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
