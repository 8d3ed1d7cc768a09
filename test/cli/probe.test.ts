import { test } from 'vitest';
import { readFileSync } from 'node:fs';
import { runCli } from '../support/cli.js';
test('probe', async () => {
  const cases: string[][] = JSON.parse(readFileSync('/tmp/rb/cases.json', 'utf8'));
  for (const c of cases) {
    const t0 = Date.now();
    const r = await runCli(c);
    console.log(`--- ${c.join(' ')}  [${Date.now() - t0} ms]\nrc=${r.code}\nERR:${r.stderr.slice(0, 300)}\n`);
  }
}, 600000);
