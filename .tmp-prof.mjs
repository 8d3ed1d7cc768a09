import { runCheck } from './dist/fuzz/check.js';
import { makeEnv } from './dist/fuzz/make-env.js';
import { PROPERTIES } from './dist/fuzz/properties/index.js';
import { emptyStats } from './dist/fuzz/stats.js';
import { checkSeed } from './dist/fuzz/seed.js';
const env = await makeEnv({ engine: 'beta0', directives: [], maxSteps: 200_000 });
for (const p of PROPERTIES) for (let i = 0; i < 30; i++) runCheck(p, env, i, checkSeed(9, i), emptyStats());
for (const p of PROPERTIES) {
  const st = emptyStats(); const ts = [];
  for (let i = 0; i < 300; i++) { const t1 = performance.now(); runCheck(p, env, i, checkSeed(1, i), st); ts.push(performance.now() - t1); }
  ts.sort((a, b) => a - b); const avg = ts.reduce((a, b) => a + b) / ts.length;
  console.log(p.name.padEnd(16), 'avg', avg.toFixed(2), 'median', ts[150].toFixed(2), 'p90', ts[270].toFixed(2), 'max', ts[299].toFixed(0));
}
