// Lemma 2.12 (lowering is sound): a correct completion of 𝓛(P) agrees with P on the window, unless
// def. 2.3 excuses it — checked with both executors on generated pipelines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { lower } from '../../src/lowering/lower.js';
import { type Verdict, isConfluent, showVerdict, verdictFor } from '../../src/lowering/equivalence.js';
import { fillHoles } from '../../src/target-semantics/holes.js';
import { printPipeline } from '../../src/alg-semantics/print.js';
import { cst } from '../../src/expr/ast.js';
import { sub } from '../../src/expr/ops.js';
import { demandBounds } from './demand-bounds.js';

const cases = arbPipeline({ maxDims: 2, exprDepth: 1 }).chain((p) => fc.tuple(fc.constant(p), arbInput(p, { maxWindowLen: 3 }), fc.nat(1000)));

describe('lemma 2.12 on generated pipelines', () => {
  it('demand-derived completions are confluent with the algorithm (fast executor and machine)', () => {
    const kinds = new Map<Verdict['kind'] | 'skipped', number>();
    const count = (k: Verdict['kind'] | 'skipped') => kinds.set(k, (kinds.get(k) ?? 0) + 1);
    fc.assert(
      fc.property(cases, ([p, input, seed]) => {
        const t = lower(p);
        const d = demandBounds(p, t, input);
        if (!d) return void count('skipped');
        const filled = fillHoles(t, d.gamma);
        for (const executor of ['fast', 'machine'] as const) {
          const v = verdictFor(p, filled, input, { executor, seed });
          if (isConfluent(v) !== true) throw new Error(`${executor}: ${showVerdict(v)}\n${printPipeline(p)}`);
          count(v.kind);
        }
      }),
      { numRuns: 800, seed: 2012 },
    );
    console.log(Object.fromEntries(kinds));
    // Most cases must be real comparisons, not excused ones.
    expect(kinds.get('equal') ?? 0).toBeGreaterThan(800);
  });

  it('without error constants or negative extents, every demand-derived completion gives equal outputs', () => {
    // Positive parameters keep extents written `p + k` (k ≥ 0) non-negative.
    const clean = arbPipeline({ maxDims: 2, exprDepth: 1, errorConstants: false, negativeExtents: false });
    let compared = 0;
    fc.assert(
      fc.property(clean.chain((p) => fc.tuple(fc.constant(p), arbInput(p, { maxWindowLen: 3, paramRange: [1, 4] }))), ([p, input]) => {
        const t = lower(p);
        const d = demandBounds(p, t, input);
        if (!d) return;
        const filled = fillHoles(t, d.gamma);
        for (const executor of ['fast', 'machine'] as const) {
          const v = verdictFor(p, filled, input, { executor });
          expect(v, showVerdict(v)).toEqual({ kind: 'equal' });
          compared++;
        }
      }),
      { numRuns: 600, seed: 512 },
    );
    expect(compared).toBeGreaterThan(600);
  });

  it('the check has teeth: an output allocation one point short of a non-empty window is never confluent', () => {
    const clean = arbPipeline({ maxDims: 2, exprDepth: 1, errorConstants: false, negativeExtents: false });
    const cases = clean.chain((p) => fc.tuple(fc.constant(p), arbInput(p, { maxWindowLen: 3, paramRange: [1, 4] }).filter((z) => z.window.every(([, l]) => l > 0))));
    fc.assert(
      fc.property(cases, ([p, input]) => {
        const t = lower(p);
        const d = demandBounds(p, t, input);
        if (!d) return;
        const [m, l] = input.window[0]!;
        const x = p.funcs.at(-1)!.vars[0]!;
        const gamma = new Map(d.gamma)
          .set(`?mem.min(${p.output}.${x})`, cst(m))
          .set(`?mem.len(${p.output}.${x})`, cst(sub(l, 1)));
        const v = verdictFor(p, fillHoles(t, gamma), input);
        expect(isConfluent(v), showVerdict(v)).toBe(false);
      }),
      { numRuns: 200, seed: 99 },
    );
  });
});
