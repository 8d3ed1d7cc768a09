// The store σ of fig. 2.8: buffers created by [ALLOC], read by [READ], written by [ASSN]. Shared by
// both executors so that they agree on bounds checks (InBounds, def. 2.13), on the order in which
// allocation bounds are checked, and on the shape of the buffers they return.
import { UserError } from '../diag.js';
import { sub } from '../expr/ops.js';
import { E_MEM, type Int, type Value, isError } from '../expr/value.js';
import type { Stmt } from './ast.js';
import type { Buffer, Site, Stuck } from './outcome.js';
import { printHead } from './print.js';

/** Largest buffer either executor materializes; beyond it the host would run out of memory. */
export const MAX_POINTS = 1 << 24;

/**
 * What one running parallel loop knows about one buffer: per point, the iteration (as a position
 * in the loop's order) that wrote it last, up to two distinct iterations that read it before
 * writing it themselves (enough to find one that differs from any other), and for overlapping
 * writes ([PAR-OVERLAP]) another iteration that wrote it and two flags: `SHARED` (two iterations
 * wrote it) and `VARIED` (its writes were not all of one value). Entries are valid only when
 * stamped with the frame's id, so a new loop at the same depth reuses the arrays without clearing
 * them.
 */
export interface Shadow {
  readonly stamp: Int32Array;
  readonly writer: Int32Array;
  readonly other: Int32Array;
  readonly flags: Uint8Array;
  readonly r1: Int32Array;
  readonly r2: Int32Array;
}

/** What buffer accesses report to while parallel loops run (the race detector of parallel.ts). */
export interface RaceCheck {
  readonly active: boolean;
  /** `value` is what a write stores (compared with what is there for overlapping writes). */
  access(buf: Buf, off: number, point: readonly Int[], kind: 'read' | 'write', site: Site, value?: Value): Stuck | undefined;
}

const sites = new WeakMap<Stmt, Site>();

/**
 * Where a statement is, for stuck states. Memoized per statement: the executors ask for it on
 * every access and loop step, and printing the statement each time was a measurable cost.
 */
export function siteOf(s: Stmt): Site {
  let site = sites.get(s);
  if (site === undefined) {
    site = s.loc ? { loc: s.loc, stmt: printHead(s) } : { stmt: printHead(s) };
    sites.set(s, site);
  }
  return site;
}

/** A stuck state reached after `steps` steps, unwinding an executor to its driver. */
export class StuckSignal {
  constructor(
    readonly stuck: Stuck,
    readonly steps: number,
  ) {}
}

/** One allocation ⟨λx̄.ε_mem, Ī⟩. Its identity tells accesses to distinct allocations apart (races). */
export class Buf {
  readonly data: Value[];
  /** Per dimension: min, len and stride, as numbers when the min is a safe integer. */
  readonly mins: readonly Int[];
  /** Lengths for indexing: exact when safe, Infinity beyond (such a buffer is refused unless empty). */
  readonly lens: readonly number[];
  readonly strides: readonly number[];
  /** The mins as numbers when they all are (the fast executor's inline bounds checks), else null. */
  readonly numMins: readonly number[] | null;
  /** Race-detection records, one per depth of running parallel loops (parallel.ts). */
  readonly shadows: Shadow[] = [];

  constructor(
    readonly func: string,
    readonly dimNames: readonly string[],
    mins: readonly Int[],
    /** exact lengths, reported back unchanged by bounds() and toBuffer() */
    readonly exactLens: readonly Int[],
  ) {
    this.mins = mins;
    const lens = exactLens.map((l) => (typeof l === 'number' ? l : Infinity));
    this.lens = lens;
    const strides: number[] = [];
    let size = 1;
    for (const l of lens) {
      strides.push(size);
      size *= l;
    }
    // An empty dimension empties the buffer, however long the others are (0 · ∞ would be NaN).
    if (lens.includes(0)) size = 0;
    this.strides = strides;
    this.numMins = mins.every((m) => typeof m === 'number') ? (mins as number[]) : null;
    this.data = new Array<Value>(size).fill(E_MEM);
  }

