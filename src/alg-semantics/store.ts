// Memo tables keyed by points, for the fast evaluator. Points whose coordinates are small numbers
// live in a dense box that grows by doubling towards the demand; every other point (far away,
// bigint or error coordinates, or a box that would exceed DENSE_LIMIT cells) goes to a Map.
import type { Value } from '../expr/value.js';

export const DENSE_LIMIT = 1 << 22;

/** Values a dense cell of a ValueTable holds. */
export const isInt32 = (v: Value): v is number => typeof v === 'number' && (v | 0) === v;

const keyOf = (v: Value): string => (typeof v === 'object' ? `e${v.err}` : typeof v === 'bigint' ? `${v}n` : `${v}`);
export const pointKey = (c: readonly Value[]): string => c.map(keyOf).join(',');

/** The dense region of a store: per dimension a minimum and an extent. */
class Box {
  readonly size: number;
  constructor(readonly mins: number[], readonly lens: number[]) {
    this.size = lens.reduce((a, b) => a * b, 1);
  }
  index(c: readonly Value[]): number {
    let idx = 0;
    let stride = 1;
    for (let d = 0; d < this.mins.length; d++) {
      const v = c[d];
      if (typeof v !== 'number') return -1;
      const o = v - this.mins[d]!;
      if (o < 0 || o >= this.lens[d]!) return -1;
      idx += o * stride;
      stride *= this.lens[d]!;
    }
    return idx;
  }
  /** A larger box holding this one and point `c`, or undefined if it would be too large. */
  grownTo(c: readonly Value[]): Box | undefined {
    const mins: number[] = [];
    const lens: number[] = [];
    for (let d = 0; d < this.mins.length; d++) {
      const v = c[d] as number;
      let lo = this.mins[d]!;
      let hi = lo + this.lens[d]!;
      const len = this.lens[d]!;
      if (v < lo) lo = Math.min(v, lo - len);
      else if (v >= hi) hi = Math.max(v + 1, hi + len);
      mins.push(lo);
      lens.push(hi - lo);
    }
    const size = lens.reduce((a, b) => a * b, 1);
    return size <= DENSE_LIMIT ? new Box(mins, lens) : undefined;
  }
  static around(c: readonly Value[]): Box | undefined {
    if (!c.every((v) => typeof v === 'number' && Math.abs(v) < 2 ** 50)) return undefined;
    const side = c.length === 1 ? 1024 : c.length === 2 ? 64 : 16;
    return new Box(c.map((v) => (v as number) - side / 2), c.map(() => side));
  }
  static of(mins: number[], lens: number[]): Box | undefined {
    const b = new Box(mins, lens);
    return b.size <= DENSE_LIMIT && b.size > 0 ? b : undefined;
  }
  /**
   * Calls f(from, to, count) for each row (a run along the first dimension) of this box: cells
   * from..from+count of this box are cells to..to+count of `into`, which must contain this box.
   */
  forEachRow(into: Box, f: (from: number, to: number, count: number) => void): void {
    const n = this.mins.length;
    const row = n === 0 ? 1 : this.lens[0]!;
    const c = [...this.mins];
    for (let i = 0; i < this.size; i += row) {
      f(i, into.index(c), row);
      for (let d = 1; d < n; d++) {
        if (++c[d]! < this.mins[d]! + this.lens[d]!) break;
        c[d] = this.mins[d]!;
      }
    }
  }
}

/** A map from points to values of any kind. */
export class PointTable<T> {
  private box: Box | undefined;
  private cells: (T | undefined)[] = [];
  private readonly far = new Map<string, T>();

  get(c: readonly Value[]): T | undefined {
    const i = this.box ? this.box.index(c) : -1;
    return i >= 0 ? this.cells[i] : this.far.size ? this.far.get(pointKey(c)) : undefined;
  }

  set(c: readonly Value[], v: T): void {
    const i = this.place(c);
    if (i >= 0) this.cells[i] = v;
    else this.far.set(pointKey(c), v);
  }

