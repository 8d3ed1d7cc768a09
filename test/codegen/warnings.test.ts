// Regression: with `CFLAGS=-Werror` the emitted C did not compile (an unused runtime function), and
// validation reported it as bad input. The emitted code is warning-clean under -Wall -Wextra, scalar
// and vector, checked and not; a toolchain problem stays one message with exit 2.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplesDir, scratch } from '../support/files.js';

const bin = join(__dirname, '..', '..', 'bin', 'refsem.js');
const refsem = (args: string[], cflags: string) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, CFLAGS: cflags } });
const ex = (f: string) => join(examplesDir, f);

describe('the emitted C under strict warnings', () => {
  it.each([
    ['blur.alg', 'blur.sched', 'c'],
    ['blur.alg', 'blur.sched', 'simd'],
    ['harris.alg', 'harris.sched', 'c'],
    ['sec22.alg', 'sec22.sched', 'simd'],
  ])('%s under %s (%s) compiles with -Wall -Wextra -Werror', (alg, sched, backend) => {
    const r = refsem(['validate', ex(alg), '--schedule', ex(sched), '--backend', backend, '--inputs', '2'], '-O1 -Wall -Wextra -Werror');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);

  // Regression: a parameter, a reduction variable or a let the body never reads was an unused
  // variable, and the CPU checks of the dispatcher unused functions when one instruction set is
  // compiled alone (as campaigns do); under -Werror that was reported as bad input.
  it('names the program binds but never reads, one instruction set alone: warning-clean under -Wall -Werror', () => {
    const { file } = scratch('refsem-warnings-');
    const alg = file('unused.alg', 'pipeline f(n) {\n  func f(x) {\n    x;\n    rdom(r = (0, 1), s = (0, 3)) in (x) <- r;\n  }\n}\n');
    const sched = file('unused.sched', 'vectorize f.s1.r\nunroll f.s1.s\n');
    const r = refsem(['validate', alg, '--schedule', sched, '--backend', 'simd', '--simd', 'generic', '--inputs', '1', '--window', '0+8', '--param', 'n=1'], '-O1 -Wall -Wextra -Werror');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);

  it('a flag the compiler rejects is one message at the command line, exit 2', () => {
    const r = refsem(['validate', ex('sec22.alg'), '--inputs', '2'], '-fno-such-flag-anywhere');
    expect(r.status).toBe(2);
    expect(r.stderr.match(/error: /g)?.length).toBeGreaterThanOrEqual(1);
    expect(r.stderr).toMatch(/^<command line>: error: /);
    expect(r.stderr).toContain('hint: check $CC and $CFLAGS');
    expect(r.stderr).not.toContain('counterexample');
  }, 120_000);
});
