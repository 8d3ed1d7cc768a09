// Regressions: evaluator paths without a finite default budget. `bounds --window` after a split by
// 10^8 checked the query for minutes, `exec` ran an rdom of 10^18 iterations forever, and `rc`
// stopped only after 10^8 steps (a quarter of an hour for the standard semantics).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { examplesDir, scratchDir } from '../support/files.js';

const dir = scratchDir('refsem-budgets-');
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('every evaluator path ends by default', () => {
  it('bounds --window after a huge split: the concrete check gives up as undecided', async () => {
    const s = file('big.sched', 'split f.x by 100000000\n');
    const r = await runCli(['bounds', `${examplesDir}/sec22.alg`, '--schedule', s, '--window', '0+6']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[CHECK-CONCRETE] the query is undecided (step budget exceeded)');
  }, 120_000);

  it('exec of an rdom with 10^18 iterations: the run is stuck on its step budget', async () => {
    const p = file('huge.alg', 'pipeline f() {\n  func f(x) {\n    0;\n    rdom(r = (0, 1000000000000000000)) in (x) <- f(x) + 1;\n  }\n}\n');
    const r = await runCli(['exec', p, '--window', '0+1']);
    expect(r.stdout).toContain('stuck after 200000000 steps: step budget of 200000000 exhausted');
    // The limit is the command line's, as for `run`: exit 2 naming the option, never 0 (README, "Exit codes").
    expect(r.stderr).toContain('error: step limit reached');
    expect(r.code).toBe(2);
  }, 120_000);

  it('rc --standard of a program that never ends: exit 2 at the default budget', async () => {
    const p = file('loop.lam', 'fun loop(x) = loop(x)\nfun main() = loop(1)\n');
    const r = await runCli(['rc', p, '--standard']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('step budget of 10000000 exhausted');
  }, 120_000);
});
