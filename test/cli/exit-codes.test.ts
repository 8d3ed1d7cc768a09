// The exit-code contract of the README ("Exit codes") on hostile inputs, one cheap case each:
// regressions for a stuck run that exited 0 like a finished one, a step limit reached by `exec`
// that exited 0, an output path that is a directory (exit 3 with a stack trace), an expression
// that begins with '-' whose hint did not mention `--`, and reproducer names that let two
// plug-ins' failures of one kind overwrite each other; `explain` and `html` that ran on for minutes
// on that rdom whatever --budget said (unrolling cost no derivation step; the page's evaluations
// had no limit); `halide --run` that exited 0 on a case it could not compare; an `.alg` of 50 MB
// that ran out of time and memory.
import { describe, expect, it } from 'vitest';
import { reproducerName } from '../../src/fuzz/reproducer.js';
import { halideAvailable } from '../../src/halide/run.js';
import { runCli } from '../support/cli.js';
import { examplesDir, scratch } from '../support/files.js';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';

const { file, dir } = scratch('refsem-exit-codes-');
const racy = file('racy.tgt', `pipeline sum(n; x in (x.min, x.len)):
{
  allocate sum(x in (x.min, x.len));
  for sum.s0.x in (x.min, x.len) do sum[sum.s0.x] <- 0;
  for parallel sum.s1.y in (0, n) do
    sum@s1[x.min] <- sum@s1[x.min] + sum.s1.y
}
`);
const huge = file('huge.alg', `pipeline f() {
  func f(x) {
    0;
    rdom(r = (0, 1000000000000000000)) in (x) <- f(x) + 1;
  }
}
`);

describe('the exit-code contract', () => {
  it('step on a data race prints the outcome and exits 1: the program is at fault', async () => {
    const r = await runCli(['step', racy, '--window', '0+1', '--param', 'n=3', '--every', '1000']);
    expect(r.stdout).toContain('data race on sum[0]');
    expect(r.code).toBe(1);
  });

  it('exec on an rdom of extent 10^18 reaches its step limit: exit 2 naming --max-steps, as run does', async () => {
    const r = await runCli(['exec', huge, '--window', '0+2', '--max-steps', '10000']);
    expect(r.stderr).toContain('<command line> --max-steps 10000: error: step limit reached');
    expect(r.code).toBe(2);
  });

  it('html -o DIR: the argument is at fault, exit 2, no stack trace', async () => {
    const r = await runCli(['html', join(examplesDir, 'sec22.alg'), '--window', '0+3', '-o', dir]);
    expect(r.stderr).toContain(`error: cannot write '${dir}': is a directory`);
    expect(r.stderr).not.toContain('    at ');
    expect(r.code).toBe(2);
  });

  it("an expression that begins with '-' is read as an option; the hint says to put -- before it", async () => {
    const r = await runCli(['expr', '-3 + 1']);
    expect(r.stderr).toContain("put -- before it: … -- '-3 + 1'");
    expect(r.code).toBe(2);
    expect((await runCli(['expr', '--', '-3 + 1'])).stdout.trim()).toBe('-2');
  });

  it.runIf(halideAvailable())('halide --run on a case that compares nothing (a bound short of the window) exits 4, not 0 like "equal"', async () => {
    const bound = file('short-bound.halide', 'blur_y.bound(x, 0, 4);\n');
    const r = await runCli(['halide', join(examplesDir, 'blur.alg'), '--schedule', bound, '--window', '0+8,0+8', '--run']);
    expect(r.stdout).toMatch(/^not stated in Halide: \[HALIDE-VERDICT\] the schedule's own assertions fail/);
    expect(r.code).toBe(4);
  });

  it('a 5 MiB .alg is refused at once at its first line, from a file and from standard input (50 MB ran for minutes)', async () => {
    const big = file('big.alg', `pipeline f() {\n${'  func g(x) = x;\n'.repeat(330_000)}}\n`);
    const r = await runCli(['check', big]);
    expect(r.stderr).toMatch(/big\.alg:1:1: error: the file is 5\.\d MiB; refsem reads sources of at most 4\.0 MiB/);
    expect(r.code).toBe(2);
  });

  it("two plug-ins' failures of one kind get two reproducer files", () => {
    const base = { property: 'confluence', key: 'confluence/timeout' };
    const a = reproducerName({ ...base, modules: [{ path: '/a.mjs', sha256: 'aa', source: '' }] });
    const b = reproducerName({ ...base, modules: [{ path: '/b.mjs', sha256: 'bb', source: '' }] });
    expect(a).not.toBe(b);
    expect(reproducerName({ ...base, modules: [{ path: '/elsewhere/a.mjs', sha256: 'aa', source: '' }] })).toBe(a);
  });
});

describe('an exception in a reproducer', () => {
  it("is its name, message and the plug-in's frame, never refsem's dist/ paths", async () => {
    const { describeThrown } = await import('../../src/diag.js');
    const e = new RangeError('Invalid array length');
    e.stack = 'RangeError: Invalid array length\n    at apply (file:///home/u/hog.mjs:2:30)\n    at run (file:///opt/refsem/dist/fuzz/check.js:54:5)\n    at node:internal/process/task_queues:95:5';
    expect(describeThrown(e)).toBe('RangeError: Invalid array length (at apply (file:///home/u/hog.mjs:2:30))');
    const inside = new Error('boom');
    inside.stack = 'Error: boom\n    at f (file:///opt/refsem/dist/fuzz/check.js:54:5)';
    expect(describeThrown(inside)).toBe('Error: boom');
  });
});

describe('budgets of explain and html on an rdom of extent 10^18', () => {
  it('explain stops at --budget: exit 2 with a hint to raise it', async () => {
    const r = await runCli(['explain', huge, '--point', 'f(0)', '--budget', '1000']);
    expect(r.stderr).toContain('budget exceeded: the derivation of f(0) needs more than 1000 steps');
    expect(r.stderr).toContain('raise --budget');
    expect(r.code).toBe(2);
  });

  it('html stops at --budget and says so on the page', async () => {
    const out = file('huge.html', '');
    const r = await runCli(['html', huge, '--budget', '1000', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('error shown in the page');
    const page = readFileSync(out, 'utf8');
    expect(page).toContain('iterations, more than the step limit 1000');
    expect(page).toContain('takes more than 1000 steps');
  });
});
