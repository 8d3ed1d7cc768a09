// `refsem bounds` and `refsem exec` in-process: outputs, JSON shape and exit codes for bad input.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';
import { shutdownZ3 } from '../../src/expr/smt.js';

afterAll(async () => {
  await shutdownZ3();
});

const { dir, file } = scratch('refsem-bounds-');
const sec22 = file('sec22.alg', 'pipeline f() { func g(x) = x * x; func f(x) = g(x) + g(x + 1); }\n');
const lookup = file('lookup.alg', 'pipeline o() { func l(x) = x % 5; func o(x) = l(l(x)); }\n');
const tiles = file('tiles.sched', 'split f.x into xo, xi by 3\ncompute-at g at f.xo\nstore-at g at f.xo\n');

describe('refsem exec', () => {
  it('prints the output of the completed program in the JSON shape of docs/architecture.md', async () => {
    const r = await runCli(['exec', sec22, '--schedule', tiles, '--window=-2+5', '--json']);
    expect(r.code).toBe(0);
    // f is allocated on whole tiles (6 points), but the JSON reports the requested window only.
    expect(JSON.parse(r.stdout)).toEqual({ func: 'f', window: [[-2, 5]], values: [5, 1, 1, 5, 13] });
  });
  it('adds "outcome" when the run got stuck, and explains a failed engine', async () => {
    const r = await runCli(['exec', lookup, '--window', '0+3', '--json']);
    expect(r.code).toBe(1); // a stuck run exits 1 (spec/target.md)
    expect(JSON.parse(r.stdout)).toMatchObject({ func: 'o', outcome: { kind: 'assert-failed' } });
    expect(r.stderr).toMatch(/bounds engine beta0 failed.*\?mem l\.x is unbounded/);
  });
  it('prints the verdict with --compare', async () => {
    const r = await runCli(['exec', lookup, '--engine', 'beta1', '--window', '0+3', '--compare']);
    expect(r.stdout).toMatch(/^\[VERDICT-EQUAL\]/);
    expect(r.code).toBe(0);
  });
});

describe('refsem bounds', () => {
  it('refutes a wrong plug-in completion with exit 1 and proves β0 with exit 0', async () => {
    const eng = file('window.mjs', "export default { name: 'w', complete: (t, q) => ({ ok: true, completion: Object.fromEntries(q.holes.map(({ key, hole }) => [key, hole.end === 'min' ? 'x.min' : 'x.len'])) }) };\n");
    const bad = await runCli(['bounds', sec22, '--engine', eng, '--verify']);
    expect(bad.stdout).toMatch(/\[CHECK-Z3\] refuted: the query fails on --window -?\d+\+\d+/);
    expect(bad.code).toBe(1);
    const good = await runCli(['bounds', sec22, '--verify', '--range', 'x.len=0..1000']);
    expect(good.stdout).toMatch(/\[CHECK-Z3\] proved: the query holds for all x\.min ∈ \[-64, 64\], x\.len ∈ \[0, 1000\]/);
    expect(good.code).toBe(0);
  }, 60_000);
  it('reports bad input with exit 2 and no stack trace', async () => {
    const throwing = file('throw.mjs', "export default { name: 't', complete() { throw new Error('nope'); } };\n");
    const notEngine = file('plain.mjs', 'export const x = 1;\n');
    const cases: [string[], RegExp][] = [
      [['bounds', sec22, '--engine', 'beta7'], /unknown bounds engine 'beta7'/],
      [['bounds', sec22, '--engine', throwing], /bounds engine 't' threw: nope/],
      [['bounds', sec22, '--engine', notEngine], /does not export a bounds engine/],
      [['bounds', sec22, '--engine', join(dir, 'absent.mjs')], /cannot load bounds engine module/],
      [['bounds', sec22, '--verify', '--range', 'x.len=3..1'], /the range is empty/],
      [['bounds', sec22, '--verify', '--range', 'x.len:3'], /expected NAME=LO\.\.HI/],
      [['bounds', sec22, '--verify', '--range', 'n=0..3'], /'n', which is not a parameter/],
      [['bounds', sec22, '--quality'], /--quality needs an input/],
    ];
    for (const [argv, msg] of cases) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);
  it('traces β0 with rule IDs', async () => {
    const r = await runCli(['bounds', sec22, '--trace']);
    expect(r.stdout).toMatch(/^\[BETA0-IN\] f\.x ∈ \?cpu f\.x: add \[x\.min, x\.min \+ x\.len - 1\]$/m);
    expect(r.stdout).toMatch(/^\[BETA0-LIFT\] \?cpu g\.x = \[x\.min, x\.min \+ x\.len\]$/m);
  });
});
