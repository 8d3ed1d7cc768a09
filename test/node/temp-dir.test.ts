// Temporary folders and compilers when refsem is stopped: `validate --impl` stopped by Ctrl-C in the
// middle of a long compile left its folder (sources, objects, the compiler's messages) behind, and
// the compiler ran on to the end of its compile.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplesDir, scratchDir } from '../support/files.js';

const bin = join(__dirname, '..', '..', 'bin', 'refsem.js');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('temporary folders and compilers', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('validate stopped by %s during the compile leaves no folder and no compiler behind and ends by the signal', async (signal) => {
    const dir = scratchDir('refsem-temp-');
    const tmp = join(dir, 'tmp');
    const cc = join(dir, 'slow-cc.sh');
    // a compiler that answers the toolchain's questions at once and takes a minute over refsem.c
    writeFileSync(cc, '#!/bin/sh\ncase "$*" in *refsem.c*) echo $$ > "$TMPDIR/compiling.tmp"; mv "$TMPDIR/compiling.tmp" "$TMPDIR/compiling"; sleep 60;; esac\nexec cc "$@"\n');
    chmodSync(cc, 0o755);
    const impl = join(dir, 'mine.c');
    writeFileSync(impl, 'int nothing_here;\n');
    mkdirSync(tmp);
    const child = spawn(process.execPath, [bin, 'validate', join(examplesDir, 'sec22.alg'), '--impl', impl, '--inputs', '1'], { env: { ...process.env, CC: cc, TMPDIR: tmp } });
    const ended = new Promise<{ code: number | null; signal: string | null }>((done) => child.on('exit', (code, sig) => done({ code, signal: sig })));
    for (let i = 0; i < 600 && !existsSync(join(tmp, 'compiling')); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readdirSync(tmp).filter((f) => f.startsWith('refsem-cc-')).length).toBeGreaterThan(0);
    child.kill(signal);
    expect(await ended).toEqual({ code: null, signal });
    expect(readdirSync(tmp).filter((f) => f.startsWith('refsem-cc-'))).toEqual([]);
    // the compiler's shell, and with its group the `sleep` it waits on, went with refsem
    const compiler = Number(readFileSync(join(tmp, 'compiling'), 'utf8'));
    for (let i = 0; i < 50 && alive(compiler); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(compiler)).toBe(false);
  }, 120_000);
});
