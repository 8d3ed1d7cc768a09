// Regression: `exec --compare` and `bounds --verify` ended with exit 0 and no word of advice when
// nothing was compared (β0 gave up, the program became `assert 0`). Def. 2.3 counts a vacuous
// verdict as agreement, so exit 0 stays the default; the output says plainly that nothing was
// compared and what to try, and `--strict` makes it exit 4 (inconclusive).
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';

const { file } = scratch('refsem-vacuous-');
// g is read at the value of h: β0 knows nothing of func values and gives up; β1 knows h's range.
const alg = file('dd.alg', 'pipeline f() {\n  func h(x) = x % 8;\n  func g(x) = x;\n  func f(x) = g(h(x));\n}\n');

describe('vacuous checks', () => {
  it('exec --compare says nothing was compared and suggests β1; --strict exits 4 (inconclusive)', async () => {
    const r = await runCli(['exec', alg, '--window', '0+4', '--compare']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[VERDICT-ASSERTION] vacuous');
    expect(r.stderr).toContain('note: vacuous: nothing was compared (the bounds engine beta0 gave up, so the program is `assert 0`; try --engine beta1)');
    expect((await runCli(['exec', alg, '--window', '0+4', '--compare', '--strict'])).code).toBe(4);
  });

  it('with β1 the same comparison is real', async () => {
    const r = await runCli(['exec', alg, '--window', '0+4', '--compare', '--engine', 'beta1', '--strict']);
    expect(r.stdout).toContain('[VERDICT-EQUAL]');
    expect(r.stderr).not.toContain('vacuous');
    expect(r.code).toBe(0);
  });

  it('bounds --verify says the engine gave up and suggests β1; --strict exits 4 (inconclusive)', async () => {
    const r = await runCli(['bounds', alg, '--verify']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^engine beta0 fails: hole \?mem g\.x is unbounded/);
    expect(r.stderr).toContain('try --engine beta1');
    expect((await runCli(['bounds', alg, '--verify', '--strict'])).code).toBe(4);
  });

  it('bounds --verify: Z3 answering unknown within its time limit proved nothing; --strict exits 4 (inconclusive)', async () => {
    const { examplesDir } = await import('../support/files.js');
    // Harris's query under its schedule: far more than Z3 decides in 1 ms (sec22's, on a quiet machine, is not).
    const args = ['bounds', `${examplesDir}/harris.alg`, '--schedule', `${examplesDir}/harris.sched`, '--engine', 'beta1', '--verify', '--timeout', '1'];
    const r = await runCli(args);
    expect(r.stdout).toContain('[CHECK-Z3] unknown: the solver answered unknown (timeout)');
    expect(r.code).toBe(0);
    expect((await runCli([...args, '--strict'])).code).toBe(4);
  }, 60_000);
});
