import { runCheck } from './dist/fuzz/check.js';
import { makeEnv } from './dist/fuzz/make-env.js';
import { PROPERTIES } from './dist/fuzz/properties/index.js';
import { emptyStats } from './dist/fuzz/stats.js';
import { checkSeed } from './dist/fuzz/seed.js';
import { propertyFor } from './dist/fuzz/slice.js';
const env = await makeEnv({ engine: 'beta0', directives: [], maxSteps: 200_000 });
for (let i = 0; i < 200; i++) runCheck(propertyFor(PROPERTIES, 9, i), env, i, checkSeed(9, i), emptyStats());
const per = {};
const c0 = process.cpuUsage();
for (let i = 0; i < 1500; i++) { const p = propertyFor(PROPERTIES, 1, i); const a = process.cpuUsage(); runCheck(p, env, i, checkSeed(1, i), emptyStats()); const d = process.cpuUsage(a); per[p.name] = (per[p.name] ?? 0) + (d.user + d.system) / 1000; }
const c = process.cpuUsage(c0);
console.log('checks per cpu-second', (1500 / ((c.user + c.system) / 1e6)).toFixed(1));
console.log(Object.fromEntries(Object.entries(per).map(([k, v]) => [k, Math.round(v)])));
