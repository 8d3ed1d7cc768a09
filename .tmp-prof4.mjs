import { runCheck } from './dist/fuzz/check.js';
import { makeEnv } from './dist/fuzz/make-env.js';
import { confluence } from './dist/fuzz/properties/soundness.js';
import { emptyStats } from './dist/fuzz/stats.js';
import { checkSeed } from './dist/fuzz/seed.js';
const env = await makeEnv({ engine: 'beta0', directives: [], maxSteps: 200_000 });
for (let i = 0; i < 600; i++) runCheck(confluence, env, i, checkSeed(1, i), emptyStats());
