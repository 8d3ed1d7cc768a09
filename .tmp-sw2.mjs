import { makeEnv } from './dist/fuzz/make-env.js';
import { confluence } from './dist/fuzz/properties/soundness.js';
import { printTgt } from './dist/target-semantics/print.js';
const env = await makeEnv({ engine: 'beta0', directives: [], maxSteps: 200000, fault: 'swap-reductions' });
const c = confluence.decode({ program: 'pipeline f() { func f(x) { 0; rdom(r = (0, 2), s = (0, 2)) in (0) <- f(0) * 2 + r; } }', input: { window: [['0', '1']], params: {} }, schedule: 'swap-any f.s1.s\n' }, env);
console.log(printTgt(c.steps[c.steps.length - 1]));
console.log(confluence.check(c, env));
