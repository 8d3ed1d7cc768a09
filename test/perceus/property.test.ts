// Theorems 4.1–4.4 and the exact-count, empty-heap and peak-memory claims on generated programs,
// under every configuration (docs/proofs/perceus.md links each theorem to this property).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbLambdaProgram } from '../../src/perceus/arbitrary.js';
import { CONFIGS, annotate, perceusProperty } from '../../src/perceus/pipeline.js';
import { printProgram } from '../../src/perceus/print.js';
import { eraseProgram } from '../../src/perceus/syntax.js';
import { loadProgram } from '../../src/perceus/scope.js';

describe('perceus property on generated programs', () => {
  it('generated programs parse, are well scoped and satisfy every theorem under every configuration', () => {
    fc.assert(
      fc.property(arbLambdaProgram(), (src) => {
        const v = perceusProperty(loadProgram(src, 'gen.lam'));
        if (!v.ok) throw new Error(`${v.config}: ${v.check}: ${v.message}\n${src}`);
      }),
      { seed: 4242, numRuns: 150 },
    );
  });

  it('every Perceus configuration only inserts instructions: its erasure is the input (§4.3.2)', () => {
    fc.assert(
      fc.property(arbLambdaProgram(), (src) => {
        const core = loadProgram(src, 'gen.lam');
        for (const c of CONFIGS) if (!c.scoped) expect(printProgram(eraseProgram(annotate(core, c))), c.name).toBe(printProgram(core));
      }),
      { seed: 99, numRuns: 60 },
    );
  });

  it('the generator is not vacuous: programs allocate and most finish', () => {
    let ran = 0;
    fc.assert(
      fc.property(arbLambdaProgram(), (src) => {
        const v = perceusProperty(loadProgram(src, 'gen.lam'));
        if (v.stats['perceus'] && v.stats['perceus'].allocs > 0) ran++;
      }),
      { seed: 7, numRuns: 40 },
    );
    expect(ran).toBeGreaterThan(30);
  });
});
