// Big-step semantics (fig. 2.6): each rule on small programs, in both evaluators, and the
// property that the fast evaluator agrees with the spec evaluator on generated valid programs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Input, Pipeline } from '../../src/alg-semantics/ast.js';
import { makePointEvaluator, realize, realizationJson } from '../../src/alg-semantics/fast-eval.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { type Derivation, derivePoint, realizeSpec } from '../../src/alg-semantics/spec-eval.js';
import { E_MEM, E_RDOM, type Int, type Value } from '../../src/expr/value.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { userError } from '../support/errors.js';
import { example } from '../support/files.js';

const load = (src: string) => loadPipeline(src, 't.alg');
const input = (window: [Int, Int][], params: Record<string, Int> = {}): Input => ({ window, params: new Map(Object.entries(params)) });

/** Both evaluators over a window; asserts they agree and returns the values. */
function both(p: Pipeline, z: Input): Value[] {
  const fast = realize(p, z).values;
  const spec = realizeSpec(p, z);
  expect(spec.kind).toBe('value');
  if (spec.kind === 'value') expect(spec.values).toEqual(fast);
  return fast;
}

function rules(t: Derivation, out = new Set<string>()): Set<string> {
  out.add(t.rule);
  t.children.forEach((c) => rules(c, out));
  return out;
}

describe('rules of fig. 2.6', () => {
  it('[FUNC-EVAL] [OP-EVAL] [CONST-EVAL] [FUNC-ARG-EVAL]: the §2.2 pipeline', () => {
    const p = load(example('sec22.alg'));
    expect(both(p, input([[-2, 5]]))).toEqual([5, 1, 1, 5, 13]); // (x)² + (x+1)²
    const d = derivePoint(p, new Map(), 'f', [2]);
    expect(d.kind === 'value' && [...rules(d.tree)].sort()).toEqual(['CONST-EVAL', 'FUNC-ARG-EVAL', 'FUNC-EVAL', 'OP-EVAL', 'REALIZE']);
  });

  it('[FUNC-SKIP] passes over funcs defined after the one looked up', () => {
    const p = load('pipeline h() { func g(x) = x + 10; func f(x) = 0; func h(x) = g(x); }');
    const d = derivePoint(p, new Map(), 'g', [1]);
    expect(d.kind === 'value' && d.tree.rule).toBe('FUNC-SKIP');
    expect(d.kind === 'value' && d.value).toBe(11);
  });

  it('[UPDATE-EVAL] replaces the value only at the updated point', () => {
    const p = load('pipeline f() { func f(x) { x; (3) <- 100; } }');
    expect(both(p, input([[1, 4]]))).toEqual([1, 2, 100, 4]);
  });

  it('[UPDATE-EVAL] evaluates e_b and e_p even where the update does not apply (no short-circuit)', () => {
    // The update writes only f(0), but its value is an error at every point looked up.
    const p = load('pipeline f() { func f(x) { x; (0) <- err.rdom if 0; } }');
    expect(both(p, input([[0, 3]]))).toEqual([E_RDOM, E_RDOM, E_RDOM]);
    const q = load('pipeline f() { func f(x) { x; (0) <- 5 if err.mem; } }');
    expect(both(q, input([[0, 2]]))).toEqual([E_MEM, E_MEM]);
  });

  it('[RDOM-EVAL] unrolls with r_1 innermost: the last write wins', () => {
    const p = load('pipeline f() { func f(x) { 0; rdom(i = (0, 2), j = (0, 3)) in (0) <- i * 10 + j; } }');
    expect(both(p, input([[0, 1]]))).toEqual([12]); // last iteration: j = 2 (outer), i = 1 (inner)
    const q = load('pipeline f() { func f(x) { 0; rdom(i = (0, 3), j = (0, 2)) in (0) <- f(0) * 10 + i + 1; } }');
    expect(both(q, input([[0, 1]]))).toEqual([123123]);
  });

  it('[RDOM-EVAL] with a zero extent leaves the func unchanged', () => {
    const p = load('pipeline f(n) { func f(x) { x; rdom(r = (0, n)) in (r) <- 7; } }');
    expect(both(p, input([[0, 3]], { n: 0 }))).toEqual([0, 1, 2]);
    expect(both(p, input([[0, 3]], { n: 2 }))).toEqual([7, 7, 2]);
  });

  it('[RDOM-ERR] makes every lookup ε_rdom when any extent is negative, even if another is 0', () => {
    const p = load(example('negative_extent.alg'));
    expect(both(p, input([[0, 3]], { n: 2 }))).toEqual([E_RDOM, E_RDOM, E_RDOM]);
    const q = load('pipeline f() { func f(x) { x; rdom(r = (0, 0), s = (0, -1)) in (r) <- 7; } }');
    expect(both(q, input([[0, 2]]))).toEqual([E_RDOM, E_RDOM]);
    const d = derivePoint(q, new Map(), 'f', [0]);
    expect(d.kind === 'value' && d.tree.children[0]!.rule).toBe('RDOM-ERR');
  });

  it('[RDOM-ERR] reaches later stages and other funcs through def. 2.6', () => {
    const p = load('pipeline h() { func f(x) { x; rdom(r = (0, -2)) in (r) <- 7; (x) <- f(x) + 1; } func h(x) = f(x) * 0; }');
    expect(both(p, input([[0, 2]]))).toEqual([E_RDOM, E_RDOM]);
  });

  it('an error value as an access argument is substituted like any constant (FUNC-EVAL)', () => {
    const p = load('pipeline f() { func g(x) = 5; func h(x) = x; func f(x) = g(err.rdom) + h(x); }');
    expect(both(p, input([[0, 2]]))).toEqual([5, 6]);
  });

  it('histogram, prefix sum, 2-D rdom with predicate, blur and parameters', () => {
    expect(both(load(example('histogram.alg')), input([[0, 4]]))).toEqual(histogram());
    expect(both(load(example('prefix_sum.alg')), input([[0, 6]], { n: 5 }))).toEqual([1, 3, 6, 10, 15, 6]);
    expect(both(load(example('triangle.alg')), input([[0, 7]]))).toEqual([0, 1, 1, 2, 1, 1, 0]);
    expect(both(load(example('params.alg')), input([[-1, 3], [0, 2]], { a: 2, b: 3, hi: 5 }))).toEqual([0, 0, 2, 1, 3, 5]);
    expect(realize(load(example('blur.alg')), input([[0, 3], [0, 2]])).values).toEqual(blur(0, 3, 0, 2));
  });

  it('long scans stay fast: a prefix sum over 20,000 points (too many for the spec evaluator)', () => {
    const r = realize(load(example('prefix_sum.alg')), input([[19_990, 10]], { n: 20_000 }));
    expect(r.values).toEqual(Array.from({ length: 10 }, (_, i) => ((19_991 + i) * (19_992 + i)) / 2));
  });

  it('integers stay exact beyond 2^53', () => {
    const p = load('pipeline f() { func f(x) = 9007199254740993 * 3 + x; }');
    const r = realize(p, input([[0, 1]]));
    expect(r.values).toEqual([27021597764222979n]);
    expect(realizationJson(r).values).toEqual(['27021597764222979']);
  });
});

