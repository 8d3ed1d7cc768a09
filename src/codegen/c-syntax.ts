// What the scalar and the vector emitters share: C literals, the planted faults, the facts about
// each func, and the part of a function's emitter that vector loops write through. Kept apart so
// that the vector emitter depends on this interface, not on the scalar emitter that calls it.
import type { Expr } from '../expr/ast.js';
import type { Stmt } from '../target-semantics/ast.js';
import { toBig } from '../expr/value.js';
import type { FuncRanges } from './ranges.js';
import type { PayloadBits } from './storage.js';

/** The vector instruction sets the emitter targets; `generic` is the portable vector extension. */
export type Isa = 'avx512' | 'avx2' | 'generic';

/** Planted faults for the bug zoo: each switches one deliberate miscompilation on. */
export interface CodegenFaults {
  /** C's truncating `/` and `%` instead of Euclidean div and mod (§2.9). */
  readonly truncatingDiv?: boolean;
  /** Vectorized loops take 32-bit lanes without the range proof of [C-NARROW]. */
  readonly unprovenNarrowing?: boolean;
  /** Loops drop the overflow checks of [C-PROVED] without the range proof. */
  readonly unprovenArithmetic?: boolean;
  /** Vectorized loops skip the iterations that do not fill a whole vector. */
  readonly dropVectorTail?: boolean;
  /** Vector stores write their lanes in reverse order. */
  readonly laneOrder?: boolean;
  /** Every func but the output keeps 32-bit payloads without the range test of [C-STORAGE]. */
  readonly unprovenStorage?: boolean;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A C literal for an integer constant, or undefined when it does not fit in int64. */
export function cLiteral(v: number | bigint): string | undefined {
  const b = toBig(v);
  if (b < INT64_MIN || b > INT64_MAX) return undefined;
  if (b === INT64_MIN) return 'INT64_MIN';
  return `INT64_C(${b})`;
}

/** The extent of a loop when it is a literal (vectorize and unroll apply to such loops, §2.8.6). */
export function constExtent(e: Expr): number | undefined {
  return e.k === 'const' && typeof e.value === 'number' && e.value >= 0 ? e.value : undefined;
}

/** A C string literal (the text is data, never a format string). */
export function cString(s: string): string {
  return JSON.stringify(s).replace(/\?/g, '\\?');
}

/** One wrapper around a store: a let, or a guard `if c then … else nop` (a split's Guard tail). */
export type Step = { readonly k: 'let'; readonly var: string; readonly value: Expr } | { readonly k: 'guard'; readonly cond: Expr };

/** One store with the lets and guards around it, outermost first. */
export interface VectorItem {
  readonly steps: readonly Step[];
  readonly store: Extract<Stmt, { k: 'store' }>;
}

/**
 * A loop body the vector code handles: lets and guards around one store, or (`C-VECTOR-UPDATE`)
 * several stores that all update the same point, inner loops of constant extent unrolled, or
 * (`C-VECTOR-PLANES`, `planes` set) several stores to points that differ in a constant coordinate.
 */
export interface VectorPlan {
  readonly items: readonly VectorItem[];
  readonly planes?: boolean;
}

/** What the emitter knows about one allocated func. */
export interface FuncInfo {
  readonly c: string; // mangled name
  readonly slot: number;
  readonly arity: number;
  /** the width of its payloads ([C-STORAGE]) */
  readonly bits: PayloadBits;
}

/** The C type of a func's payloads ([C-STORAGE]). */
export function payloadType(f: FuncInfo): string {
  return f.bits === 32 ? 'int32_t' : 'int64_t';
}

/** What the vector emitter needs from the function being emitted (the scalar emitter provides it). */
export interface FunctionWriter {
  readonly funcs: ReadonlyMap<string, FuncInfo>;
  readonly faults: CodegenFaults;
  readonly isa: Isa | undefined;
  readonly ranges: FuncRanges;
  /** the operations a holding [C-PROVED] proof covers, inside the proved variant of a loop */
  readonly proved: ReadonlySet<Expr> | undefined;
  /** inside the tag-free variant of a nest ([C-CLEAN]): reads load no tags */
  readonly clean: boolean;
  /** inside the tag-free variant: whether the nest's entry found every tag of the func's buffer 0 */
  tagsZero(func: string): boolean;
  /** vector loops whose [C-NARROW] decision was made at an outer loop's entry, with its flag */
  readonly narrowFlags: Map<Stmt, string>;
  line(text: string): void;
  open(text: string): void;
  close(text?: string): void;
  temp(prefix?: string): string;
  varTag(name: string): string | undefined;
  func(name: string): FuncInfo;
  /** the vector plan of a loop ([C-VECTOR], [C-VECTOR-UPDATE]), or undefined when it stays scalar */
  plan(s: Extract<Stmt, { k: 'for' }>): VectorPlan | undefined;
  offset(f: FuncInfo, idx: readonly string[]): string;
  scalarIterations(s: Extract<Stmt, { k: 'for' }>, from: string, count: string, inParallel: boolean): void;
}

/** k when `e` is the constant 2^k (1 ≤ k ≤ 62). */
export function log2Const(e: Expr): number | undefined {
  if (e.k !== 'const' || typeof e.value !== 'number' || e.value < 2) return undefined;
  const k = Math.log2(e.value);
  return Number.isInteger(k) && k <= 62 ? k : undefined;
}

// implements [C-POW2]
/**
 * `C-POW2`: Euclidean div and mod by the constant 2^k, in scalar code and in vector lanes alike,
 * are an arithmetic shift and a mask: in two's complement, `a >> k` is ⌊a / 2^k⌋ and `a & (2^k − 1)`
 * is a − 2^k·⌊a / 2^k⌋ for every a, exactly the Euclidean quotient and remainder by a positive
 * divisor (§2.9), and neither can overflow.
 */
export function pow2Op(o: 'div' | 'mod', a: string, k: number): string {
  return o === 'div' ? `(${a} >> ${k})` : `(${a} & ${cLiteral(2n ** BigInt(k) - 1n)!})`;
}
