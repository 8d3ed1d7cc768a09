import fc from 'fast-check';
import { makeEnv } from './dist/fuzz/make-env.js';
import { confluence } from './dist/fuzz/properties/soundness.js';
import { generated } from './dist/fuzz/check.js';
import { checkSeed } from './dist/fuzz/seed.js';
import { printPipeline } from './dist/alg-semantics/print.js';
import { printTgt } from './dist/target-semantics/print.js';
import { complete } from './dist/fuzz/complete.js';
const env = await makeEnv({ engine: 'beta0', directives: [], maxSteps: 2_000_000 });
const times = [];
for (let i = 0; i < 300; i++) {
  const g = generated(confluence, env, checkSeed(1, i));
  const c = confluence.concretize(g, env);
  const t = performance.now(); confluence.check(c, env); const d = performance.now() - t;
  times.push([d, i, c]);
}
times.sort((a, b) => b[0] - a[0]);
console.log(times.slice(0, 10).map(x => x[0].toFixed(1) + '@' + x[1]).join(' '));
console.log('median', times[150][0]);
const c = times[0][2];
console.log(printPipeline(c.pipeline), c.input);
console.log(printTgt(complete(c.steps[0], env.engine)));
import { realize } from './dist/alg-semantics/fast-eval.js';
import { extractQuery } from './dist/bounds/query.js';
import { beta0 } from './dist/bounds/beta0.js';
for (const [d, i, cc] of times.slice(0, 4)) {
let t = performance.now(); try { realize(cc.pipeline, cc.input, {maxSteps: 2000000}); } catch (e) { console.log(e.message); } console.log('realize', performance.now() - t);
t = performance.now(); const q = extractQuery(cc.steps[0]); console.log('query', performance.now() - t);
t = performance.now(); beta0(cc.steps[0], q); console.log('beta0', performance.now() - t);
}
