// Rule coverage: the tally of printed rule IDs, and `refsem coverage` on a small tour.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleTally, showCoverage } from '../../src/rules/coverage.js';
import { runCli } from '../support/cli.js';
import { examplesDir } from '../support/files.js';

describe('ruleTally', () => {
  const rules = [
    { id: 'A-ONE', chapter: 'spec/a.md' },
    { id: 'B-TWO', chapter: 'spec/b.md' },
  ];

  it('counts bracketed IDs of spec rules only, and reports those never printed', () => {
    const tally = ruleTally(rules);
    for (const t of ['[A-ONE] x [A-ONE]', '[NOT-A-RULE] A-ONE without brackets']) tally.add(t);
    const rep = tally.report();
    expect(rep.rules).toEqual([
      { id: 'A-ONE', chapter: 'spec/a.md', fired: 2 },
      { id: 'B-TWO', chapter: 'spec/b.md', fired: 0 },
    ]);
    expect(rep.fired).toBe(1);
    expect(showCoverage(rep)).toBe('1 of 2 rules fired\n\nspec/a.md: 1 of 1\n  fired: A-ONE ×2\n\nspec/b.md: 0 of 1\n  never: B-TWO\n');
  });
});

describe('refsem coverage', () => {
  it('on §2.2 with its schedule: the directives, query, engine and machine rules fire; validity rules do not', async () => {
    const r = await runCli(['coverage', `${examplesDir}/sec22.alg`, `${examplesDir}/sec22.sched`, '--json']);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout) as { fired: number; total: number; rules: Record<string, number> };
    for (const id of ['SPLIT', 'B-LET', 'BETA0-LET', 'BETA1-GUARD', 'LOWER-PURE', 'FUNC-EVAL', 'FOR-ITER', 'OP-ADD']) expect(rep.rules[id], id).toBeGreaterThan(0);
    // a valid program never triggers a validity rejection, and no λ1 program was in the tour
    expect(rep.rules['VALID-NAMES']).toBe(0);
    expect(rep.rules['STD-EVAL']).toBe(0);
    expect(rep.fired).toBeLessThan(rep.total);
  });

  it('the default tour runs the tour schedules after their algorithm, and they fire refusals as well as directives', async () => {
    // It once paired each algorithm with one schedule only: 6 schedule rules fired, no refusal.
    const { bundledExamples } = await import('../../src/cli/commands/coverage.js');
    const files = bundledExamples().map((f) => relative(examplesDir, f));
    const tour = readdirSync(join(examplesDir, 'tour')).filter((f) => f.startsWith('sec22.')).map((f) => `tour/${f}`);
    expect(tour.length).toBeGreaterThan(10);
    expect(files.slice(files.indexOf('sec22.alg'), files.indexOf('sec22.alg') + 2 + tour.length)).toEqual(['sec22.alg', 'sec22.sched', ...tour.sort()]);
    const r = await runCli(['coverage', `${examplesDir}/sec22.alg`, ...tour.map((f) => join(examplesDir, f)), '--json']);
    const rep = JSON.parse(r.stdout) as { rules: Record<string, number> };
    // [TRAVERSE-DISJOINT] refuses only a plug-in's overlapping update loop: no built-in schedule reaches it.
    const refusals = ['SCHED-PHASE', 'SCHED-FUNC', 'SCHED-LOOP', 'SCHED-FRESH', 'VECTORIZE-EXTENT', 'COMPUTE-AT-OWN', 'COMPUTE-AT-OUTPUT', 'COMPUTE-AT-PARALLEL', 'INLINE-OUTPUT', 'INLINE-NEST', 'STORE-AT-DOMINANCE', 'STORE-AT-OWN', 'STORE-AT-ONCE'];
    for (const id of [...refusals, 'SPLIT', 'UNROLL', 'INLINE', 'VECTORIZE', 'BOUND', 'COMPUTE-AT', 'STORE-AT']) expect(rep.rules[id], id).toBeGreaterThan(0);
  });

  it('refuses a schedule that follows no algorithm, and files of other kinds', async () => {
    const a = await runCli(['coverage', `${examplesDir}/sec22.sched`]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('does not follow an algorithm');
    const b = await runCli(['coverage', `${examplesDir}/../README.md`]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('coverage takes .alg, .sched, .tgt and .lam files');
  });
});

describe('refsem fuzz --coverage', () => {
  it('keeps no trace text: the tour hands each printed text to the tally as it is printed', async () => {
    // The coverage of a race-free and confluence campaign once exhausted node's heap: the tour
    // collected every text its runs printed (1.5 G characters for 200 cases) before tallying.
    const { tourTraces } = await import('../../src/cli/rule-tour.js');
    const { main } = await import('../../src/cli/main.js');
    let texts = 0;
    let duringRun = false;
    const done = tourTraces([{ file: `${examplesDir}/sec22.alg` }], main, () => {
      texts++;
      duringRun = true;
    });
    expect(await done).toBeUndefined();
    expect(duringRun && texts).toBeGreaterThan(1);
  }, 60_000);

  it("runs the campaign's first cases through the traced evaluators and reports the rules they fire", async () => {
    const { scratchDir } = await import('../support/files.js');
    // Few cases: app-sized pipelines traced rule by rule take seconds each.
    const r = await runCli(['fuzz', '--runs', '4', '--seed', '3', '--jobs', '1', '--out', scratchDir('refsem-fuzz-cov-'), '--coverage']);
    expect(r.stdout).toMatch(/rule coverage of the campaign's first 4 cases:\n\d+ of \d+ rules fired/);
    expect(r.stdout).toMatch(/spec\/target\.md: \d+ of \d+\n  fired: .*FOR-ITER ×\d+/);
  }, 120_000);
});
