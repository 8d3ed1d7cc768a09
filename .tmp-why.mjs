import { makeEnv } from './dist/fuzz/make-env.js';
import { confluence } from './dist/fuzz/properties/soundness.js';
import { generated } from './dist/fuzz/check.js';
import { complete } from './dist/fuzz/complete.js';
const env = await makeEnv({ engine: 'beta0', directives: [], maxSteps: 200000 });
const counts = {};
for (let i = 0; i < 400; i++) {
  const c = confluence.concretize(generated(confluence, env, i), env);
  const t = complete(c.steps[c.steps.length - 1], env.engine);
  if (t.completedBy.failure) { const k = t.completedBy.failure.replace(/\?[a-z]+ [^ :]+/g, 'H').replace(/[^ ]*\.s\d[^ ]*/g,'L').replace(/at \S+/g,'').slice(0, 90); counts[k] = (counts[k] ?? 0) + 1; }
}
console.log(Object.entries(counts).sort((a,b)=>b[1]-a[1]).slice(0,12));
