// Regression: campaigns blamed a failure on the first directive after which it showed, so a race
// caused by a plug-in that marks a shift-split loop parallel, revealed only when a later built-in
// `bound` widened the loop, was filed under `bound` (and, as shrinking varied, under
// `align-bounds`): a separate failure for every built-in the plug-in's damage surfaced after.
// Now a built-in's failure goes to a plug-in of the schedule when leaving the plug-in out passes.
// Since equal-value overlaps of parallel iterations are allowed ([PAR-OVERLAP]), that case itself
// no longer races; the blame is tested on a reduction loop the plug-in made parallel.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseWithout, culpritByCause, dedupKey, evaluate } from '../../src/fuzz/check.js';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';
import { examplesDir } from '../support/files.js';

const PARALLEL = join(examplesDir, 'directives', 'unsound-parallel.mjs');

describe('blame by cause in campaigns', () => {
  it('a shift-split loop made parallel by a plug-in and widened by `bound` overlaps with equal values: no race ([PAR-OVERLAP])', async () => {
    const env = await makeEnv({ ...DEFAULT_CONFIG, directives: [PARALLEL] });
    const prop = propertyNamed('race-free');
    // The case of the original report: the tails meet only once `bound` widens the loop from 6 points to 8.
    const schedule = 'split f.s0.x into xo, xi by 3 tail shift\nparallel-any f.s0.xo\nbound f.x min 0 len 8\n';
    const c = prop.decode({ program: 'pipeline f() {\n  func f(x) = x;\n}\n', input: { window: [['0', '6']], params: {} }, schedule }, env);
    expect(evaluate(prop, c, env).status).toBe('pass');
  });

  it('a race seen after a built-in is the plug-in\'s when the case without the plug-in passes', async () => {
    const env = await makeEnv({ ...DEFAULT_CONFIG, directives: [PARALLEL] });
    const prop = propertyNamed('race-free');
    const program = 'pipeline f() {\n  func f(x) {\n    0;\n    rdom(r = (0, 3)) in (x) <- f(x) + r;\n  }\n}\n';
    const c = prop.decode({ program, input: { window: [['0', '4']], params: {} }, schedule: 'parallel-any f.s1.r\nbound f.x min 0 len 8\n' }, env);
    const r = evaluate(prop, c, env);
    expect(r.status === 'fail' && r.verdict).toBe('data-race');
    const culprit = culpritByCause(prop, c, 'bound', env);
    expect(culprit).toBe('parallel-any');
    expect(r.status === 'fail' && dedupKey(prop, c, culprit, r)).toBe('race-free/directive:parallel-any');
    // a built-in that is not in the schedule's company of plug-ins keeps the blame
    expect(culpritByCause(prop, prop.decode({ program, input: { window: [['0', '4']], params: {} }, schedule: 'bound f.x min 0 len 8\n' }, env), 'bound', env)).toBeUndefined();
  });

  it('the case without a directive: its calls removed, or the schedule cut before its first call when the rest no longer applies', async () => {
    const env = await makeEnv({ ...DEFAULT_CONFIG, directives: [PARALLEL] });
    const prop = propertyNamed('race-free');
    const program = 'pipeline f() {\n  func f(x) = x;\n}\n';
    const input = { window: [['0', '8']] as [string, string][], params: {} };
    const removed = caseWithout(prop, { program, input, schedule: 'split f.s0.x into xo, xi by 2 tail guard\nparallel-any f.s0.xo\nvectorize f.s0.xi' }, 'parallel-any', env);
    expect(prop.directivesOf!(removed)).toEqual(['split', 'vectorize']);
    // The last call names a loop that does not exist, so only the schedule cut before the plug-in applies.
    const cut = caseWithout(prop, { program, input, schedule: 'split f.s0.x into xo, xi by 2 tail guard\nparallel-any f.s0.xo\nunroll f.s0.nope' }, 'parallel-any', env);
    expect(prop.directivesOf!(cut)).toEqual(['split']);
    expect(caseWithout(prop, { program, input, schedule: 'split f.s0.x into xo, xi by 2 tail guard' }, 'parallel-any', env)).toBeUndefined();
  });
});