  /** InBounds(f[c̄], σ) and the flat offset of the point, or -1 when out of bounds. */
  offset(point: readonly Value[]): number {
    let off = 0;
    for (let i = 0; i < point.length; i++) {
      const c = point[i]!;
      const m = this.mins[i]!;
      let d: number;
      if (typeof c === 'number' && typeof m === 'number') d = c - m;
      else if (isError(c)) return -1; // a point containing an error value is out of bounds (def. 2.13)
      else {
        const big = sub(c, m);
        if (typeof big !== 'number') return -1;
        d = big;
      }
      if (d < 0 || d >= this.lens[i]!) return -1;
      off += d * this.strides[i]!;
    }
    return off;
  }

  bounds(): [Int, Int][] {
    return this.mins.map((m, i) => [m, this.exactLens[i]!]);
  }

  toBuffer(): Buffer {
    return {
      func: this.func,
      dims: this.dimNames.map((dim, i) => ({ dim, min: this.mins[i]!, len: this.exactLens[i]! })),
      data: [...this.data],
    };
  }
}

/**
 * [ALLOC] on evaluated bounds (all dimensions evaluated left to right first, as the evaluation
 * contexts of fig. 2.8 require). An error value as a bound is an error in control; a negative
 * length is an invalid interval, reported as an rdom failure on `f.x` (spec/target.md, [ALLOC]).
 */
export function allocate(s: Extract<Stmt, { k: 'allocate' }>, bounds: readonly Value[]): Buf | Stuck {
  const site = siteOf(s);
  for (let i = 0; i < s.dims.length; i++) {
    for (const [j, what] of [[0, 'min'], [1, 'extent']] as const) {
      const v = bounds[2 * i + j]!;
      if (isError(v)) return { kind: 'error-in-control', what: `allocation ${what} of ${s.func}.${s.dims[i]!.dim}`, value: v, site };
    }
  }
  const mins: Int[] = [];
  const lens: Int[] = [];
  let size = 1;
  for (let i = 0; i < s.dims.length; i++) {
    const min = bounds[2 * i] as Int;
    const len = bounds[2 * i + 1] as Int;
    if (len < 0) return { kind: 'rdom-failure', var: `${s.func}.${s.dims[i]!.dim}`, min, len, site };
    mins.push(min);
    lens.push(len);
    size *= typeof len === 'number' ? len : Infinity;
  }
  if (lens.includes(0)) size = 0;
  if (size > MAX_POINTS) {
    throw new UserError(
      `allocation of '${s.func}' needs ${Number.isFinite(size) ? size : 'more than 2^53'} points; the executors stop at ${MAX_POINTS}`,
      s.loc,
      // The allocation belongs to the func, but a schedule can be what grew it: say where to look.
      'run the program on a smaller window; if the window is small, look at the schedule: a split with tail shift or round computes whole multiples of its factor, so a factor far above the window (or a bound) makes the region that large',
    );
  }
  return new Buf(s.func, s.dims.map((d) => d.dim), mins, lens);
}

export function oob(kind: 'oob-read' | 'oob-write', buf: Buf, point: readonly Value[], site: Site): Stuck {
  return { kind, func: buf.func, point: [...point], bounds: buf.bounds(), site };
}

/**
 * The offset of `point` in `buf` (the buffer of `func`, if allocated) after the checks of [READ]
 * and [ASSN]: the buffer is allocated, the point is InBounds (def. 2.13), and no other iteration
 * of a running parallel loop conflicts. Otherwise the stuck state (both executors use this).
 */
export function checkedOffset(
  buf: Buf | undefined, func: string, point: readonly Value[], kind: 'read' | 'write', site: Site, races: RaceCheck, value?: Value,
): number | Stuck {
  if (buf === undefined) return { kind: 'unallocated', func, site };
  const off = buf.offset(point);
  if (off < 0) return oob(kind === 'read' ? 'oob-read' : 'oob-write', buf, point, site);
  if (races.active) {
    const race = races.access(buf, off, point as Int[], kind, site, value);
    if (race) return race;
  }
  return off;
}

/** The site of [END]: the pipeline itself. */
export function programSite(p: { output: string; loc?: Site['loc'] }): Site {
  const stmt = `pipeline ${p.output}(…) : nop`;
  return p.loc ? { loc: p.loc, stmt } : { stmt };
}
