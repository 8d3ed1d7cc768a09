// Verdicts (defs. 2.1–2.3): each rule of spec/lowering.md "Verdicts" on a hand-made run, and end
// to end on the §2.2 example with the bounds of its text and with wrong ones.
import { describe, expect, it } from 'vitest';
import { cst } from '../../src/expr/ast.js';
import { E_MEM, E_RDOM, type Value } from '../../src/expr/value.js';
import type { Realization } from '../../src/alg-semantics/fast-eval.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { type Verdict, compareOutputs, isConfluent, negativeRdom, showVerdict, verdictFor } from '../../src/lowering/equivalence.js';
import { fillByHand } from '../../src/lowering/handfill.js';
import { lower } from '../../src/lowering/lower.js';
import type { Outcome, Stuck } from '../../src/target-semantics/outcome.js';
import { example } from '../support/files.js';
import { input, tgt } from '../target-semantics/support.js';

const site = { stmt: 'f[x] <- 0' };
const alg = (values: Value[], window: [number, number][] = [[0, values.length]]): Realization => ({ func: 'f', window, values });
const done = (min: number, data: Value[]): Outcome => ({ kind: 'done', output: { func: 'f', dims: [{ dim: 'x', min, len: data.length }], data }, steps: 1 });
const stuck = (s: Stuck): Outcome => ({ kind: 'stuck', stuck: s, steps: 1 });
const W = (m: number, l: number) => [[m, l] as const];

