// Regression: `realize(p, { window, params: {} })` failed with "input.params.keys is not a
// function": library entry points take parameters as a plain object as well as a Map.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { inputOf, loadPipeline, lower, realize, realizeSpec, runMachine, execTgt, completeProgram, BUILTIN_ENGINES } from '../../src/index.js';

const p = loadPipeline('pipeline f(n) { func f(x) = x * n; }', 'a.alg');

describe('library inputs', () => {
  it('realize takes params as a plain object, a Map, numbers or bigints', () => {
    expect(realize(p, { window: [[0, 4]], params: { n: 3 } }).values).toEqual([0, 3, 6, 9]);
    expect(realize(p, { window: [[0, 2]], params: new Map([['n', 2n]]) }).values).toEqual([0, 2]);
    expect(realizeSpec(p, { window: [[1, 2]], params: { n: 5 } })).toEqual({ kind: 'value', values: [5, 10] });
  });

  it('the executors take the same plain inputs', () => {
    const t = completeProgram(lower(p), BUILTIN_ENGINES.beta1!);
    const input = { window: [[0, 3]] as [number, number][], params: { n: 2 } };
    for (const out of [execTgt(t, input), runMachine(t, input)]) {
      expect(out.kind).toBe('done');
    }
  });

  it('wrong shapes are refused with a message saying what is expected', () => {
    expect(() => inputOf({ window: [[0]] } as never)).toThrow(/window dimension 0 is not a \[min, len\] pair of integers/);
    expect(() => inputOf({ window: [[0, 1]], params: { n: 1.5 } })).toThrow(UserError);
    expect(() => inputOf(null as never)).toThrow(/an input needs a window/);
  });

  it('bigints in the safe range become numbers (the canonical form of integers)', () => {
    const i = inputOf({ window: [[0n, 4n]], params: { n: 2n ** 60n, m: 7n } });
    expect(i.window).toEqual([[0, 4]]);
    expect(i.params.get('m')).toBe(7);
    expect(i.params.get('n')).toBe(2n ** 60n);
  });
});
