// From a found swizzle to C for this CPU (spec/swizzle.md, [SWZ-LOWER]): every array is a row of
// 8-lane 32-bit registers; each register a gather writes is assembled from the registers it reads
// by AVX2 `vpermd` (_mm256_permutevar8x32_epi32) and `vpblendd` (_mm256_blend_epi32); folds are
// wrapping additions. Lanes of 8 stand for HVX's 128-byte registers, as in the seed (§5.1).
import type { Filling, SwzProgram } from './ast.js';
import { evaluate } from './eval.js';
import { SRC_ZERO } from './gathers.js';
import { sizeOf } from './shape.js';
import { BOTTOM, ZERO } from './term.js';

/** The value ⊥ stands for in numbers: any fixed value, the same in C and in the interpretation. */
export const BOTTOM_VALUE = 0x7fff0001 | 0;

const LANES = 8;
const regs = (cells: number): number => Math.ceil(cells / LANES);

/** A term's number: symbols take the given values; 0 is 0; a fold is the wrapping sum of its elements. */
export function termValue(p: SwzProgram, t: number, sym: ReadonlyMap<number, number>): number {
  if (t === ZERO) return 0;
  if (t === BOTTOM) return BOTTOM_VALUE;
  if (!p.terms.isFold(t)) return sym.get(t) ?? 0;
  let s = 0;
  for (const e of p.terms.elements(t)) s = (s + termValue(p, e, sym)) | 0;
  return s;
}

/** The evaluator's last array, as numbers. */
export function expectedValues(p: SwzProgram, filling: Filling, sym: ReadonlyMap<number, number>): number[] {
  const vals = evaluate(p, filling);
  return Array.from(vals[vals.length - 1]!, (t) => termValue(p, t, sym));
}

// implements [SWZ-LOWER]
/** The C program: prints the last array's cells, one per line. */
export function lowerToC(p: SwzProgram, filling: Filling, sym: ReadonlyMap<number, number>): { source: string; permutes: number; blends: number } {
  const lines: string[] = ['#pragma GCC target("avx2")', '#include <immintrin.h>', '#include <stdint.h>', '#include <stdio.h>', ''];
  const body: string[] = [];
  let permutes = 0;
  let blends = 0;
  let h = 0;
  const arr = (i: number): string => `a${i}`;
  p.stmts.forEach((s, i) => {
    const n = sizeOf(s.shape);
    const padded = regs(n) * LANES;
    const rhs = s.rhs;
    if (rhs.k === 'lit') {
      const init = Array.from(rhs.terms, (t) => termValue(p, t, sym));
      lines.push(`static int32_t ${arr(i)}[${padded}] __attribute__((aligned(32))) = {${init.join(', ')}};`);
      return;
    }
    lines.push(`static int32_t ${arr(i)}[${padded}] __attribute__((aligned(32)));`);
    if (rhs.k === 'fold') {
      const k = sizeOf(p.stmts[rhs.arg]!.shape) / n;
      body.push(`  for (int c = 0; c < ${n}; c++) { uint32_t s = 0; for (int t = 0; t < ${k}; t++) s += (uint32_t)${arr(rhs.arg)}[c * ${k} + t]; ${arr(i)}[c] = (int32_t)s; }`);
      return;
    }
    const g = rhs.choices[rhs.hole !== undefined ? filling[h++]! : 0]!;
    // the arguments, concatenated, as registers
    let input = arr(rhs.args[0]!);
    if (rhs.args.length > 1) {
      const total = rhs.args.reduce((m, a) => m + sizeOf(p.stmts[a]!.shape), 0);
      input = `cat${i}`;
      lines.push(`static int32_t ${input}[${regs(total) * LANES}] __attribute__((aligned(32)));`);
      let o = 0;
      for (const a of rhs.args) {
        const m = sizeOf(p.stmts[a]!.shape);
        body.push(`  for (int c = 0; c < ${m}; c++) ${input}[${o} + c] = ${arr(a)}[c];`);
        o += m;
      }
    }
    for (let r = 0; r < regs(n); r++) {
      const bySrc = new Map<number, { idx: number[]; mask: number }>();
      let bottomMask = 0;
      for (let l = 0; l < LANES; l++) {
        const c = r * LANES + l;
        if (c >= n) continue;
        const src = g.src[c]!;
        if (src === SRC_ZERO) continue;
        if (src < 0) {
          bottomMask |= 1 << l;
          continue;
        }
        const reg = Math.floor(src / LANES);
        let e = bySrc.get(reg);
        if (!e) bySrc.set(reg, (e = { idx: new Array<number>(LANES).fill(0), mask: 0 }));
        e.idx[l] = src % LANES;
        e.mask |= 1 << l;
      }
      body.push(`  { __m256i v = _mm256_setzero_si256();`);
      if (bottomMask) {
        body.push(`    v = _mm256_blend_epi32(v, _mm256_set1_epi32(${BOTTOM_VALUE}), ${bottomMask});`);
        blends++;
      }
      for (const [reg, e] of bySrc) {
        body.push(`    v = _mm256_blend_epi32(v, _mm256_permutevar8x32_epi32(_mm256_load_si256((const __m256i *)(${input} + ${reg * LANES})), _mm256_setr_epi32(${e.idx.join(', ')})), ${e.mask});`);
        permutes++;
        blends++;
      }
      body.push(`    _mm256_store_si256((__m256i *)(${arr(i)} + ${r * LANES}), v); }`);
    }
  });
  const last = p.stmts.length - 1;
  lines.push('', 'int main(void) {', ...body, `  for (int c = 0; c < ${sizeOf(p.stmts[last]!.shape)}; c++) printf("%d\\n", ${arr(last)}[c]);`, '  return 0;', '}', '');
  return { source: lines.join('\n'), permutes, blends };
}
