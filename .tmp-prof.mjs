import { runCheck } from './dist/fuzz/check.js';
import { makeEnv } from './dist/fuzz/make-env.js';
import { PROPERTIES } from './dist/fuzz/properties/index.js';
import { emptyStats } from './dist/fuzz/stats.js';
import { checkSeed } from './dist/fuzz/seed.js';
const env = await makeEnv({ engine: 'beta0', directives: [], maxSteps: 2_000_000 });
for (const p of PROPERTIES) {
  const st = emptyStats(); const t = Date.now(); let worst = 0, wi = -1;
  for (let i = 0; i < 150; i++) { const t1 = Date.now(); runCheck(p, env, i, checkSeed(1, i), st); const d = Date.now() - t1; if (d > worst) { worst = d; wi = i; } }
  console.log(p.name, (Date.now() - t) / 150, 'ms/check; worst', worst, 'at', wi);
}
