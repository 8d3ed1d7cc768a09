import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { printTgt } from '../../src/target-semantics/print.js';
import { extractQuery, printQuery } from '../../src/bounds/query.js';
import { completeProgram, BUILTIN_ENGINES } from '../../src/bounds/engine.js';
it('scratch', () => {
const t = parseTgt(readFileSync(process.env.F!, 'utf8'), 'x');
console.log(printQuery(extractQuery(t), {rules: true}));
for (const e of ['beta0','beta1']) { const c = completeProgram(t, BUILTIN_ENGINES[e]!); console.log(printTgt(c), c.completedBy.failure ?? ''); }
});
