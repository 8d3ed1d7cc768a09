// `explain --depth` bounds the work: below the depth, a func whose definition is whole is not
// derived but valued by the fast evaluator. The property: the bounded derivation concludes with
// the same value as the whole one, at every depth. Regression: a first version also cut lookups
// inside update stages, where the func has only its earlier stages, and gave the final value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivePoint, foldRepeats, showDerivation } from '../../src/alg-semantics/spec-eval.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import type { Value } from '../../src/expr/value.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { example } from '../support/files.js';

describe('derivations bounded by depth', () => {
  it('property: at every depth the bounded derivation has the whole derivation’s value', () => {
    let compared = 0;
    fc.assert(
      fc.property(
        arbPipeline({ maxDims: 2, exprDepth: 1 }).chain((p) => fc.tuple(fc.constant(p), arbInput(p), fc.integer({ min: 1, max: 5 }))),
        ([p, z, depth]) => {
          const out = p.funcs.find((f) => f.name === p.output)!;
          const point: Value[] = z.window.map(([m]) => m);
          if (point.length !== out.vars.length) return;
          const whole = derivePoint(p, z.params, p.output, point, 20_000);
          if (whole.kind === 'budget') return;
          const cut = derivePoint(p, z.params, p.output, point, 20_000, depth);
          expect(cut.kind).toBe('value');
          if (cut.kind === 'value') expect(cut.value).toEqual(whole.value);
          compared++;
        },
      ),
      { numRuns: 400, seed: 11 },
    );
    expect(compared).toBeGreaterThan(200);
  });

  it('a scan reads its func as the earlier stages left it, also below the depth', () => {
    const p = loadPipeline('pipeline sum(n) { func sum(x) { x + 1; rdom(r = (1, n - 1)) in (r) <- sum(r - 1) + sum(r); } }', 'scan.alg');
    const params = new Map([['n', 2]]);
    const whole = derivePoint(p, params, 'sum', [1]);
    const cut = derivePoint(p, params, 'sum', [1], undefined, 2);
    expect(whole.kind === 'value' && cut.kind === 'value' && cut.value === whole.value).toBe(true);
  });

  it('on the histogram the work shrinks with the depth (its own update chain is still derived)', () => {
    const p = loadPipeline(example('histogram.alg'), 'histogram.alg');
    const whole = derivePoint(p, new Map(), 'hist', [2]);
    const cut = derivePoint(p, new Map(), 'hist', [2], undefined, 2);
    expect(whole.kind).toBe('value');
    expect(cut.kind).toBe('value');
    expect(cut.steps).toBeLessThan(whole.steps * 0.6);
  });
});

describe('folding repeated sub-derivations', () => {
  const p = loadPipeline('pipeline f() { func g(x) = x * x; func f(x) = g(x) + g(x); }', 'rep.alg');

  it('the second identical sub-derivation refers to the first', () => {
    const r = derivePoint(p, new Map(), 'f', [2]);
    if (r.kind !== 'value') throw new Error('budget');
    const lines = showDerivation(r.tree).split('\n');
    expect(lines[3]).toBe('      [FUNC-EVAL] g(2) ⇓ 4');
    expect(lines.at(-1)).toBe('      [FUNC-EVAL] g(2) ⇓ 4   (same as line 4)');
    expect(lines.filter((l) => l.includes('[OP-EVAL] 2 * 2'))).toHaveLength(1);
  });

  it('folds a chain of doubled sub-derivations to a size linear in its depth', () => {
    type N = { text: string; children: N[] };
    let n: N = { text: '0', children: [] };
    for (let i = 1; i <= 40; i++) n = { text: `x${i}`, children: [n, n] };
    const count = (x: { children: readonly unknown[] }): number => 1 + (x.children as { children: readonly unknown[] }[]).reduce((a, c) => a + count(c), 0);
    expect(count(foldRepeats(n, () => 'R'))).toBe(81);
  });
});
