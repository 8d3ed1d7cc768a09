// Regression: `validate --impl` could not take `refsem codegen`'s own output (the runtime was
// defined twice), and a file that did not compile was reported once per input, exit 1. The
// runtime is guarded, and a compile error is one message, exit 2.
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
});
