// [C-PCH]: the vector runtime header is precompiled once per thread and flag set, used by every
// SIMD batch (results unchanged), and removed with the process.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dist = join(__dirname, '..', '..', 'dist', 'codegen', 'index.js');

// Runs in a child process so that its exit (and the clean-up) can be observed.
const script = `
const { compileAndRun } = await import(${JSON.stringify(dist)});
const { parseTgt } = await import(${JSON.stringify(join(__dirname, '..', '..', 'dist', 'target-semantics', 'parse.js'))});
const { readdirSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const t = parseTgt('pipeline f(; x in (x.min, x.len)):\\n{\\n  allocate f(x in (x.min, x.len));\\n  for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- 3 * f.s0.x - 7\\n}', 'v.tgt');
const z = { window: [[-5, 23]], params: new Map() };
const out = [];
const dirsNow = () => readdirSync(tmpdir()).filter((d) => d.startsWith('refsem-pch-' + process.pid + '-'));
const before = [];
for (const keepTemp of [false, false, false, false, true]) {
  before.push(dirsNow().length);
  const [r] = await compileAndRun([{ t, inputs: [z], emit: { simd: 'generic' } }], { keepTemp });
  out.push(r.output.window.join(' '));
}
const dirs = dirsNow();
const files = dirs.flatMap((d) => readdirSync(tmpdir() + '/' + d));
console.log(JSON.stringify({ pid: process.pid, out, dirs, files, before }));
`;

describe('precompiled runtime header', () => {
  it('is built once after two inline compiles, gives the same results, and is removed at exit', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout.trim().split('\n').pop()!) as { pid: number; out: string[]; dirs: string[]; files: string[]; before: number[] };
    const expected = Array.from({ length: 23 }, (_, i) => 3 * (i - 5) - 7).join(' ');
    expect(o.out).toEqual(Array.from({ length: 5 }, () => expected));
    // The first two batches write the header inline; the third builds the precompiled header.
    expect(o.before).toEqual([0, 0, 0, 1, 1]);
    expect(o.dirs).toHaveLength(1);
    // One header and its precompiled form, built once for the third and fourth batches.
    expect(o.files.filter((f) => f.endsWith('.h'))).toHaveLength(1);
    expect(o.files.filter((f) => f.endsWith('.h.gch'))).toHaveLength(1);
    expect(o.files.filter((f) => f.endsWith('.gch.tmp'))).toEqual([]);
    expect(existsSync(join(tmpdir(), o.dirs[0]!))).toBe(false);
    expect(readdirSync(tmpdir()).some((d) => d.startsWith(`refsem-pch-${o.pid}-`))).toBe(false);
  }, 120_000);
});
