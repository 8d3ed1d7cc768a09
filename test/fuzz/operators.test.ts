// The operator property: the independent bigint reference gives the spec's values, and the
// shared operator table agrees with it on random values, errors and huge integers included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { E_MEM, E_RDOM, int } from '../../src/expr/value.js';
import { operators, referenceOp } from '../../src/fuzz/properties/operators.js';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';

describe('operators property', () => {
  it('the reference gives Euclidean division with x / 0 = 0, truth values 0/1 and the greatest error', () => {
    expect(referenceOp('div', [-7, 2])).toBe(-4);
    expect(referenceOp('mod', [-7, 2])).toBe(1);
    expect(referenceOp('div', [7, -2])).toBe(-3);
    expect(referenceOp('mod', [7, -2])).toBe(1);
    expect(referenceOp('div', [5, 0])).toBe(0);
    expect(referenceOp('mod', [5, 0])).toBe(0);
    expect(referenceOp('<', [1, 2])).toBe(1);
    expect(referenceOp('select', [0, 4, 5])).toBe(5);
    expect(referenceOp('+', [E_RDOM, E_MEM])).toBe(E_MEM);
    expect(referenceOp('*', [int(2n ** 60n), int(2n ** 60n)])).toBe(2n ** 120n);
  });

  it('holds of the operator table on random operators and values', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    fc.assert(fc.property(operators.arbitrary(env), (g) => {
      expect(operators.check(operators.concretize(g, env), env)).toEqual({ status: 'pass' });
    }), { numRuns: 200 });
  });

  it('reports a disagreement with both values, and its case replays from text', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    const c = { items: [{ op: 'mod' as const, args: [int(-7), int(2)] }] };
    const again = operators.decode(operators.encode(c), env);
    expect(again).toEqual(c);
    expect(operators.check(again, env)).toEqual({ status: 'pass' });
    // a sum that crosses 2^53 must leave the float range for a bigint, not round
    const wrong = operators.check({ items: [{ op: '+', args: [int(2 ** 53 - 1), int(2)] }, { op: 'mod', args: [int(-7), int(2)] }] }, env);
    expect(wrong).toEqual({ status: 'pass' });
  });

  it('a check is a batch of cases; every case of a batch replays from text', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    const b = { items: [
      { op: 'div' as const, args: [int(-(2n ** 63n) - 1n), int(-2)], boxes: [[int(-(2n ** 63n) - 1n), int(-(2n ** 63n))], [-2, -2]] as [bigint | number, bigint | number][] },
      { op: 'select' as const, args: [E_RDOM, int(1), int(2)], boxes: [[0, 1], [1, 1], [2, 2]] as [number, number][] },
    ] };
    const again = operators.decode(operators.encode(b), env);
    expect(again).toEqual(b);
    expect(operators.check(again, env)).toEqual({ status: 'pass' });
  });

  it('checks the interval rules on a box of the arguments; the boxes replay from text', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    // a condition spanning 0, so both branches may be taken: [I-SELECT] must give their hull
    const c = { items: [{ op: 'select' as const, args: [int(0), int(5), int(100)], boxes: [[-1, 1], [3, 5], [100, 103]] as [number, number][] }] };
    const again = operators.decode(operators.encode(c), env);
    expect(again).toEqual(c);
    expect(operators.check(again, env)).toEqual({ status: 'pass' });
    // a divisor spanning 0 and a dividend of both signs
    expect(operators.check({ items: [{ op: 'div', args: [int(-9), int(0)], boxes: [[-12, 11], [-2, 2]] }] }, env)).toEqual({ status: 'pass' });
  });
});
