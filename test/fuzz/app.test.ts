// App-shaped pipelines: every blueprint decodes to a valid algorithm whose printed form parses
// back, every stage kind occurs, and order-sensitive kinds really depend on reduction order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPipeline } from '../../src/alg-semantics/validate.js';
import { parsePipeline } from '../../src/alg-semantics/parse.js';
import { printPipeline } from '../../src/alg-semantics/print.js';
import { STAGE_KINDS, arbAppB, kindOf } from '../../src/fuzz/gen/app.js';
import { arbAlgorithmB, decodeAlgorithm, isApp } from '../../src/fuzz/gen/algorithm.js';
import { DEFAULT_GEN, arbInputB, decodeInput } from '../../src/fuzz/gen/pipeline.js';
import { realize } from '../../src/alg-semantics/fast-eval.js';

const o = { ...DEFAULT_GEN, app: { share: 100, maxFuncs: 16 } };

describe('app-shaped pipelines', () => {
  it('decode to valid pipelines that print and parse back', () => {
    fc.assert(fc.property(arbAlgorithmB(o), (b) => {
      const p = decodeAlgorithm(b, o);
      expect(checkPipeline(p).map((e) => e.message)).toEqual([]);
      expect(printPipeline(parsePipeline(printPipeline(p), 'x'))).toBe(printPipeline(p));
    }), { numRuns: 300 });
  });

  it('have up to the maximum number of funcs and use every stage kind', () => {
    const kinds = new Set<string>();
    let big = 0;
    const samples = fc.sample(arbAppB({ maxFuncs: 16 }, false), { numRuns: 400, seed: 4 });
    for (const b of samples) {
      for (const s of b.stages) kinds.add(kindOf(b, s));
      const n = decodeAlgorithm(b, o).funcs.length;
      expect(n).toBeLessThanOrEqual(16);
      if (n >= 4) big++;
    }
    expect([...kinds].sort()).toEqual([...STAGE_KINDS].sort());
    expect(big / samples.length).toBeGreaterThan(0.7);
  });

  it('evaluate on their inputs within the campaign step budget most of the time', () => {
    let ok = 0;
    const samples = fc.sample(fc.tuple(arbAlgorithmB(o), arbInputB()), { numRuns: 100, seed: 9 });
    for (const [b, z] of samples) {
      expect(isApp(b)).toBe(true);
      const p = decodeAlgorithm(b, o);
      try {
        realize(p, decodeInput(z, p), { maxSteps: 200_000 });
        ok++;
      } catch {
        // over the budget
      }
    }
    expect(ok / samples.length).toBeGreaterThan(0.9);
  });

  it('with swarm testing, keep to the subset of kinds each pipeline drew', () => {
    for (const b of fc.sample(arbAppB({ maxFuncs: 8 }, true), { numRuns: 200, seed: 2 })) {
      for (const s of b.stages) expect((b.kinds! >> STAGE_KINDS.indexOf(kindOf(b, s))) & 1).toBe(1);
    }
  });
});
