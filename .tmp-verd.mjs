import { makeEnv } from './dist/fuzz/make-env.js';
import { confluence } from './dist/fuzz/properties/soundness.js';
import { generated } from './dist/fuzz/check.js';
import { realize } from './dist/alg-semantics/fast-eval.js';
import { complete } from './dist/fuzz/complete.js';
import { compareOutputs, negativeRdom } from './dist/lowering/equivalence.js';
const env = await makeEnv({ engine: process.argv[2] ?? 'beta0', directives: [], maxSteps: 200000 });
const counts = {};
for (let i = 0; i < 400; i++) {
  const c = confluence.concretize(generated(confluence, env, i), env);
  let k;
  try { const alg = realize(c.pipeline, c.input, { maxSteps: 200000 }); const t = complete(c.steps[c.steps.length - 1], env.engine);
  const o = env.exec(t, c.input, { maxSteps: 200000 }); const neg = negativeRdom(c.pipeline, c.input.params);
  k = compareOutputs(alg, o, c.input.window, neg ? { negativeRdom: neg } : {}).kind; if (k === 'vacuous-assertion') k += t.completedBy.failure ? ' (engine failed)' : ''; } catch (e) { k = 'exc ' + e.message.slice(0, 50); }
  counts[k] = (counts[k] ?? 0) + 1;
}
console.log(counts);
