// `refsem rc`: output, checks, exit codes and bad input.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';

const { dir, file } = scratch('refsem-rc-');
const MAP = file(
  'map.lam',
  `type list { Nil; Cons(head, tail) }
fun map(xs, f) {
  match xs {
    Cons(x, xx) -> Cons(f(x), map(xx, f))
    Nil -> Nil
  }
}
fun main() = map(Cons(1, Cons(2, Nil)), \\x -> x * 10)
`,
);

describe('refsem rc', () => {
  it('prints the result and statistics', async () => {
    const r = await runCli(['rc', MAP, '--opt', 'all', '--stats', '--check', 'all']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('result: Cons(10, Cons(20, Nil))\n');
    expect(r.stdout).toMatch(/stats: steps=\d+ allocs=3 frees=3 reuses=2 /);
    expect(r.stdout).toContain('checks passed: soundness, garbage, precision, counts, empty');
  });
  it('prints the annotated program as in fig. 4.1', async () => {
    const r = await runCli(['rc', MAP, '--opt', 'all', '--print']);
    expect(r.stdout).toContain('val ru1 = if is-unique(xs) then { &xs } else { dup x; dup xx; decref(xs); NULL };');
    expect(r.stdout).toContain('Cons@ru1(');
  });
  it('shows that the scoped baseline is not precise: exit 1 with the named check', async () => {
    const r = await runCli(['rc', MAP, '--scoped', '--check', 'precision']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^violation: precision: step \d+ \[[A-Z-]+\]: #\d+ \w+ \(rc=\d+\) is unreachable from the erased expression/m);
    expect((await runCli(['rc', MAP, '--scoped', '--check', 'all'])).code).toBe(0);
  });
  it('checks hand-annotated programs against fig. 4.5', async () => {
    const bad = file('bad.lam', 'type list { Nil; Cons(h, t) }\nfun main() {\n  val p = Cons(1, Nil);\n  Cons(p, p)\n}\n');
    const r = await runCli(['rc', bad, '--annotated']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^not derivable: .*bad\.lam:3:3: in main: \[LIN-BIND\]/);
    const good = file('good.lam', 'type list { Nil; Cons(h, t) }\nfun main() {\n  val p = Cons(1, Nil);\n  dup p;\n  Cons(p, p)\n}\n');
    const g = await runCli(['rc', good, '--annotated', '--check', 'all']);
    expect(g.code).toBe(0);
    expect(g.stdout).toContain('result: Cons(Cons(1, Nil), Cons(1, Nil))');
  });
  it('[RC-CHECK-BUDGET] a recursion 10,000 deep ends within the check budget, inconclusive, naming the step checked up to (it ran for minutes)', async () => {
    const deep = file('deep.lam', 'type list { Nil; Cons(h, t) }\nfun range(lo, hi) = if lo > hi then Nil else Cons(lo, range(lo + 1, hi))\nfun sum(xs, acc) {\n  match xs {\n    Cons(x, xx) -> sum(xx, acc + x)\n    Nil -> acc\n  }\n}\nfun main() = sum(range(1, 10000), 0)\n');
    const r = await runCli(['rc', deep, '--check', 'all', '--max-check-work', '2000000']);
    expect(r.stdout).toContain('result: 50005000\nchecks passed: soundness, empty\n');
    expect(r.stdout).toMatch(/inconclusive: garbage, precision, counts checked up to step \d+ of \d+ only: the check budget \(--max-check-work 2000000\) ran out there/);
    expect(r.code).toBe(4);
    // a violation before the budget runs out is still found
    const scoped = await runCli(['rc', MAP, '--scoped', '--check', 'precision', '--max-check-work', '1000']);
    expect(scoped.code).toBe(1);
  });
  it('runs the standard semantics with a trace', async () => {
    const r = await runCli(['rc', MAP, '--standard', '--trace']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[STD-MATCH]');
    expect(r.stdout).toContain('result: Cons(10, Cons(20, Nil))');
  });
  it('bad input: messages with locations and exit code 2, never a crash', async () => {
    const unbound = await runCli(['rc', file('u.lam', 'fun main() = x\n')]);
    expect(unbound).toMatchObject({ code: 2 });
    expect(unbound.stderr).toMatch(/u\.lam:1:14: error: unbound variable 'x'/);
    const loop = await runCli(['rc', file('loop.lam', 'fun loop(n) = loop(n + 1)\nfun main() = loop(0)\n'), '--max-steps', '1000']);
    expect(loop.code).toBe(2);
    expect(loop.stderr).toMatch(/loop\.lam:1:\d+: error: step budget of 1000 exhausted/);
    const stuck = await runCli(['rc', file('s.lam', 'fun main() {\n  val x = 1;\n  x(2)\n}\n')]);
    expect(stuck.code).toBe(2);
    expect(stuck.stderr).toMatch(/s\.lam:3:3: error: stuck at step \d+: application of a value that is not a function/);
    expect((await runCli(['rc', MAP, '--opt', 'fast'])).code).toBe(2);
    expect((await runCli(['rc', MAP, '--check', 'nothing'])).code).toBe(2);
  });
});

describe('refsem fuzz --stats on the perceus property', () => {
  it('counts the cases that fire each Perceus rule', async () => {
    const r = await runCli(['fuzz', '--property', 'perceus', '--runs', '6', '--seed', '1', '--jobs', '1', '--stats', '--out', join(dir, 'fuzz')]);
    expect(r.code).toBe(0);
    for (const rule of ['SMATCH', 'DROPSPEC-R', 'OPT-REUSE', 'LIN-MATCH', 'STD-MATCH']) expect(r.stdout).toMatch(new RegExp(`perceus rule ${rule} +6\\n`));
  }, 120_000);

  it('rejects a default branch that is not last with its location (exit 2)', async () => {
    const bad = file('default.lam', 'type t { A; B(x) }\nfun main() = match B(1) { _ -> 0; A -> 1 }\n');
    const r = await runCli(['rc', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/default\.lam:2:27: error: the default branch '_' must come last/);
  });
});
