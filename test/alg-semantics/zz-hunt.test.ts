import fc from 'fast-check';
import { it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { realize } from '../../src/alg-semantics/fast-eval.js';
import { printPipeline } from '../../src/alg-semantics/print.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';

it('hunt', () => {
  for (let seed = 0; seed < 40; seed++) {
    const r = fc.check(
      fc.property(arbPipeline({ maxDims: 2, selfCoords: true, exprDepth: 3 }).chain((p) => fc.tuple(fc.constant(p), arbInput(p))), ([p, z]) => {
        try { realize(p, z, { maxSteps: 200_000 }); } catch (e) { if (!(e instanceof UserError)) throw e; }
      }),
      { numRuns: 2000, seed },
    );
    if (r.failed) {
      console.log(seed, printPipeline(r.counterexample![0][0]), JSON.stringify(r.counterexample![0][1], (k, v) => typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v] : v), String(r.errorInstance));
      return;
    }
  }
});