describe('compareOutputs, rule by rule', () => {
  it('[VERDICT-EQUAL] every window point agrees; points outside the window are ignored', () => {
    expect(compareOutputs(alg([1, 2, 3], [[1, 3]]), done(0, [E_MEM, 1, 2, 3, 99]), W(1, 3))).toEqual({ kind: 'equal' });
  });

  it('[VERDICT-DIFFERS] reports the first differing point with both values', () => {
    expect(compareOutputs(alg([1, 2, 3]), done(0, [1, 5, E_MEM]), W(0, 3))).toEqual({ kind: 'differs', point: [1], expected: 2, actual: 5 });
    expect(compareOutputs(alg([1, 2, 3]), done(0, [1, 2, E_MEM]), W(0, 3))).toEqual({ kind: 'differs', point: [2], expected: 3, actual: E_MEM });
  });

  it('[VERDICT-ALG-ERROR] an error value of the algorithm in the window excuses any difference', () => {
    expect(compareOutputs(alg([1, E_RDOM, 3]), done(0, [7, 7, 7]), W(0, 3))).toEqual({ kind: 'vacuous-alg-error', point: [1], value: E_RDOM });
  });

  it('[VERDICT-ASSERTION] a failed assertion excuses the run (def. 2.3)', () => {
    const s: Stuck = { kind: 'assert-failed', cond: cst(0), site };
    expect(compareOutputs(alg([1]), stuck(s), W(0, 1))).toEqual({ kind: 'vacuous-assertion', stuck: s });
  });

  it('[VERDICT-RDOM] an rdom failure is excused only when the algorithm has a negative rdom extent', () => {
    const s: Stuck = { kind: 'rdom-failure', var: 'f.s1.r', min: 0, len: -1, site };
    expect(compareOutputs(alg([1]), stuck(s), W(0, 1), { negativeRdom: 'f.s1.r' })).toEqual({ kind: 'vacuous-rdom', stuck: s, rdom: 'f.s1.r' });
    expect(compareOutputs(alg([1]), stuck(s), W(0, 1))).toEqual({ kind: 'unsafe', stuck: s });
  });

  it('[VERDICT-UNSAFE] memory errors and races are never excused, not even by an algorithm error', () => {
    const oob: Stuck = { kind: 'oob-read', func: 'g', point: [7], bounds: [[0, 3]], site };
    expect(compareOutputs(alg([E_RDOM]), stuck(oob), W(0, 1))).toEqual({ kind: 'unsafe', stuck: oob });
    const race: Stuck = { kind: 'data-race', func: 'f', point: [0], loopVar: 'f.s0.x', iterations: [0, 1], access: ['write', 'write'], site };
    expect(isConfluent(compareOutputs(alg([1]), stuck(race), W(0, 1)))).toBe(false);
    const ctl: Stuck = { kind: 'error-in-control', what: 'if condition', value: E_MEM, site };
    expect(compareOutputs(alg([1]), stuck(ctl), W(0, 1)).kind).toBe('unsafe');
    // an error in control is excused when the algorithm's window has an error value
    expect(compareOutputs(alg([E_RDOM]), stuck(ctl), W(0, 1)).kind).toBe('vacuous-alg-error');
  });

  it("[VERDICT-ALG-ERROR-ELSEWHERE] the algorithm's ε_rdom met outside the window", () => {
    const ctl: Stuck = { kind: 'error-in-control', what: 'if condition', value: E_RDOM, site };
    expect(compareOutputs(alg([1]), stuck(ctl), W(0, 1))).toEqual({ kind: 'vacuous-alg-error-elsewhere', stuck: ctl });
    const oob: Stuck = { kind: 'oob-write', func: 'f', point: [E_RDOM], bounds: [[0, 3]], site };
    expect(compareOutputs(alg([1]), stuck(oob), W(0, 1))).toEqual({ kind: 'vacuous-alg-error-elsewhere', stuck: oob });
  });

  it('[VERDICT-WINDOW] an output buffer that misses a window point', () => {
    expect(compareOutputs(alg([1, 2, 3]), done(0, [1, 2]), W(0, 3))).toEqual({ kind: 'window-not-covered', point: [2], bounds: [[0, 2]] });
  });

  it('[VERDICT-BUDGET] a run out of steps gives no verdict', () => {
    const v = compareOutputs(alg([1]), stuck({ kind: 'budget-exceeded', steps: 5 }), W(0, 1));
    expect(v.kind).toBe('inconclusive');
    expect(isConfluent(v)).toBeUndefined();
  });

  it('walks multi-dimensional windows first dimension fastest, as the buffer is laid out', () => {
    const r: Realization = { func: 'f', window: [[0, 2], [0, 2]], values: [1, 2, 3, 4] };
    const buf = (data: Value[]): Outcome => ({ kind: 'done', output: { func: 'f', dims: [{ dim: 'x', min: 0, len: 2 }, { dim: 'y', min: -1, len: 3 }], data }, steps: 1 });
    expect(compareOutputs(r, buf([0, 0, 1, 2, 3, 4]), [[0, 2], [0, 2]])).toEqual({ kind: 'equal' });
    expect(compareOutputs(r, buf([0, 0, 1, 2, 4, 3]), [[0, 2], [0, 2]])).toMatchObject({ kind: 'differs', point: [0, 1] });
  });

  it('prints each verdict with its rule ID', () => {
    const vs: Verdict[] = [{ kind: 'equal' }, { kind: 'differs', point: [1, 2], expected: 3, actual: E_MEM }];
    expect(vs.map(showVerdict)).toEqual([
      '[VERDICT-EQUAL] equal: the target agrees with the algorithm on the whole window',
      '[VERDICT-DIFFERS] differs at (1, 2): algorithm 3, target ε_mem',
    ]);
  });
});

