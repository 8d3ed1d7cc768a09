// Parallel loops (spec/target.md, "Parallel loops"): iterations run in a seeded order and
// conflicting accesses from distinct iterations are a data race. Shared by both executors so that
// they draw the same permutations and report the same race.
import { UserError } from '../diag.js';
import { add } from '../expr/ops.js';
import type { Int, Value } from '../expr/value.js';
import type { Rng } from '../rng.js';
import type { Buffer, Outcome, Overlaps, Site, Stuck } from './outcome.js';
import { type Buf, MAX_POINTS, type RaceCheck } from './store.js';

/** The iterations min … min+len−1 in a Fisher–Yates order drawn from `rng`. */
export function permutation(rng: Rng, min: Int, len: Int, site: Site): Int[] {
  if (len > MAX_POINTS) {
    throw new UserError(`parallel loop of ${len} iterations: the executors permute at most ${MAX_POINTS}`, site.loc, 'run the program on a smaller window');
  }
  const n = Number(len);
  const xs: Int[] = new Array<Int>(n);
  for (let i = 0; i < n; i++) xs[i] = add(min, i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = xs[i]!;
    xs[i] = xs[j]!;
    xs[j] = t;
  }
  return xs;
}

type Kind = 'read' | 'write';

/** One running parallel loop. */
interface Frame {
  readonly loopVar: string;
  readonly id: number;
  readonly order: readonly Int[];
  pos: number;
}

// implements [PAR-OVERLAP]: the flags a point's writes carry in a shadow (store.ts).
const SHARED = 1;
const VARIED = 2;

/** Tracks the parallel loops that are running, innermost last. */
export class RaceDetector implements RaceCheck {
  private readonly frames: Frame[] = [];
  private nextId = 1;
  /** The overlapping writes of equal values seen so far ([PAR-OVERLAP]). */
  overlaps: Overlaps | undefined;

  get active(): boolean {
    return this.frames.length > 0;
  }
  enter(loopVar: string, order: readonly Int[]): void {
    this.frames.push({ loopVar, id: this.nextId++, order, pos: 0 });
  }
  /** The running loop moves to the iteration at position `pos` of its order. */
  iterate(pos: number): void {
    this.frames[this.frames.length - 1]!.pos = pos;
  }
  leave(): void {
    this.frames.pop();
  }

  /**
   * Records an access to point `off` of `buf` by the current iteration of every running parallel
   * loop; the first conflict found (innermost loop first) is the race. A write of `value` to a point
   * another iteration wrote is an overlap, not a race, when every write to that point so far stored
   * that value and no iteration read it before writing it ([PAR-OVERLAP], spec/target.md).
   */
  access(buf: Buf, off: number, point: readonly Int[], kind: Kind, site: Site, value?: Value): Stuck | undefined {
    let overlap: readonly [Int, Int] | undefined;
    for (let f = this.frames.length - 1; f >= 0; f--) {
      const fr = this.frames[f]!;
      let sh = buf.shadows[f];
      if (sh === undefined) {
        const n = buf.data.length;
        sh = buf.shadows[f] = {
          stamp: new Int32Array(n), writer: new Int32Array(n), other: new Int32Array(n), flags: new Uint8Array(n),
          r1: new Int32Array(n), r2: new Int32Array(n),
        };
      }
      if (sh.stamp[off] !== fr.id) {
        sh.stamp[off] = fr.id;
        sh.writer[off] = -1;
        sh.flags[off] = 0;
        sh.r1[off] = -1;
        sh.r2[off] = -1;
      }
      const j = fr.pos;
      const w = sh.writer[off]!;
      const r1 = sh.r1[off]!;
      const r2 = sh.r2[off]!;
      const flags = sh.flags[off]!;
      let other = -1;
      let otherKind: Kind = 'write';
      if (kind === 'read') {
        // A read after the reader's own write sees that write, or one of the same value ([PAR-OVERLAP]).
        if (w >= 0 && w !== j) other = w;
        else if (w < 0) {
          if (r1 < 0) sh.r1[off] = j;
          else if (r1 !== j && r2 < 0) sh.r2[off] = j;
        }
      } else {
        otherKind = 'read';
        if (r1 >= 0 && r1 !== j) other = r1;
        else if (r2 >= 0 && r2 !== j) other = r2;
        else if (w >= 0) {
          const same = value !== undefined && value === buf.data[off];
          if (w !== j || (flags & SHARED) !== 0) {
            // Written by another iteration: allowed only as a write of the one value stored so far.
            const by = w !== j ? w : sh.other[off]!;
            if (!same || (flags & VARIED) !== 0) {
              other = by;
              otherKind = 'write';
            } else {
              overlap ??= [fr.order[by]!, fr.order[j]!];
              sh.flags[off] = flags | SHARED;
              sh.other[off] = by;
            }
          } else if (!same) sh.flags[off] = flags | VARIED;
        }
      }
      if (other >= 0) {
        return {
          kind: 'data-race',
          func: buf.func,
          point: [...point],
          loopVar: fr.loopVar,
          iterations: [fr.order[other]!, fr.order[j]!],
          access: [otherKind, kind],
          site,
        };
      }
      if (kind === 'write') sh.writer[off] = j;
      if (overlap !== undefined && this.overlaps === undefined) {
        this.overlaps = { count: 0, func: buf.func, point: [...point], loopVar: fr.loopVar, iterations: overlap };
      }
    }
    if (overlap !== undefined) this.overlaps = { ...this.overlaps!, count: this.overlaps!.count + 1 };
    return undefined;
  }
}

/** A finished run's outcome, with the overlapping writes its parallel loops made, if any. */
export function done(output: Buffer, steps: number, races: RaceDetector): Outcome {
  return races.overlaps === undefined ? { kind: 'done', output, steps } : { kind: 'done', output, steps, overlaps: races.overlaps };
}
