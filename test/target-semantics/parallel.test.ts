// The seeded iteration order and the race detector of parallel loops (spec/target.md, "Parallel loops").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { int } from '../../src/expr/value.js';
import { RaceDetector, permutation } from '../../src/target-semantics/parallel.js';
import { seededRng } from '../../src/rng.js';
import { Buf } from '../../src/target-semantics/store.js';
import { execTgt } from '../../src/target-semantics/exec.js';
import { runMachine } from '../../src/target-semantics/machine.js';
import { input, tgt } from './support.js';

const site = { stmt: 'test' };

describe('seeded order', () => {
  it('is a permutation of min … min+len−1, the same for the same seed', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 40 }), (seed, min, len) => {
        const a = permutation(seededRng(seed), int(min), int(len), site);
        expect([...a].sort((x, y) => Number(x) - Number(y))).toEqual(Array.from({ length: len }, (_, i) => min + i));
        expect(permutation(seededRng(seed), int(min), int(len), site)).toEqual(a);
      }),
    );
  });

  it('draws numbers in range, and different seeds give different orders', () => {
    const orders = new Set([1, 2, 3, 4, 5].map((s) => permutation(seededRng(s), 0, 10, site).join(',')));
    expect(orders.size).toBeGreaterThan(1);
    const r = seededRng(9);
    for (let i = 0; i < 1000; i++) expect(r.below(7)).toBeLessThan(7);
  });
});

