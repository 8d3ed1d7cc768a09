import { makeEnv } from './dist/fuzz/make-env.js';
import { confluence } from './dist/fuzz/properties/soundness.js';
import { generated } from './dist/fuzz/check.js';
import { printTgt } from './dist/target-semantics/print.js';
import { emptyStats } from './dist/fuzz/stats.js';
const env = await makeEnv({ engine: 'beta0', directives: [], maxSteps: 200000, fault: 'compute-with' });
const st = emptyStats(); let shown = 0;
for (let i = 0; i < 200; i++) {
  const g = generated(confluence, env, i);
  const c = confluence.concretize(g, env);
  confluence.observe(c, st);
  if (c.names.includes('compute-with-like') && shown++ < 1) { console.log(c.scheduleText); console.log(printTgt(c.steps[c.steps.length-1])); console.log(confluence.check(c, env)); }
}
console.log(st.directives);