function histogram(): number[] {
  const bins = [0, 0, 0, 0];
  for (let i = 0; i < 10; i++) bins[((i * i + 3) % 7) % 4]!++;
  return bins;
}

function blur(x0: number, w: number, y0: number, h: number): number[] {
  const input = (x: number, y: number) => (((x * 7 + y * 13) % 256) + 256) % 256;
  const d3 = (v: number) => Math.floor(v / 3);
  const bx = (x: number, y: number) => d3(input(x - 1, y) + input(x, y) + input(x + 1, y));
  const out: number[] = [];
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) out.push(d3(bx(x, y - 1) + bx(x, y) + bx(x, y + 1)));
  return out;
}

describe('evaluator plumbing', () => {
  it('makePointEvaluator memoizes and evaluates any func', () => {
    const ev = makePointEvaluator(load(example('sec22.alg')), new Map());
    expect(ev('g', [7])).toBe(49);
    expect(ev('f', [3])).toBe(25);
  });

  it('checkInput rejects bad windows and parameters', () => {
    const p = load(example('prefix_sum.alg'));
    expect(userError(() => realize(p, input([[0, 2], [0, 2]], { n: 1 }))).message).toContain('the window has 2 dimensions');
    expect(userError(() => realize(p, input([[0, 2]]))).message).toContain("parameter 'n' is not given");
    expect(userError(() => realize(p, input([[0, 2]], { n: 1, m: 2 }))).message).toContain("'m' is not a parameter");
    expect(userError(() => realize(p, input([[0, 20_000_000]], { n: 1 }))).message).toContain('more than the limit of 10000000');
  });

  it('the spec evaluator reports an exhausted budget instead of running on', () => {
    const p = load(example('triangle.alg'));
    expect(derivePoint(p, new Map(), 'f', [3], 1000)).toEqual({ kind: 'budget', steps: 1000 });
  });

  it('the fast evaluator stops at its step limit with a UserError', () => {
    const p = load('pipeline f() { func f(x) { 0; rdom(r = (0, 1000), s = (0, 1000)) in (0) <- f(0) + 1; } }');
    expect(userError(() => realize(p, input([[0, 1]]), { maxSteps: 10_000 })).message).toContain('more than the step limit 10000');
  });
});

describe('fast evaluator = spec evaluator', () => {
  it('agrees on generated valid programs (where the spec evaluator fits its budget)', () => {
    let compared = 0;
    let withErrors = 0;
    let withUpdates = 0;
    fc.assert(
      fc.property(arbPipeline({ maxDims: 2, maxRVars: 1 }).chain((p) => fc.tuple(fc.constant(p), arbInput(p, { maxWindowLen: 2 }))), ([p, z]) => {
        const spec = realizeSpec(p, z, 20_000);
        if (spec.kind === 'budget') return;
        compared++;
        if (spec.values.includes(E_RDOM)) withErrors++;
        if (p.funcs.some((f) => f.stages.length > 1)) withUpdates++;
        expect(realize(p, z).values).toEqual(spec.values);
      }),
      { numRuns: 600, seed: 26 },
    );
    // The comparison is meaningful: most cases fit the budget, and they exercise updates and errors.
    expect(compared).toBeGreaterThan(300);
    expect(withUpdates).toBeGreaterThan(100);
    expect(withErrors).toBeGreaterThan(10);
  });
});
