import { makeEnv } from './dist/fuzz/make-env.js';
import { confluence } from './dist/fuzz/properties/soundness.js';
import { generated } from './dist/fuzz/check.js';
import { printPipeline } from './dist/alg-semantics/print.js';
import { printTgt } from './dist/target-semantics/print.js';
import { complete } from './dist/fuzz/complete.js';
const env = await makeEnv({ engine: 'beta0', directives: [], maxSteps: 200000, fault: 'compute-with' });
const counts = {};
let shown = 0;
for (let i = 0; i < 300; i++) {
  const c = confluence.concretize(generated(confluence, env, i), env);
  if (!c.names.includes('compute-with-like')) continue;
  const r = confluence.check(c, env);
  const t = complete(c.steps[c.steps.length - 1], env.engine);
  const k = r.status + (t.completedBy.failure ? ' engine-failed' : '');
  counts[k] = (counts[k] ?? 0) + 1;
  if (k === 'pass' && shown++ < 1) { console.log(printPipeline(c.pipeline), c.scheduleText, c.input); console.log(printTgt(t)); }
}
console.log(counts);
