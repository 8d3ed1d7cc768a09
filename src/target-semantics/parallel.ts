// Parallel loops (spec/target.md, "Parallel loops"): iterations run in a seeded order and
// conflicting accesses from distinct iterations are a data race. Shared by both executors so that
// they draw the same permutations and report the same race.
import { UserError } from '../diag.js';
import { add } from '../expr/ops.js';
import type { Int } from '../expr/value.js';
import type { Rng } from '../rng.js';
import type { Site, Stuck } from './outcome.js';
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

/** Tracks the parallel loops that are running, innermost last. */
export class RaceDetector implements RaceCheck {
  private readonly frames: Frame[] = [];
  private nextId = 1;

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
   * loop; the first conflict found (innermost loop first) is the race.
   */
  access(buf: Buf, off: number, point: readonly Int[], kind: Kind, site: Site): Stuck | undefined {
    for (let f = this.frames.length - 1; f >= 0; f--) {
      const fr = this.frames[f]!;
      let sh = buf.shadows[f];
      if (sh === undefined) {
        const n = buf.data.length;
        sh = buf.shadows[f] = { stamp: new Int32Array(n), writer: new Int32Array(n), r1: new Int32Array(n), r2: new Int32Array(n) };
      }
      if (sh.stamp[off] !== fr.id) {
        sh.stamp[off] = fr.id;
        sh.writer[off] = -1;
        sh.r1[off] = -1;
        sh.r2[off] = -1;
      }
      const j = fr.pos;
      const w = sh.writer[off]!;
      const r1 = sh.r1[off]!;
      const r2 = sh.r2[off]!;
      let other = -1;
      let otherKind: Kind = 'write';
      if (w >= 0 && w !== j) other = w;
      else if (kind === 'write') {
        otherKind = 'read';
        if (r1 >= 0 && r1 !== j) other = r1;
        else if (r2 >= 0 && r2 !== j) other = r2;
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
      else if (r1 < 0) sh.r1[off] = j;
      else if (r1 !== j && r2 < 0) sh.r2[off] = j;
    }
    return undefined;
  }
}
