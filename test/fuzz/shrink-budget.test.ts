// Regression: a 5 s limit on every shrink made a campaign's reproducers depend on the machine's
// load. Under the load of the test suite, `fuzz --seed 5 --property race-free` with an unsound
// directive shrank check 80 to different schedules on different runs, blamed different directives,
// and with --jobs 2 merged it into another failure: --jobs 1 and --jobs 2 disagreed. In-process
// properties are now bounded by evaluations, with time only as a safety net that says when it
// ended a shrink.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPILED_SHRINK, DEFAULT_SHRINK, runCheck, shrinkBudgetOf } from '../../src/fuzz/check.js';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';
import { checkSeed } from '../../src/fuzz/seed.js';
import { emptyStats } from '../../src/fuzz/stats.js';
import { examplesDir } from '../support/files.js';

const PARALLEL = join(examplesDir, 'directives', 'unsound-parallel.mjs');

describe('shrink budgets', () => {
  it('in-process properties shrink by evaluations; compiling ones keep a tight time limit', () => {
    expect(shrinkBudgetOf(propertyNamed('race-free'))).toBe(DEFAULT_SHRINK);
    expect(shrinkBudgetOf(propertyNamed('backend'))).toBe(COMPILED_SHRINK);
    expect(DEFAULT_SHRINK.ms).toBeGreaterThanOrEqual(60_000);
  });

  it('a shrink ends the same whatever the time limit, unless the limit ends it, which the result says', async () => {
    const env = await makeEnv({ ...DEFAULT_CONFIG, directives: [PARALLEL] });
    const prop = propertyNamed('race-free');
    const run = (ms: number) => runCheck(prop, env, 1, checkSeed(1, 1), emptyStats(), { evaluations: 1000, ms });
    const normal = run(DEFAULT_SHRINK.ms)!;
    const unlimited = run(1e12)!;
    expect(normal.shrinkTimedOut).toBeUndefined();
    expect(normal.text).toEqual(unlimited.text);
    expect(normal.shrinks).toBeGreaterThan(0);
    const cut = run(-1)!;
    expect(cut.shrinkTimedOut).toBe(true);
    expect(cut.failure.verdict).toBe('data-race');
  }, 120_000);
});
