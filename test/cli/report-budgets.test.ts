// Regression: `explain` and `html` on a reduction domain of extent 10^18 ran on for minutes whatever
// --budget said — unrolling the domain cost no derivation step, and the page's evaluations had no
// limit. Both now stop at the budget: explain exits 2 naming --budget, html writes its page with
// the limit shown in it.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';

const { file } = scratch('refsem-report-budgets-');
const huge = file('huge.alg', `pipeline f() {
  func f(x) {
    0;
    rdom(r = (0, 1000000000000000000)) in (x) <- f(x) + 1;
  }
}
`);

describe('budgets of explain and html on a huge reduction domain', () => {
  it('explain stops at --budget: exit 2 with a hint to raise it', async () => {
    const r = await runCli(['explain', huge, '--point', 'f(0)', '--budget', '1000']);
    expect(r.stderr).toContain('budget exceeded: the derivation of f(0) needs more than 1000 steps');
    expect(r.stderr).toContain('raise --budget');
    expect(r.code).toBe(2);
  });

  it('html stops at --budget and says so on the page', async () => {
    const out = file('huge.html', '');
    const r = await runCli(['html', huge, '--budget', '1000', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('error shown in the page');
    const page = readFileSync(out, 'utf8');
    expect(page).toContain('iterations, more than the step limit 1000');
    expect(page).toContain('takes more than 1000 steps');
  });
});
