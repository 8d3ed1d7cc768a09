// The mutants of `npm run mutants`: every planted snippet is still in the build (the list follows
// the code), and the machinery plants a mutant in a scratch copy and sees a campaign kill it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../src/fuzz/mutants/list.js';
import { runMutant, selectMutants } from '../../src/fuzz/mutants/run.js';

const dist = join(__dirname, '..', '..', 'dist');
const built = existsSync(join(dist, 'fuzz', 'mutants', 'run.js'));

describe('mutants', () => {
  it('are at least 45, with distinct ids, across the core', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(45);
    expect(new Set(MUTANTS.map((m) => m.id)).size).toBe(MUTANTS.length);
    const folders = new Set(MUTANTS.map((m) => m.source.split('/')[1]));
    for (const f of ['expr', 'alg-semantics', 'target-semantics', 'lowering', 'schedule', 'bounds', 'codegen', 'fpir', 'halide']) expect(folders.has(f), f).toBe(true);
  });

  it.runIf(built)('each snippet occurs exactly once in the compiled module it patches', () => {
    for (const m of MUTANTS) {
      const text = readFileSync(join(dist, m.file), 'utf8');
      expect(text.split(m.find).length - 1, `${m.id} in dist/${m.file}`).toBe(1);
      expect(m.replace).not.toBe(m.find);
    }
  });

  it.runIf(built)('a planted mutant is killed by a campaign that can see it, in a scratch copy', () => {
    const r = runMutant(MUTANTS.find((m) => m.id === 'mod-js-sign')!, { campaign: ['--runs', '40', '--seed', '1', '--jobs', '1', '--property', 'operators'] });
    // the host's remainder shows in the table and in the intervals built on it, whichever comes first
    expect(r).toMatchObject({ id: 'mod-js-sign', outcome: 'killed', detail: expect.stringMatching(/^operators: (operator|interval)$/) });
    // The real build is untouched.
    expect(readFileSync(join(dist, 'expr', 'ops.js'), 'utf8')).toContain(MUTANTS.find((m) => m.id === 'mod-js-sign')!.find);
  }, 120_000);

  it.runIf(built)('the operators property checks the interval rules directly: a select whose interval forgets its else branch is killed', () => {
    // Regression: interval mistakes were seen only through whole pipelines, where a select's
    // condition spanning 0 and negative or spanning divisors almost never come up.
    const r = runMutant(MUTANTS.find((m) => m.id === 'interval-select-then-only')!, { campaign: ['--runs', '40', '--seed', '1', '--jobs', '1', '--property', 'operators'] });
    expect(r).toMatchObject({ id: 'interval-select-then-only', outcome: 'killed', detail: 'operators: interval' });
  }, 120_000);

  it.runIf(built)('sums that cross 2^53 from two safe operands are generated: a float sum that rounds there is killed', () => {
    // Regression: one case per check drew such a sum about once in a thousand checks.
    const r = runMutant(MUTANTS.find((m) => m.id === 'big-add-rounded')!, { campaign: ['--runs', '40', '--seed', '1', '--jobs', '1', '--property', 'operators'] });
    expect(r).toMatchObject({ id: 'big-add-rounded', outcome: 'killed', detail: 'operators: operator' });
  }, 120_000);

  it('names the mutants it knows when given an unknown one', () => {
    expect(() => selectMutants(['no-such-mutant'])).toThrow(/unknown mutants: no-such-mutant; the mutants are: mod-js-sign/);
  });
});
