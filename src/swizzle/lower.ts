// From a found swizzle to C for this CPU (spec/swizzle.md, [SWZ-LOWER]): every array is a row of
// 8-lane 32-bit registers; each register a gather writes is built by calls of entries of the
// intrinsic table (src/fpir/intrinsics.ts) — valignd when it is a window of two registers (HVX's
// valign), else vpermd and vpblendd per register read — and folds are wrapping additions. The same
// register program is emitted as C through the table and interpreted by the table's machine, so
// both can be compared with the evaluator. Lanes of 8 stand for HVX's 128-byte registers (§5.1).
import { cCall } from '../fpir/emit-c.js';
import type { Intrinsic } from '../fpir/intrinsics.js';
import { applyIntrinsic, intrinsicNamed } from '../fpir/machine.js';
import { typeNamed } from '../fpir/types.js';
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

/** A register value: a register of an array, a constant, or a call of a table entry. */
type RegExpr =
  | { readonly k: 'load'; readonly arr: string; readonly reg: number }
  | { readonly k: 'const'; readonly lanes: readonly number[] }
  | { readonly k: 'call'; readonly entry: Intrinsic; readonly args: readonly RegExpr[]; readonly imm?: number };

/** One step: an array filled register by register by a gather, or by a fold, or concatenated. */
type Step =
  | { readonly k: 'regs'; readonly arr: string; readonly regs: readonly RegExpr[] }
  | { readonly k: 'fold'; readonly arr: string; readonly from: string; readonly cells: number; readonly width: number }
  | { readonly k: 'cat'; readonly arr: string; readonly parts: readonly { readonly from: string; readonly cells: number }[] };

export interface Lowered {
  readonly source: string;
  /** calls of each table entry in the program */
  readonly calls: ReadonlyMap<string, number>;
  /** the last array as the table's machine computes it */
  readonly interpreted: number[];
}

export interface LowerOptions {
  /** use AVX-512 entries (valignd on 8 lanes needs AVX-512F and VL) */
  readonly avx512?: boolean;
}

/**
 * The window of two registers a register is, if it is one: lane l reads lane l + s of lo followed
 * by hi, for every cell it holds (valignd's routing).
 */
function windowOf(src: Int32Array, r: number, n: number): { lo: number; hi: number; s: number } | undefined {
  for (let s = 1; s < LANES; s++) {
    let lo = -1;
    let hi = -1;
    let ok = true;
    for (let l = 0; l < LANES && ok; l++) {
      const c = r * LANES + l;
      if (c >= n) break;
      const x = src[c]!;
      if (x < 0) ok = false;
      else if (l + s < LANES) {
        if (x % LANES !== l + s || (lo >= 0 && lo !== Math.floor(x / LANES))) ok = false;
        else lo = Math.floor(x / LANES);
      } else if (x % LANES !== l + s - LANES || (hi >= 0 && hi !== Math.floor(x / LANES))) ok = false;
      else hi = Math.floor(x / LANES);
    }
    if (ok && lo >= 0) return { lo, hi: hi >= 0 ? hi : lo, s };
  }
  return undefined;
}

/** The register r of a gather's output, from its input registers. */
function gatherReg(src: Int32Array, r: number, n: number, input: string, opts: LowerOptions): RegExpr {
  const load = (reg: number): RegExpr => ({ k: 'load', arr: input, reg });
  // a register read whole is a move
  let whole = -1;
  for (let l = 0; l < LANES && r * LANES + l < n; l++) {
    const x = src[r * LANES + l]!;
    const reg = x >= 0 && x % LANES === l ? Math.floor(x / LANES) : -2;
    whole = whole === -1 || whole === reg ? reg : -2;
  }
  if (whole >= 0) return load(whole);
  const win = opts.avx512 ? windowOf(src, r, n) : undefined;
  if (win) return { k: 'call', entry: intrinsicNamed('_mm256_alignr_epi32'), args: [load(win.hi), load(win.lo)], imm: win.s };
  const bySrc = new Map<number, { idx: number[]; mask: number }>();
  let bottomMask = 0;
  for (let l = 0; l < LANES; l++) {
    const c = r * LANES + l;
    if (c >= n) continue;
    const x = src[c]!;
    if (x === SRC_ZERO) continue;
    if (x < 0) {
      bottomMask |= 1 << l;
      continue;
    }
    const reg = Math.floor(x / LANES);
    let e = bySrc.get(reg);
    if (!e) bySrc.set(reg, (e = { idx: new Array<number>(LANES).fill(0), mask: 0 }));
    e.idx[l] = x % LANES;
    e.mask |= 1 << l;
  }
  const blend = intrinsicNamed('_mm256_blend_epi32');
  const permute = intrinsicNamed('_mm256_permutevar8x32_epi32');
  let v: RegExpr = { k: 'const', lanes: new Array<number>(LANES).fill(0) };
  if (bottomMask) v = { k: 'call', entry: blend, args: [v, { k: 'const', lanes: new Array<number>(LANES).fill(BOTTOM_VALUE) }], imm: bottomMask };
  for (const [reg, e] of bySrc) v = { k: 'call', entry: blend, args: [v, { k: 'call', entry: permute, args: [load(reg), { k: 'const', lanes: e.idx }] }], imm: e.mask };
  return v;
}

