// The fast evaluator's memo tables behave like maps from points to values, across dense-box
// growth, far points, bigint and error coordinates.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PointTable, ValueTable, pointKey } from '../../src/alg-semantics/store.js';
import { E_MEM, E_RDOM, type Value } from '../../src/expr/value.js';

const coord: fc.Arbitrary<Value> = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: -200, max: 200 }) },
  { weight: 1, arbitrary: fc.integer({ min: -(2 ** 40), max: 2 ** 40 }) },
  { weight: 1, arbitrary: fc.constantFrom<Value>(2n ** 60n, E_RDOM) },
);
// Int32 values sit in the dense cells of a ValueTable; larger numbers, bigints and errors do not.
const value: fc.Arbitrary<Value> = fc.oneof(
  fc.integer(),
  fc.integer({ min: -(2 ** 52), max: 2 ** 52 }),
  fc.constantFrom<Value>(E_MEM, -(2n ** 70n), 2 ** 31, -(2 ** 31), 2 ** 31 - 1, -(2 ** 31) - 1),
);

describe.each([1, 2, 3])('memo tables in %i dimensions', (n) => {
  const ops = fc.array(fc.tuple(fc.array(coord, { minLength: n, maxLength: n }), value), { maxLength: 200 });

  it('ValueTable agrees with a Map', () => {
    fc.assert(fc.property(ops, (sets) => {
      const t = new ValueTable();
      const m = new Map<string, Value>();
      for (const [c, v] of sets) {
        t.set(c, v);
        m.set(pointKey(c), v);
      }
      for (const [c] of sets) expect(t.get(c)).toBe(m.get(pointKey(c)));
      if (n === 1) for (const [c] of sets) expect(t.get1(c[0]!)).toBe(m.get(pointKey(c)));
      expect(t.get(Array.from({ length: n }, () => 12345678))).toBe(m.get(pointKey(Array.from({ length: n }, () => 12345678))));
    }), { numRuns: 200, seed: n });
  });

  it('PointTable agrees with a Map', () => {
    fc.assert(fc.property(ops, (sets) => {
      const t = new PointTable<Value>();
      const m = new Map<string, Value>();
      for (const [c, v] of sets) {
        t.set(c, v);
        m.set(pointKey(c), v);
      }
      for (const [c] of sets) expect(t.get(c)).toBe(m.get(pointKey(c)));
    }), { numRuns: 200, seed: 10 + n });
  });
});

describe('far points', () => {
  // Points outside the dense box are keyed by text: coordinates whose digits concatenate alike,
  // (1000001, 23) and (10000012, 3), are still two points.
  it('keeps two far points apart whose coordinates run together', () => {
    expect(pointKey([1000001, 23])).not.toBe(pointKey([10000012, 3]));
    for (const t of [new ValueTable(), new PointTable<Value>()]) {
      t.set([0, 0], 1);
      t.set([1000001, 23], 5);
      t.set([10000012, 3], 7);
      expect([t.get([0, 0]), t.get([1000001, 23]), t.get([10000012, 3])]).toEqual([1, 5, 7]);
    }
  });
});
