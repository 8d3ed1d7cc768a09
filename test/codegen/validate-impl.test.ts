// Regression: `validate --impl` could not take `refsem codegen`'s own output (the runtime was
// defined twice), and a file that did not compile was reported once per input, exit 1. The
// runtime is guarded, and a compile error is one message, exit 2. An implementation that printed
// `begin` on its standard output desynchronised the driver, and one that left a child process
// behind made validation wait for its pipe: the driver answers on its own descriptor, and the
// implementation's process group is ended when it exits or reaches the limit.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { examplesDir, scratchDir } from '../support/files.js';

const dir = scratchDir('refsem-impl-');
const blur = [`${examplesDir}/blur.alg`, '--schedule', `${examplesDir}/blur.sched`];

describe('validate --impl with the emitted code', () => {
  const c = join(dir, 'blur.c');

  it('accepts the output of refsem codegen as an implementation', async () => {
    expect((await runCli(['codegen', ...blur, '-o', c, '--simd', 'auto'])).code).toBe(0);
    const r = await runCli(['validate', ...blur, '--impl', c, '--inputs', '4']);
    expect(r.stdout).toContain('ok: 4 inputs');
    expect(r.code).toBe(0);
  }, 120_000);

  it('reports an implementation that does not compile once, as bad input', async () => {
    const bad = join(dir, 'bad.c');
    writeFileSync(bad, readFileSync(c, 'utf8').replace('const int64_t v_x_dmin = window[0];', 'const int64_t v_x_dmin = window[0]'));
    const r = await runCli(['validate', ...blur, '--impl', bad, '--inputs', '4']);
    expect(r.code).toBe(2);
    expect(r.stderr.match(/does not compile/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/^.*bad\.c:1:1: error: the implementation '.*bad\.c' does not compile: compiler failed/);
    expect(r.stdout).toBe('');
  }, 120_000);

  const entry = 'void refsem_blur__y(const int64_t *params, const int64_t *window, refsem_result *res) {';
  const variant = (name: string, prefix: string, body: string) => {
    const file = join(dir, name);
    const text = readFileSync(c, 'utf8');
    expect(text).toContain(entry);
    writeFileSync(file, prefix + text.replace(entry, `${entry}\n${body}`));
    return file;
  };

  it('an implementation that prints what the driver answers is still judged on its values', async () => {
    const noisy = variant('noisy.c', '#include <stdio.h>\n', '  printf("begin 0 0\\nstatus 3\\nend\\n"); fflush(stdout);');
    const r = await runCli(['validate', ...blur, '--impl', noisy, '--inputs', '3']);
    expect(r.stdout).toContain('ok: 3 inputs');
    expect(r.code).toBe(0);
  }, 120_000);

  it('an implementation that leaves a process behind is not waited for', async () => {
    const forks = variant('forks.c', '#include <unistd.h>\n', '  if (fork() == 0) { sleep(600); _exit(0); }');
    const t0 = Date.now();
    const r = await runCli(['validate', ...blur, '--impl', forks, '--inputs', '2']);
    expect(r.stdout).toContain('ok: 2 inputs');
    expect(Date.now() - t0).toBeLessThan(60_000);
  }, 120_000);
});
