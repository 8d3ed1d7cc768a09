// The codegen and validate commands ([C-TOOLCHAIN]): output, exit codes, errors for bad input,
// a missing compiler, and temporary files.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { widestHostIsa } from '../../src/codegen/cpu.js';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../support/cli.js';
import { compileAndRun, detectToolchain } from '../../src/codegen/toolchain.js';
import { input, pointwise } from './support.js';
import { scratchDir } from '../support/files.js';

const dir = scratchDir('refsem-codegen-test-');
const prog = join(dir, 'p.tgt');
writeFileSync(prog, `pipeline f(n; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x % n }`);
const holes = join(dir, 'h.tgt');
writeFileSync(holes, `pipeline f(; x in (x.min, x.len)): { allocate f(x in (?mem.min(f.x), ?mem.len(f.x))); f[x.min] <- 1 }`);

const saved = { CC: process.env.CC, CFLAGS: process.env.CFLAGS };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const tempDirs = () => readdirSync(tmpdir()).filter((f) => f.startsWith('refsem-cc-')).length;

describe('refsem codegen', () => {
  it('prints a C translation unit, or writes it with -o', async () => {
    const r = await runCli(['codegen', prog, '--simd', 'none']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('void refsem_f(const int64_t *params');
    expect(r.stdout).toContain('rs_mod(');
    const out = join(dir, 'out.c');
    expect((await runCli(['codegen', prog, '-o', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('refsem_f__avx512');
  });

  it('rejects bad options (exit 2) and completes programs with holes', async () => {
    const bad = await runCli(['codegen', prog, '--simd', 'sse9']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid --simd 'sse9'/);
    const f = await runCli(['codegen', prog, '--fault', 'nope']);
    expect(f.code).toBe(2);
    expect(f.stderr).toMatch(/unknown --fault 'nope'/);
    const e = await runCli(['codegen', holes, '--engine', 'gamma7']);
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(/unknown bounds engine 'gamma7'/);
    // With a known engine the holes are filled (§2.7) and the program compiles.
    const h = await runCli(['codegen', holes, '--simd', 'none']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('rs_allocate(');
  });
});

describe('refsem validate', () => {
  it('prints a verdict per input and exits 0 when all agree, 1 when one fails', async () => {
    const ok = await runCli(['validate', prog, '--backend', 'simd', '--inputs', '4', '--window', '0+9', '--param', 'n=-4']);
    expect(ok.stdout.split('\n').filter((l) => l.startsWith('input '))).toHaveLength(4);
    expect(ok.stdout).toContain('ok: 4 inputs');
    expect(ok.code).toBe(0);
    // [C-DISPATCH]: by default only the instruction set this CPU runs is compiled; `--simd auto`
    // compiles all three, and the two this CPU does not run are reported as never validated
    expect(ok.stdout).toContain(`[ran: ${widestHostIsa()} code]`);
    expect(ok.stdout).not.toContain('ran on no input');
    const all = await runCli(['validate', prog, '--backend', 'simd', '--simd', 'auto', '--inputs', '1', '--window', '0+9', '--param', 'n=-4']);
    expect(all.stdout).toContain('variants that ran on no input');
    const bad = await runCli(['validate', prog, '--backend', 'c', '--inputs', '1', '--window=-6+5', '--param', 'n=4', '--fault', 'truncatingDiv', '--json']);
    expect(bad.code).toBe(1);
    const j = JSON.parse(bad.stdout);
    expect(j.verdicts[0]).toMatchObject({ kind: 'differs', ok: false, point: [-6], expected: 2, actual: -2 });
  });

  it('says clearly when there is no C compiler (exit 2)', async () => {
    process.env.CC = '/nonexistent/refsem-cc';
    const r = await runCli(['validate', prog, '--inputs', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no C compiler found: '\/nonexistent\/refsem-cc' could not be started\n  hint: install gcc or clang/);
    expect(() => detectToolchain(process.env)).toThrow(/no C compiler found/);
  });

  it('uses $CFLAGS verbatim and reports compiler errors per run', async () => {
    // A temporary folder of this test's own: other test files compile at the same time, and their
    // folders come and go in the shared one (the count once differed by theirs).
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = scratchDir('refsem-cflags-');
    onTestFinished(() => {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    });
    process.env.CFLAGS = '-O0 -DREFSEM_CHECKED';
    const before = tempDirs();
    const [r] = await compileAndRun([{ t: pointwise('x.min + n', ['n']), inputs: [input([[0, 2]], { n: 3 })] }]);
    expect(r!.kind === 'ran' && r!.output?.window).toEqual([3, 3]);
    process.env.CFLAGS = '-fno-such-flag-refsem';
    const [e] = await compileAndRun([{ t: pointwise('1'), inputs: [input([[0, 1]])] }]);
    expect(e!.kind).toBe('compile-error');
    expect(tempDirs()).toBe(before);
  });
});
