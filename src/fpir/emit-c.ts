// C text for intrinsic calls (spec/fpir.md, [FPIR-EMIT]): the register types, unaligned loads
// and stores, and calls, all read off the intrinsic table, so that what is interpreted and what
// is compiled come from one entry.
import type { Intrinsic, RegType, Target } from './intrinsics.js';
import { regBits } from './intrinsics.js';

/** The C type of a register view. */
export function cRegType(t: RegType, target: Target): string {
  if (target !== 'neon') return regBits(t) === 128 ? '__m128i' : regBits(t) === 256 ? '__m256i' : '__m512i';
  return `${t.elem.signed ? 'int' : 'uint'}${t.elem.bits}x${t.lanes}_t`;
}

/** Loads a register of view `t` from the bytes at pointer expression `p`. */
export function cLoad(t: RegType, target: Target, p: string): string {
  if (target === 'neon') return `vld1${regBits(t) === 128 ? 'q' : ''}_${t.elem.signed ? 's' : 'u'}${t.elem.bits}((const void *)(${p}))`;
  const bits = regBits(t);
  return bits === 128 ? `_mm_loadu_si128((const __m128i *)(${p}))` : bits === 256 ? `_mm256_loadu_si256((const __m256i *)(${p}))` : `_mm512_loadu_si512((const void *)(${p}))`;
}

/** Stores register expression `r` of view `t` to the bytes at `p`. */
export function cStore(t: RegType, target: Target, p: string, r: string): string {
  if (target === 'neon') return `vst1${regBits(t) === 128 ? 'q' : ''}_${t.elem.signed ? 's' : 'u'}${t.elem.bits}((void *)(${p}), ${r})`;
  const bits = regBits(t);
  return bits === 128 ? `_mm_storeu_si128((__m128i *)(${p}), ${r})` : bits === 256 ? `_mm256_storeu_si256((__m256i *)(${p}), ${r})` : `_mm512_storeu_si512((void *)(${p}), ${r})`;
}

// implements [FPIR-EMIT]
/** a call of an entry on operand expressions (x86 registers are untyped, so no casts). */
export function cCall(e: Intrinsic, args: readonly string[], imm?: number): string {
  return `${e.name}(${[...args, ...(imm !== undefined ? [String(imm)] : [])].join(', ')})`;
}

/** The target attribute of a function using `e` (x86: its features; Neon: the Armv8.2 extensions beyond Neon, such as dotprod). */
export function cTargetAttr(features: readonly string[]): string {
  if (!features.includes('neon')) return features.length === 0 ? '' : `__attribute__((target(${JSON.stringify(features.join(','))}))) `;
  const ext = features.filter((f) => f !== 'neon');
  return ext.length === 0 ? '' : `__attribute__((target(${JSON.stringify(`arch=armv8.2-a+${ext.join('+')}`)}))) `;
}
