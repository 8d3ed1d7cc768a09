// `refsem lower` and `refsem compare`: output on the shipped example, and bad input (exit 2).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { examplesDir } from '../support/files.js';

const blur = join(examplesDir, 'blur.alg');

describe('refsem lower', () => {
  it('prints the blur example with its holes: one allocation and one labelled nest per func', async () => {
    const r = await runCli(['lower', blur]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pipeline blur_y\(; x in \(x\.min, x\.len\), y in \(y\.min, y\.len\)\):/);
    for (const f of ['input', 'blur_x', 'blur_y']) {
      expect(r.stdout).toContain(`allocate ${f}(x in (?mem.min(${f}.x), ?mem.len(${f}.x)), y in (?mem.min(${f}.y), ?mem.len(${f}.y)))`);
      expect(r.stdout).toContain(`for ${f}.s0.y in (?cpu.min(${f}.y), ?cpu.len(${f}.y)) do`);
    }
  });

  it('checks lemmas 2.4 and 2.5 on the blur example', async () => {
    const r = await runCli(['lower', blur, '--check']);
    expect(r).toMatchObject({ code: 0, stdout: '[LOOP-NAMING] holds: 6 loops, each named uniquely\n[DOMINANCE] holds\n' });
  });

  it('rejects bad input with exit code 2', async () => {
    expect((await runCli(['lower', 'no-such.alg'])).stderr).toContain("cannot read 'no-such.alg': no such file");
    const noFill = await runCli(['lower', blur, '--window', '0+2,0+2']);
    expect(noFill).toMatchObject({ code: 2, stderr: expect.stringContaining('--window needs --fill') });
    const notJson = await runCli(['lower', blur, '--fill', blur]);
    expect(notJson).toMatchObject({ code: 2, stderr: expect.stringContaining('is not JSON') });
  });
});

describe('refsem compare', () => {
  it('rejects an unknown executor and a window of the wrong shape', async () => {
    const tgt = join(examplesDir, 'blur.tgt');
    const ex = await runCli(['compare', blur, tgt, '--window', '0+2,0+2', '--executor', 'jit']);
    expect(ex).toMatchObject({ code: 2, stderr: expect.stringContaining("invalid --executor 'jit'") });
    const win = await runCli(['compare', blur, tgt, '--window', '0+2']);
    expect(win).toMatchObject({ code: 2, stderr: expect.stringContaining('the window has 1 dimensions') });
  });

  it('finds the hand-scheduled blur.tgt (one division by 9) equal to blur.alg (two divisions by 3)', async () => {
    // Recomputed independently: each row sum of three neighbours is a multiple of 3 away from
    // wrap-around of the % 256, so the two roundings agree on this window.
    const input = (x: number, y: number) => (((x * 7 + y * 13) % 256) + 256) % 256;
    const row = (x: number, y: number) => input(x - 1, y) + input(x, y) + input(x + 1, y);
    const alg = (x: number, y: number) => Math.floor((Math.floor(row(x, y - 1) / 3) + Math.floor(row(x, y) / 3) + Math.floor(row(x, y + 1) / 3)) / 3);
    const tgt = (x: number, y: number) => Math.floor((row(x, y - 1) + row(x, y) + row(x, y + 1)) / 9);
    const span = Array.from({ length: 12 }, (_, i) => i - 5);
    expect(span.every((y) => span.every((x) => alg(x, y) === tgt(x, y)))).toBe(true);
    for (const executor of ['fast', 'machine']) {
      const r = await runCli(['compare', blur, join(examplesDir, 'blur.tgt'), '--window=-5+12,-5+12', '--executor', executor]);
      expect(r).toMatchObject({ code: 0, stdout: '[VERDICT-EQUAL] equal: the target agrees with the algorithm on the whole window\n' });
    }
  });
});