  private place(c: readonly Value[]): number {
    if (!this.box) this.adopt(Box.around(c));
    else if (this.box.index(c) < 0 && c.every((v) => typeof v === 'number')) this.adopt(this.box.grownTo(c));
    return this.box ? this.box.index(c) : -1;
  }

  private adopt(b: Box | undefined): void {
    if (!b) return;
    const cells = new Array<T | undefined>(b.size);
    if (this.box) {
      this.box.forEachRow(b, (from, to, count) => {
        for (let k = 0; k < count; k++) cells[to + k] = this.cells[from + k];
      });
    }
    this.box = b;
    this.cells = cells;
  }
}

/**
 * A map from points to values, specialised for the common case of int32 values at small number
 * points (typed storage; `get1` and `slot2` avoid allocating the point). Int32 cells rather than
 * doubles: values read back are small integers to the engine, which keeps the arithmetic of
 * ops.ts on its integer fast path. Other values live in `far`.
 */
export class ValueTable {
  private box: Box | undefined;
  private min0 = 0;
  private min1 = 0;
  private len0 = 0;
  private len1 = 0;
  /** Dense cells; read directly by the evaluator's 2-D fast path (see `slot2`). */
  nums = new Int32Array(0);
  /** 0: absent, 1: int32 value in `nums`, 2: other value in `far`. */
  state = new Uint8Array(0);
  private readonly far = new Map<string, Value>();

  get(c: readonly Value[]): Value | undefined {
    const i = this.box ? this.box.index(c) : -1;
    if (i >= 0) {
      const s = this.state[i];
      if (s === 1) return this.nums[i];
      if (s === 0) return undefined;
    }
    return this.far.size ? this.far.get(pointKey(c)) : undefined;
  }

  get1(a: Value): Value | undefined {
    if (typeof a === 'number') {
      const o = a - this.min0;
      if (o >= 0 && o < this.len0 && this.state[o] === 1) return this.nums[o];
    }
    return this.get([a]);
  }

  /** The dense cell of a 2-D point of a 2-D table, or -1 if it has none. */
  slot2(a: Value, b: Value): number {
    if (typeof a !== 'number' || typeof b !== 'number') return -1;
    const o = a - this.min0;
    const p = b - this.min1;
    return o >= 0 && o < this.len0 && p >= 0 && p < this.len1 ? o + p * this.len0 : -1;
  }

  set(c: readonly Value[], v: Value): void {
    if (!this.box) this.adopt(Box.around(c));
    else if (this.box.index(c) < 0 && c.every((x) => typeof x === 'number')) this.adopt(this.box.grownTo(c));
    const i = this.box ? this.box.index(c) : -1;
    if (i >= 0 && isInt32(v)) {
      this.nums[i] = v;
      this.state[i] = 1;
      return;
    }
    if (i >= 0) this.state[i] = 2;
    this.far.set(pointKey(c), v);
  }

  reserve(mins: number[], lens: number[]): void {
    if (!this.box) this.adopt(Box.of(mins, lens));
  }

  private adopt(b: Box | undefined): void {
    if (!b) return;
    const nums = new Int32Array(b.size);
    const state = new Uint8Array(b.size);
    if (this.box) {
      this.box.forEachRow(b, (from, to, count) => {
        nums.set(this.nums.subarray(from, from + count), to);
        state.set(this.state.subarray(from, from + count), to);
      });
    }
    this.box = b;
    this.nums = nums;
    this.state = state;
    // Fast-path fields for dims 1 and 2 (other dims never match: len 0).
    const n = b.mins.length;
    this.min0 = n >= 1 ? b.mins[0]! : 0;
    this.len0 = n >= 1 && n <= 2 ? b.lens[0]! : 0;
    this.min1 = n === 2 ? b.mins[1]! : 0;
    this.len1 = n === 2 ? b.lens[1]! : 0;
  }
}
