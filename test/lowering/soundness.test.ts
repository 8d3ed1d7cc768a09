// Lemma 2.12 (lowering is sound): a correct completion of 𝓛(P) agrees with P on the window, unless
// def. 2.3 excuses it — checked with both executors on generated pipelines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { lower } from '../../src/lowering/lower.js';
import { type Verdict, isConfluent, showVerdict, verdictFor } from '../../src/lowering/equivalence.js';
import { fillHoles } from '../../src/target-semantics/holes.js';
import { printPipeline } from '../../src/alg-semantics/print.js';
import { demandBounds } from './demand-bounds.js';

const cases = arbPipeline().chain((p) => fc.tuple(fc.constant(p), arbInput(p), fc.nat(1000)));

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
      { numRuns: 1500, seed: 2012 },
    );
    console.log(Object.fromEntries(kinds));
    // Most cases must be real comparisons, not excused ones.
    expect(kinds.get('equal') ?? 0).toBeGreaterThan(1500);
  });
});
