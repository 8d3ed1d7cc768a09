import { makeEnv } from './dist/fuzz/make-env.js';
import { runCheck } from './dist/fuzz/check.js';
import { checkSeed } from './dist/fuzz/seed.js';
import { emptyStats } from './dist/fuzz/stats.js';
import { PROPERTIES } from './dist/fuzz/properties/index.js';
import { propertyFor } from './dist/fuzz/slice.js';
const env = await makeEnv({ engine: 'beta0', directives: [], maxSteps: 200000 });
for (const i of [1, 3]) {
  const p = propertyFor(PROPERTIES, 1, i);
  const f = runCheck(p, env, i, checkSeed(1, i), emptyStats());
  console.log(i, p.name, f?.failure.actual.slice(0, 200));
}