describe('race detector', () => {
  const buf = () => new Buf('f', ['x'], [0], [4]);

  it('allows reads from many iterations and any accesses from one iteration', () => {
    const d = new RaceDetector();
    const b = buf();
    d.enter('i', [0, 1, 2]);
    for (const k of [0, 1, 2]) {
      d.iterate(k);
      expect(d.access(b, 0, [0], 'read', site)).toBeUndefined();
      expect(d.access(b, k + 1, [k + 1], 'write', site)).toBeUndefined();
      expect(d.access(b, k + 1, [k + 1], 'read', site)).toBeUndefined();
    }
  });

  it.each([
    ['write', 'write'],
    ['write', 'read'],
    ['read', 'write'],
  ] as const)('reports %s then %s by distinct iterations', (k1, k2) => {
    const d = new RaceDetector();
    const b = buf();
    d.enter('i', [5, 7]);
    d.iterate(0);
    expect(d.access(b, 2, [2], k1, site)).toBeUndefined();
    d.iterate(1);
    expect(d.access(b, 2, [2], k2, site)).toEqual({
      kind: 'data-race', func: 'f', point: [2], loopVar: 'i', iterations: [5, 7], access: [k1, k2], site,
    });
  });

  it('finds a write after reads by two other iterations, and forgets a loop once it ends', () => {
    const d = new RaceDetector();
    const b = buf();
    d.enter('i', [0, 1, 2]);
    d.iterate(0);
    d.access(b, 1, [1], 'read', site);
    d.iterate(1);
    d.access(b, 1, [1], 'read', site);
    d.iterate(2);
    expect(d.access(b, 1, [1], 'write', site)).toMatchObject({ iterations: [0, 2], access: ['read', 'write'] });
    d.leave();
    d.enter('j', [0, 1]);
    d.iterate(1);
    expect(d.access(b, 1, [1], 'write', site)).toBeUndefined();
  });

  it('attributes an access to every running loop, innermost first', () => {
    // parallel over i, inside it parallel over j; both iterations of j in one iteration of i
    // write the same point: the race is on j. Across iterations of i it is on i.
    const same = tgt('pipeline f(): { allocate f(x in (0, 1)); for parallel i in (0, 2) do for parallel j in (0, 2) do f[0] <- j }');
    const across = tgt('pipeline f(): { allocate f(x in (0, 2)); for parallel i in (0, 2) do for parallel j in (0, 2) do if j == 0 then f[0] <- i }');
    for (const run of [execTgt, runMachine]) {
      expect(run(same, input([]))).toMatchObject({ stuck: { kind: 'data-race', loopVar: 'j' } });
      expect(run(across, input([]))).toMatchObject({ stuck: { kind: 'data-race', loopVar: 'i', access: ['write', 'write'] } });
    }
  });

  describe('[PAR-OVERLAP] writes of one value by several iterations', () => {
    const write = (d: RaceDetector, b: Buf, pos: number, v: number, off = 2) => {
      d.iterate(pos);
      const r = d.access(b, off, [off], 'write', site, v);
      if (r === undefined) b.data[off] = v;
      return r;
    };
    it('equal writes finish and are counted, the first named', () => {
      const d = new RaceDetector();
      const b = buf();
      d.enter('i', [5, 7, 9]);
      for (const k of [0, 1, 2]) expect(write(d, b, k, 3)).toBeUndefined();
      expect(d.overlaps).toEqual({ count: 2, func: 'f', point: [2], loopVar: 'i', iterations: [5, 7] });
    });
    it('a different value is a race, after one equal write too', () => {
      const d = new RaceDetector();
      const b = buf();
      d.enter('i', [5, 7, 9]);
      write(d, b, 0, 3);
      expect(write(d, b, 1, 4)).toMatchObject({ kind: 'data-race', iterations: [5, 7], access: ['write', 'write'] });
      const e = new RaceDetector();
      e.enter('i', [5, 7, 9]);
      write(e, b, 0, 3);
      write(e, b, 1, 3);
      // iteration 7 rewrites its point with another value: the writes are no longer of one value
      expect(write(e, b, 1, 4)).toMatchObject({ kind: 'data-race', iterations: [5, 7] });
    });
    it('an iteration that wrote two values first makes any second writer a race', () => {
      const d = new RaceDetector();
      const b = buf();
      d.enter('i', [5, 7]);
      write(d, b, 0, 1);
      write(d, b, 0, 3);
      // in the other order the point would end as 3 and then 3 (equal) but iteration 5 wrote 1 over 3
      expect(write(d, b, 1, 3)).toMatchObject({ kind: 'data-race', access: ['write', 'write'] });
    });
    it('a read after the reader\'s own write is not a conflict; a read before it is', () => {
      const d = new RaceDetector();
      const b = buf();
      d.enter('i', [5, 7]);
      write(d, b, 0, 3);
      expect(d.access(b, 2, [2], 'read', site)).toBeUndefined();
      expect(write(d, b, 1, 3)).toBeUndefined();
      expect(d.access(b, 2, [2], 'read', site)).toBeUndefined();
      const e = new RaceDetector();
      const c = buf();
      e.enter('i', [5, 7]);
      e.iterate(0);
      expect(e.access(c, 1, [1], 'read', site)).toBeUndefined();
      expect(write(e, c, 0, 3, 1)).toBeUndefined();
      expect(write(e, c, 1, 3, 1)).toMatchObject({ kind: 'data-race', access: ['read', 'write'] });
    });
    it('both executors finish, report the overlap, and agree for every seed', () => {
      const p = tgt('pipeline f(): { allocate f(x in (0, 4)); for parallel i in (0, 3) do for j in (0, 2) do f[i + j] <- (i + j) * 10 }');
      for (const seed of [0, 1, 2, 3]) {
        const fast = execTgt(p, input([]), { seed });
        expect(runMachine(p, input([]), { seed })).toEqual(fast);
        expect(fast).toMatchObject({ kind: 'done', output: { data: [0, 10, 20, 30] }, overlaps: { count: 2, func: 'f', loopVar: 'i' } });
      }
      const differ = tgt('pipeline f(): { allocate f(x in (0, 4)); for parallel i in (0, 3) do for j in (0, 2) do f[i + j] <- i }');
      for (const run of [execTgt, runMachine]) expect(run(differ, input([]))).toMatchObject({ stuck: { kind: 'data-race', access: ['write', 'write'] } });
    });
  });

  it('distinct allocations never conflict: a buffer allocated in the body is private', () => {
    const p = tgt('pipeline f(): { allocate f(x in (0, 3)); for parallel i in (0, 3) do { allocate g(x in (0, 1)); g[0] <- i; f[i] <- g[0] } }');
    for (const run of [execTgt, runMachine]) expect(run(p, input([]), { seed: 3 })).toMatchObject({ kind: 'done', output: { data: [0, 1, 2] } });
  });
});
