import { makeEnv } from './dist/fuzz/make-env.js';
import { confluence } from './dist/fuzz/properties/soundness.js';
import { generated } from './dist/fuzz/check.js';
import { complete } from './dist/fuzz/complete.js';
const env = await makeEnv({ engine: process.argv[2], directives: [], maxSteps: 200000, fault: process.argv[3] });
const counts = {};
for (let i = 0; i < 400; i++) {
  const c = confluence.concretize(generated(confluence, env, i), env);
  if (!c.names.includes(process.argv[4])) continue;
  const r = confluence.check(c, env);
  const t = complete(c.steps[c.steps.length - 1], env.engine);
  const k = r.status + (r.verdict ?? '') + (t.completedBy.failure ? ' engine-failed' : '');
  counts[k] = (counts[k] ?? 0) + 1;
}
console.log(counts);
