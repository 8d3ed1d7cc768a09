// Theorems 4.1–4.4 and the exact-count, empty-heap and peak-memory claims on generated programs,
// under every configuration (docs/proofs/perceus.md links each theorem to this property).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbLambdaProgram } from '../../src/perceus/arbitrary.js';
import { CONFIGS, annotate, perceusProperty } from '../../src/perceus/pipeline.js';
import { printProgram } from '../../src/perceus/print.js';
import { eraseProgram } from '../../src/perceus/syntax.js';
import { loadProgram } from '../../src/perceus/scope.js';
import { rulesFired } from '../../src/perceus/rules-fired.js';
import { rulesOfChapter } from '../../src/rules/rule-index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

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

  it('generated programs reach every rule of the chapter that a run can fire', () => {
    // Not fired by a run: default branches and nested patterns are expanded by the front end,
    // the statistics and peak-live sections define measurements, and the check budget limits the
    // checks, not the machine.
    const notRun = new Set(['DEFAULT-BRANCH', 'NESTED-PATTERN', 'RC-COST', 'PEAK-LIVE', 'RC-CHECK-BUDGET']);
    const rules = rulesOfChapter(readFileSync(join(__dirname, '..', '..', 'spec', 'perceus.md'), 'utf8'), 'spec/perceus.md').map((r) => r.id).filter((id) => !notRun.has(id));
    const fired = new Set<string>();
    for (const src of fc.sample(arbLambdaProgram(60), { seed: 11, numRuns: 40 })) for (const r of rulesFired(loadProgram(src, 'gen.lam')).keys()) fired.add(r);
    expect(rules.filter((r) => !fired.has(r))).toEqual([]);
    expect(rules.length).toBeGreaterThan(50);
  });

  it('the generator makes the shapes the rules need: 3–5 fields, permuted rebuilds, lambdas in reuse branches, borrowed captures, unused bindings, deep sharing', () => {
    const srcs = fc.sample(arbLambdaProgram(60), { seed: 3, numRuns: 60 }).join('\n');
    expect(srcs).toMatch(/Five\(q0, q1, q2, q3, q4\) ->/);
    // A rebuild of the same constructor whose first field comes from another position.
    expect(srcs).toMatch(/(Two|Four|Five)\(q0, [^)]*\) -> \1\((tw\()?q[1-9]/);
    expect(srcs).toMatch(/-> \{ val f\d* = \\x\d* -> (Two|Pat|Four|Five)\(/);
    expect(srcs).toMatch(/val f\d+ = \\x\d+ -> x\d+ \+ (len|tsum)\(/);
    expect(srcs).toMatch(/val u\d+ = /);
    expect(srcs).toMatch(/Four\((sh\d+), 1, 2, Pat\(3, \1, \1\)\)/);
  });
});
