// Regression: campaigns blamed a failure on the first directive after which it showed, so a race
// caused by a plug-in that marks a shift-split loop parallel, revealed only when a later built-in
// `bound` widened the loop, was filed under `bound` (and, as shrinking varied, under
// `align-bounds`): a separate failure for every built-in the plug-in's damage surfaced after.
// Now a built-in's failure goes to a plug-in of the schedule when leaving the plug-in out passes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck, schedulesWithout } from '../../src/fuzz/check.js';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';
import { checkSeed } from '../../src/fuzz/seed.js';
import { emptyStats } from '../../src/fuzz/stats.js';
import { examplesDir } from '../support/files.js';

const PARALLEL = join(examplesDir, 'directives', 'unsound-parallel.mjs');

describe('blame by cause in campaigns', () => {
  it('a race revealed by a built-in after a plug-in made the loop parallel is the plug-in\'s', async () => {
    const env = await makeEnv({ ...DEFAULT_CONFIG, directives: [PARALLEL] });
    const found = runCheck(propertyNamed('race-free'), env, 80, checkSeed(5, 80), emptyStats())!;
    expect(found.failure.verdict).toBe('data-race');
    expect(found.text.schedule).toMatch(/^parallel-any /m);
    expect(found.culprit).toBe('parallel-any');
    expect(found.key).toBe('race-free/directive:parallel-any');
  }, 120_000);

  it('the schedules without a directive: its calls removed, or cut before its first call', () => {
    expect(schedulesWithout('split f.x by 2\nmine f.xo\nbound f.x min 0 len 4', 'mine')).toEqual(['split f.x by 2\nbound f.x min 0 len 4', 'split f.x by 2']);
    expect(schedulesWithout('split f.x by 2', 'mine')).toEqual([]);
  });
});
