// `npm run rule-index`: regenerates spec/index.md and lists what the index finds wrong.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildRuleIndex, indexProblems, renderRuleIndex } from './rule-index.js';

// dist/rules/main.js → the project root
const root = fileURLToPath(new URL('../../', import.meta.url));
const ix = buildRuleIndex(root);
writeFileSync(`${root}spec/index.md`, renderRuleIndex(ix));
const problems = indexProblems(ix);
for (const p of problems) process.stderr.write(`${p}\n`);
process.stdout.write(`spec/index.md: ${ix.rules.length} rules, ${problems.length} problems\n`);
process.exitCode = problems.length === 0 ? 0 : 1;
