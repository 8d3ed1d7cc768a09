// Regression: the command line ended its process as soon as a command returned, and output still
// queued for a pipe was dropped, so `refsem codegen … | wc -c` counted 64 KiB of a 5 MB C file.
// The binary is run as users run it, with its standard output a pipe read by another process.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplesDir, scratchDir } from '../support/files.js';

const bin = join(__dirname, '..', '..', 'bin', 'refsem.js');

function run(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [bin, ...args], { maxBuffer: 1 << 30 }, (err, stdout) => done({ code: err ? Number(err.code ?? 1) : 0, stdout }));
  });
}

describe('output to a pipe', () => {
  it('a C file far larger than a pipe buffer reaches the reader whole', async () => {
    const args = ['codegen', join(examplesDir, 'harris.alg'), '--schedule', join(examplesDir, 'harris.halide'), '--engine', 'beta1'];
    const file = join(scratchDir('refsem-piped-'), 'harris.c');
    const [piped, written] = await Promise.all([run(args), run([...args, '-o', file])]);
    expect(piped.code).toBe(0);
    expect(written.code).toBe(0);
    const whole = readFileSync(file, 'utf8');
    expect(whole.length).toBeGreaterThan(1 << 20);
    expect(piped.stdout).toBe(whole);
  }, 120_000);
});
