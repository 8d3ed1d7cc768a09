// Results of running a target program (fig. 2.8 and the named stuck states of
// spec/target.md, "Stuck states"). Both executors return exactly these shapes,
// so their results can be compared with deep equality.
import type { Loc } from '../diag.js';
import type { Expr } from '../expr/ast.js';
import { add, mul, sub } from '../expr/ops.js';
import type { Int, Value } from '../expr/value.js';

/** A buffer: the func's allocation bounds and its points, flattened with the first dimension fastest. */
export interface Buffer {
  readonly func: string;
  readonly dims: readonly { readonly dim: string; readonly min: Int; readonly len: Int }[];
  readonly data: readonly Value[];
}

/** Where in the program a stuck state arose: the statement's location when parsed, and a rendering. */
export interface Site {
  readonly loc?: Loc;
  readonly stmt: string; // the statement (or its head) as printed
}

export type Stuck =
  /** def. 2.11 */
  | { readonly kind: 'assert-failed'; readonly cond: Expr; readonly site: Site }
  /** def. 2.12: a loop with negative extent */
  | { readonly kind: 'rdom-failure'; readonly var: string; readonly min: Int; readonly len: Int; readonly site: Site }
  /** def. 2.13; a point containing an error value is out of bounds by definition */
  | {
      readonly kind: 'oob-read' | 'oob-write';
      readonly func: string;
      readonly point: readonly Value[];
      readonly bounds: readonly (readonly [Int, Int])[];
      readonly site: Site;
    }
  /** an error value where control needs an integer (loop bound, if/assert condition, allocation bound, let) */
  | { readonly kind: 'error-in-control'; readonly what: string; readonly value: Value; readonly site: Site }
  /** two distinct iterations of a parallel loop touch one point, at least one writing */
  | {
      readonly kind: 'data-race';
      readonly func: string;
      readonly point: readonly Int[];
      readonly loopVar: string;
      readonly iterations: readonly [Int, Int];
      readonly access: readonly ['read' | 'write', 'read' | 'write'];
      readonly site: Site;
    }
  /** an access to a func with no allocation in scope */
  | { readonly kind: 'unallocated'; readonly func: string; readonly site: Site }
  /** the step or time budget ran out: not a verdict on the program */
  | { readonly kind: 'budget-exceeded'; readonly steps: number };

/**
 * Writes of one value to one point by distinct iterations of a parallel loop, which [PAR-OVERLAP]
 * lets finish: how many such writes ran, and the first of them.
 */
export interface Overlaps {
  readonly count: number;
  readonly func: string;
  readonly point: readonly Int[];
  readonly loopVar: string;
  readonly iterations: readonly [Int, Int];
}

export type Outcome =
  | { readonly kind: 'done'; readonly output: Buffer; readonly steps: number; readonly overlaps?: Overlaps }
  | { readonly kind: 'stuck'; readonly stuck: Stuck; readonly steps: number };

/** Index of a point in a buffer (first dimension fastest), or undefined when outside its allocation. */
export function bufferIndex(buf: Buffer, point: readonly Int[]): number | undefined {
  if (point.length !== buf.dims.length) return undefined;
  let idx: Int = 0;
  let stride: Int = 1;
  for (let d = 0; d < buf.dims.length; d++) {
    const { min, len } = buf.dims[d]!;
    const off = sub(point[d]!, min);
    if (off < 0 || off >= len) return undefined;
    idx = add(idx, mul(off, stride));
    stride = mul(stride, len);
  }
  return Number(idx);
}
