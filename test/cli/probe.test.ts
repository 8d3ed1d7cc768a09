import { test } from 'vitest';
import { readFileSync } from 'node:fs';
import { runCli } from '../support/cli.js';
test('probe', async () => {
  const cases: string[][] = JSON.parse(readFileSync('/tmp/rb/cases.json', 'utf8'));
  for (const c of cases) {
    const r = await runCli(c);
    console.log(`--- ${c.join(' ')}\nrc=${r.code}\n${r.stderr.slice(0, 600)}OUT:${r.stdout.slice(0,400)}\n${r.code === 3 || /    at /.test(r.stdout + r.stderr) ? 'STACKY\n' : ''}`);
  }
}, 600000);