describe('the §2.2 example end to end', () => {
  const p = loadPipeline(example('sec22.alg'), 'sec22.alg');
  const t = lower(p);
  const bounds = (gLen: string, fLen = 'x.len', fCpuLen = fLen) => fillByHand(t, {
    '?mem.min(g.x)': 'x.min', '?mem.len(g.x)': gLen, '?cpu.min(g.x)': 'x.min', '?cpu.len(g.x)': 'x.len + 1',
    '?mem.min(f.x)': 'x.min', '?mem.len(f.x)': fLen, '?cpu.min(f.x)': 'x.min', '?cpu.len(f.x)': fCpuLen,
  });

  it("the text's bounds (g on [x.min, x.len + 1]) are confluent on both executors (lemma 2.12)", () => {
    for (const executor of ['fast', 'machine'] as const) {
      for (const w of [[0, 6], [-3, 5], [4, 0]] as [number, number][]) {
        expect(verdictFor(p, bounds('x.len + 1'), input([w]), { executor })).toEqual({ kind: 'equal' });
      }
    }
  });

  it('an over-allocation of g (2·x.len) is still fine', () => {
    expect(verdictFor(p, bounds('2 * x.len + 1'), input([[0, 6]]))).toEqual({ kind: 'equal' });
  });

  it('g allocated on [x.min, x.len − 1] writes out of bounds: unsafe', () => {
    const v = verdictFor(p, bounds('x.len - 1'), input([[0, 6]]));
    expect(v).toMatchObject({ kind: 'unsafe', stuck: { kind: 'oob-write', func: 'g', point: [5] } });
  });

  it('f computed on one point too few: the last window point is uninitialized', () => {
    expect(verdictFor(p, bounds('x.len + 1', 'x.len', 'x.len - 1'), input([[0, 6]]))).toEqual({ kind: 'differs', point: [5], expected: 61, actual: E_MEM });
  });

  it('f allocated on one point too few: the window is not covered', () => {
    expect(verdictFor(p, bounds('x.len + 1', 'x.len - 1'), input([[0, 6]]))).toMatchObject({ kind: 'window-not-covered', point: [5] });
  });
});

describe('vacuous cases end to end', () => {
  it('a negative rdom extent: the target gets stuck and the algorithm has ε_rdom', () => {
    const p = loadPipeline(example('negative_extent.alg'), 'negative_extent.alg');
    expect(negativeRdom(p, new Map([['n', 2]]))).toBe('f.s1.r');
    expect(negativeRdom(p, new Map([['n', 3]]))).toBeUndefined();
    const t = fillByHand(lower(p), { '?mem.min(f.x)': 'x.min', '?mem.len(f.x)': 'x.len', '?cpu.min(f.x@s0)': 'x.min', '?cpu.len(f.x@s0)': 'x.len' });
    expect(verdictFor(p, t, input([[0, 4]], { n: 2 }))).toMatchObject({ kind: 'vacuous-rdom', rdom: 'f.s1.r', stuck: { kind: 'rdom-failure' } });
    expect(verdictFor(p, t, input([[0, 4]], { n: 2 }), { executor: 'machine' }).kind).toBe('vacuous-rdom');
  });

  it('an assertion inserted by a completion may fail', () => {
    const p = loadPipeline('pipeline f() { func f(x) = x; }', 'f.alg');
    const t = tgt(`pipeline f(; x in (x.min, x.len)): {
      allocate f(x in (x.min, x.len)); assert x.len < 3;
      label f: label f.s0: for f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x }`);
    expect(verdictFor(p, t, input([[0, 2]]))).toEqual({ kind: 'equal' });
    expect(verdictFor(p, t, input([[0, 5]])).kind).toBe('vacuous-assertion');
  });
});

describe('a gap in the bounds query (docs/proofs/lowering.md, gap 3)', () => {
  it('an update that reads nothing of its previous stage still needs that stage computed where its predicate is false', () => {
    const p = loadPipeline('pipeline f() { func f(x) { x; (x) <- 5 if x > 3; } }', 'gap.alg');
    const t = lower(p);
    const fill = (s0: string) => fillByHand(t, {
      '?mem.min(f.x)': 'x.min', '?mem.len(f.x)': 'x.len', '?cpu.min(f.x)': 'x.min', '?cpu.len(f.x)': 'x.len',
      '?cpu.min(f.x@s0)': 'x.min', '?cpu.len(f.x@s0)': s0,
    });
    // Nothing reads f@s0, so fig. 2.10's query does not constrain its compute box.
    expect(verdictFor(p, fill('0'), input([[0, 6]]))).toEqual({ kind: 'differs', point: [0], expected: 0, actual: E_MEM });
    expect(verdictFor(p, fill('x.len'), input([[0, 6]]))).toEqual({ kind: 'equal' });
  });
});
