// The run / check / explain / fmt commands: outputs, the JSON contract and exit codes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { examplesDir, scratch } from '../support/files.js';

const ex = (f: string) => join(examplesDir, f);
const { dir, file } = scratch('refsem-alg-');

describe('refsem run', () => {
  it('prints the JSON shape of docs/architecture.md', async () => {
    const r = await runCli(['run', ex('sec22.alg'), '--window', '0+4', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ func: 'f', window: [[0, 4]], values: [1, 5, 13, 25] });
  });

  it('accepts negative minimums in both spellings', async () => {
    const a = await runCli(['run', ex('sec22.alg'), '--window=-3+2', '--json']);
    const b = await runCli(['run', ex('sec22.alg'), '--window', '-3+2', '--json']);
    expect(a.stdout).toBe('{"func":"f","window":[[-3,2]],"values":[13,5]}\n');
    expect(b.stdout).toBe(a.stdout);
  });

  it('prints errors as err:rdom and big integers as strings', async () => {
    const r = await runCli(['run', ex('negative_extent.alg'), '--window', '0+2', '--param', 'n=1', '--json']);
    expect(JSON.parse(r.stdout).values).toEqual(['err:rdom', 'err:rdom']);
    const big = file('big.alg', 'pipeline f() { func f(x) = 4611686018427387904 * x; }');
    expect(JSON.parse((await runCli(['run', big, '--window', '1+2', '--json'])).stdout).values).toEqual(['4611686018427387904', '9223372036854775808']);
  });

  it('prints a grid without --json', async () => {
    const r = await runCli(['run', ex('params.alg'), '--window', '-1+3,0+2', '--param', 'a=2', '--param', 'b=3', '--param', 'hi=5']);
    expect(r.stdout).toBe('y\\x  -1  0  1\n  0   0  0  2\n  1   1  3  5\n');
  });

  it.each([
    [['run', ex('sec22.alg'), '--window', '0+x'], "invalid --window '0+x'"],
    [['run', ex('sec22.alg'), '--window', '0+2,0+2'], 'the window has 2 dimensions'],
    [['run', ex('prefix_sum.alg'), '--window', '0+2', '--param', 'n'], "invalid --param 'n'"],
    [['run', ex('prefix_sum.alg'), '--window', '0+2'], "parameter 'n' is not given"],
    [['run', ex('prefix_sum.alg'), '--window', '0+2', '--param', 'n=1', '--param', 'q=2'], "'q' is not a parameter"],
    [['run', join(dir, 'missing.alg'), '--window', '0+2'], 'no such file'],
    [['run', ex('blur.alg'), '--window', '0+5000,0+5000'], 'more than the limit of 10000000'],
    [['run', ex('blur.alg'), '--window', '0+50,0+50', '--max-points', '100'], 'more than the limit of 100'],
  ])('exits 2 on bad input: %j', async (argv, msg) => {
    const r = await runCli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(msg);
  });
});

describe('refsem check', () => {
  it('accepts a valid program', async () => {
    const r = await runCli(['check', ex('blur.alg')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("valid pipeline 'blur_y'");
  });

  it('reports every violation with its location and exits 2', async () => {
    const bad = file('bad.alg', 'pipeline f() {\n  func f(x) {\n    0;\n    (x) <- f(x + 1) + y;\n  }\n}\n');
    const r = await runCli(['check', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:4:23: error: unknown variable 'y'`);
    expect(r.stderr).toContain(`${bad}:4:14: error: update stage 1 of func 'f' breaks syntactic separation (def. 2.7) in dimension 1`);
  });

  it('reports syntax errors with file:line:col', async () => {
    const bad = file('syn.alg', 'pipeline f() {\n  func f(x) = (x + ;\n}\n');
    const r = await runCli(['check', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${bad}:2:20: error: expected an expression but found ';'\n`);
  });
});

describe('refsem explain and fmt', () => {
  it('prints the derivation with rule IDs, to a chosen depth', async () => {
    const r = await runCli(['explain', ex('sec22.alg'), '--point', 'f(1)', '--depth', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 3)).toEqual(['[REALIZE] realize f() at f(1) ⇓ 5', '  [FUNC-EVAL] f(1) ⇓ 5', '    … 7 more steps below, not shown']);
  });

  it('ends with a clear message when the budget is exceeded', async () => {
    const r = await runCli(['explain', ex('histogram.alg'), '--point', 'hist(0)', '--budget', '50']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('budget exceeded');
  });

  it.each([['f(x)'], ['f(1'], ['3']])('rejects the malformed point %s', async (pt) => {
    const r = await runCli(['explain', ex('sec22.alg'), '--point', pt]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid --point');
  });

  it('formats a program canonically', async () => {
    const messy = file('messy.alg', 'pipeline f(n){func f(x){x;rdom(r=(0,n))in(r)<-f(r)+1 if 1;}}');
    const r = await runCli(['fmt', messy]);
    expect(r.stdout).toBe('pipeline f(n) {\n  func f(x) {\n    x;\n    rdom(r = (0, n)) in (r) <- f(r) + 1;\n  }\n}\n');
  });
});
