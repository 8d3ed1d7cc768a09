import fc from 'fast-check';
import { it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { realize } from '../../src/alg-semantics/fast-eval.js';
import { printPipeline } from '../../src/alg-semantics/print.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';

const cfgs = [
  { maxDims: 2, maxUpdates: 3, exprDepth: 3, selfCoords: true, maxFuncs: 2, extremeConstants: true },
  { maxDims: 1, maxUpdates: 3, exprDepth: 3, selfCoords: true, maxFuncs: 1, extremeConstants: true, maxExtent: 5 },
  { maxDims: 3, maxUpdates: 2, exprDepth: 3, selfCoords: true, maxFuncs: 2, extremeConstants: true },
];
it('hunt', () => {
  for (let seed = 200; seed < 230; seed++) {
    const cfg = cfgs[seed % cfgs.length]!;
    const r = fc.check(
      fc.property(arbPipeline(cfg).chain((p) => fc.tuple(fc.constant(p), arbInput(p, { maxLen: 5, paramRange: [-3, 9] }))), ([p, z]) => {
        try { realize(p, z, { maxSteps: 300_000 }); } catch (e) { if (!(e instanceof UserError)) throw e; }
      }),
      { numRuns: 1500, seed },
    );
    if (r.failed) {
      console.log(seed, printPipeline(r.counterexample![0][0]), JSON.stringify(r.counterexample![0][1], (k, v) => typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v] : v), String(r.errorInstance), (r.errorInstance as Error).stack);
      return;
    }
  }
});
