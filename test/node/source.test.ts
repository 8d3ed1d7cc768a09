// Sources read from standard input, as users pipe them: a 50 MB input ran for minutes before any
// message. A writer slower than refsem is waited for (a non-blocking pipe, momentarily empty, once
// failed with EAGAIN; a test cannot hand the child such a pipe, so this one checks the waiting).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_SOURCE_BYTES } from '../../src/node/source.js';
import { examplesDir } from '../support/files.js';

const bin = join(__dirname, '..', '..', 'bin', 'refsem.js');

/** `refsem check -` with standard input written in the given chunks, each after a pause. */
function checkPiped(chunks: readonly string[], pauseMs: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, 'check', '-']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    child.stdin.on('error', () => undefined); // refsem may stop reading once the limit is passed
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    const next = (i: number) => {
      if (i === chunks.length) {
        child.stdin.end();
        return;
      }
      child.stdin.write(chunks[i]!, () => setTimeout(() => next(i + 1), pauseMs));
    };
    next(0);
  });
}

describe('standard input as a source', () => {
  it('a slow writer is waited for, not an error', async () => {
    const text = readFileSync(join(examplesDir, 'blur.alg'), 'utf8');
    const r = await checkPiped([text.slice(0, 100), text.slice(100)], 300);
    expect(r.stdout).toContain("<stdin>: valid pipeline 'blur_y' (3 funcs)");
    expect(r.code).toBe(0);
  }, 60_000);

  it('an input past the limit is refused at its first line without reading the rest', async () => {
    const line = '  func g(x) = x;\n';
    const chunk = line.repeat(Math.ceil(2 ** 20 / line.length));
    const r = await checkPiped(['pipeline f() {\n', ...Array<string>(Math.ceil(MAX_SOURCE_BYTES / chunk.length) + 2).fill(chunk)], 0);
    expect(r.stderr).toMatch(/^<stdin>:1:1: error: the input is more than 4\.0 MiB; refsem reads sources of at most 4\.0 MiB/);
    expect(r.code).toBe(2);
  }, 60_000);
});