function steps(p: SwzProgram, filling: Filling, opts: LowerOptions): Step[] {
  const out: Step[] = [];
  let h = 0;
  const arr = (i: number): string => `a${i}`;
  p.stmts.forEach((s, i) => {
    const n = sizeOf(s.shape);
    const rhs = s.rhs;
    if (rhs.k === 'lit') return;
    if (rhs.k === 'fold') {
      out.push({ k: 'fold', arr: arr(i), from: arr(rhs.arg), cells: n, width: sizeOf(p.stmts[rhs.arg]!.shape) / n });
      return;
    }
    const g = rhs.choices[rhs.hole !== undefined ? filling[h++]! : 0]!;
    let input = arr(rhs.args[0]!);
    if (rhs.args.length > 1) {
      input = `cat${i}`;
      out.push({ k: 'cat', arr: input, parts: rhs.args.map((a) => ({ from: arr(a), cells: sizeOf(p.stmts[a]!.shape) })) });
    }
    out.push({ k: 'regs', arr: arr(i), regs: Array.from({ length: regs(n) }, (_, r) => gatherReg(g.src, r, n, input, opts)) });
  });
  return out;
}

function cExpr(e: RegExpr): string {
  switch (e.k) {
    case 'load':
      return `_mm256_load_si256((const __m256i *)(${e.arr} + ${e.reg * LANES}))`;
    case 'const':
      return e.lanes.every((v) => v === 0) ? '_mm256_setzero_si256()' : `_mm256_setr_epi32(${e.lanes.join(', ')})`;
    case 'call':
      return cCall(e.entry, e.args.map(cExpr), e.imm);
  }
}

const U32 = typeNamed('u32')!;

function interpret(e: RegExpr, arrays: ReadonlyMap<string, number[]>): bigint[] {
  switch (e.k) {
    case 'load':
      return arrays.get(e.arr)!.slice(e.reg * LANES, e.reg * LANES + LANES).map((v) => BigInt(v >>> 0));
    case 'const':
      return e.lanes.map((v) => BigInt(v >>> 0));
    case 'call':
      return applyIntrinsic(e.entry, e.args.map((a) => ({ type: { elem: U32, lanes: LANES }, lanes: interpret(a, arrays) })), e.imm).lanes as bigint[];
  }
}

function countCalls(e: RegExpr, calls: Map<string, number>): void {
  if (e.k !== 'call') return;
  calls.set(e.entry.name, (calls.get(e.entry.name) ?? 0) + 1);
  for (const a of e.args) countCalls(a, calls);
}

// implements [SWZ-LOWER]
/** The C program (it prints the last array's cells, one per line) and the machine's run of it. */
export function lowerToC(p: SwzProgram, filling: Filling, sym: ReadonlyMap<number, number>, opts: LowerOptions = {}): Lowered {
  const target = opts.avx512 ? 'avx2,avx512f,avx512vl' : 'avx2';
  const lines: string[] = [`#pragma GCC target("${target}")`, '#include <immintrin.h>', '#include <stdint.h>', '#include <stdio.h>', ''];
  const body: string[] = [];
  const arrays = new Map<string, number[]>();
  const calls = new Map<string, number>();
  const decl = (name: string, cells: number, init?: readonly number[]): void => {
    lines.push(`static int32_t ${name}[${regs(cells) * LANES}] __attribute__((aligned(32)))${init ? ` = {${init.join(', ')}}` : ''};`);
    const a = new Array<number>(regs(cells) * LANES).fill(0);
    if (init) init.forEach((v, c) => (a[c] = v));
    arrays.set(name, a);
  };
  p.stmts.forEach((s, i) => (s.rhs.k === 'lit' ? decl(`a${i}`, sizeOf(s.shape), Array.from(s.rhs.terms, (t) => termValue(p, t, sym))) : decl(`a${i}`, sizeOf(s.shape))));
  for (const st of steps(p, filling, opts)) {
    switch (st.k) {
      case 'cat': {
        decl(st.arr, st.parts.reduce((m, x) => m + x.cells, 0));
        const to = arrays.get(st.arr)!;
        let o = 0;
        for (const part of st.parts) {
          body.push(`  for (int c = 0; c < ${part.cells}; c++) ${st.arr}[${o} + c] = ${part.from}[c];`);
          arrays.get(part.from)!.slice(0, part.cells).forEach((v, c) => (to[o + c] = v));
          o += part.cells;
        }
        break;
      }
      case 'fold': {
        body.push(`  for (int c = 0; c < ${st.cells}; c++) { uint32_t s = 0; for (int t = 0; t < ${st.width}; t++) s += (uint32_t)${st.from}[c * ${st.width} + t]; ${st.arr}[c] = (int32_t)s; }`);
        const from = arrays.get(st.from)!;
        const to = arrays.get(st.arr)!;
        for (let c = 0; c < st.cells; c++) {
          let s = 0;
          for (let t = 0; t < st.width; t++) s = (s + from[c * st.width + t]!) | 0;
          to[c] = s;
        }
        break;
      }
      case 'regs': {
        const to = arrays.get(st.arr)!;
        st.regs.forEach((e, r) => {
          body.push(`  _mm256_store_si256((__m256i *)(${st.arr} + ${r * LANES}), ${cExpr(e)});`);
          countCalls(e, calls);
          interpret(e, arrays).forEach((v, l) => (to[r * LANES + l] = Number(BigInt.asIntN(32, v))));
        });
        break;
      }
    }
  }
  const last = p.stmts.length - 1;
  const cells = sizeOf(p.stmts[last]!.shape);
  lines.push('', 'int main(void) {', ...body, `  for (int c = 0; c < ${cells}; c++) printf("%d\\n", a${last}[c]);`, '  return 0;', '}', '');
  return { source: lines.join('\n'), calls, interpreted: arrays.get(`a${last}`)!.slice(0, cells) };
}
