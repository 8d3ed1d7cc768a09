// Seeds and the partition of check indices over shards and jobs (src/fuzz/seed.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSeed, globalIndex, ownedCount } from '../../src/fuzz/seed.js';
import { parseDuration, parseSeed, parseShard } from '../../src/fuzz/options.js';

describe('check seeds', () => {
  it('depend only on (campaign seed, index) and differ between neighbouring indices', () => {
    fc.assert(fc.property(fc.integer(), fc.nat(1 << 30), (s, i) => {
      expect(checkSeed(s, i)).toBe(checkSeed(s, i));
      expect(checkSeed(s, i)).not.toBe(checkSeed(s, i + 1));
      expect(Number.isInteger(checkSeed(s, i))).toBe(true);
    }));
  });
});

describe('partition of indices', () => {
  it('every index below runs is owned by exactly one (shard, job), whatever N and J', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 }), fc.nat(200), (n, jobs, runs) => {
      const seen = new Map<number, number>();
      let owned = 0;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < jobs; j++) {
          const shard = { index: i, count: n };
          owned += ownedCount(shard, jobs, j, runs);
          for (let k = 0; globalIndex(shard, jobs, j, k) < runs; k++) {
            const g = globalIndex(shard, jobs, j, k);
            expect(g % n).toBe(i);
            seen.set(g, (seen.get(g) ?? 0) + 1);
          }
        }
      }
      expect(owned).toBe(runs);
      expect([...seen.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: runs }, (_, k) => k));
      expect([...seen.values()].every((c) => c === 1)).toBe(true);
    }));
  });
});

describe('option values', () => {
  it('reads durations, shards and seeds', () => {
    expect(parseDuration('--time', '60s')).toBe(60_000);
    expect(parseDuration('--time', '2m')).toBe(120_000);
    expect(parseDuration('--time', '500ms')).toBe(500);
    expect(parseDuration('--time', '3')).toBe(3000);
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseSeed('-7')).toBe(-7);
    expect(parseSeed(String(2 ** 32 + 5))).toBe(5);
  });
  it('rejects malformed values as user errors', () => {
    expect(() => parseShard('4/4')).toThrow(/0 <= i < N/);
    expect(() => parseShard('x')).toThrow(/i\/N/);
    expect(() => parseDuration('--time', 'soon')).toThrow(/duration/);
    expect(() => parseDuration('--time', '0s')).toThrow(/positive/);
  });
});
