// `refsem new-directive`: the template it writes loads, applies, keeps the values, and passes
// check-directive; bad names and existing files are refused.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { examplesDir, scratch } from '../support/files.js';

const { dir, file } = scratch('refsem-new-directive-');

describe('refsem new-directive', () => {
  const mod = join(dir, 'split-unroll.mjs');

  it('writes a module that schedules a program without changing its values', async () => {
    const w = await runCli(['new-directive', 'split-unroll', '-o', mod]);
    expect(w.code).toBe(0);
    expect(existsSync(mod)).toBe(true);
    expect(readFileSync(mod, 'utf8')).toContain("name: 'split-unroll'");
    const sched = file('s.sched', 'split-unroll f.x by 3\n');
    const r = await runCli(['exec', `${examplesDir}/sec22.alg`, '--schedule', sched, '--directive', mod, '--window', '0+7', '--compare']);
    expect(r.stdout + r.stderr).toContain('[VERDICT-EQUAL]');
    const s = await runCli(['schedule', `${examplesDir}/sec22.alg`, '--schedule', sched, '--directive', mod]);
    expect(s.stdout).toContain('for unroll f.s0.xi in (0, 3) do');
  });

  it('the template passes check-directive', async () => {
    const r = await runCli(['check-directive', mod, '--runs', '60', '--seed', '1', '--jobs', '1', '--out', join(dir, 'out')]);
    expect(r.stdout).toContain('no counterexample in 60 checks');
    expect(r.code).toBe(0);
  }, 120_000);

  it('refuses names that are not directive names, built-in names, and existing files', async () => {
    expect((await runCli(['new-directive', 'Bad_Name', '-o', join(dir, 'x.mjs')])).stderr).toContain("'Bad_Name' is not a directive name");
    expect((await runCli(['new-directive', 'split', '-o', join(dir, 'y.mjs')])).stderr).toContain("'split' is a built-in directive");
    const again = await runCli(['new-directive', 'split-unroll', '-o', mod]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('exists');
    expect((await runCli(['new-directive', 'split-unroll', '-o', mod, '--force'])).code).toBe(0);
  });
});
