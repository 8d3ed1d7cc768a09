import { makeEnv } from './dist/fuzz/make-env.js';
import { confluence } from './dist/fuzz/properties/soundness.js';
import { readReproducer } from './dist/fuzz/reproducer.js';
import { printTgt } from './dist/target-semantics/print.js';
import { lower } from './dist/lowering/lower.js';
import { decodeChoices } from './dist/fuzz/gen/schedule.js';
const env = await makeEnv({ engine: 'beta0', directives: [], maxSteps: 200000 });
const r = readReproducer('/tmp/fz/o6/confluence-9f17a7f33b.json');
const c = confluence.decode(r.case, env);
console.log(printTgt(c.steps[1]));
// now find the choices that generate specialize
const t0 = c.steps[0];
for (let s = 0; s < 50; s++) {
  const sc = decodeChoices(t0, [{ d: 0, s }], env);
  try { const res = confluence.check({ ...c, ...sc }, env); if (res.status !== 'pass') { console.log(s, sc.scheduleText, res); console.log(printTgt(sc.steps[1])); console.log(JSON.stringify(sc.steps[1]) === JSON.stringify(c.steps[1])); break; } } catch (e) { console.log('exc', e.message); break; }
}
