// Example tests for the λ1 rules no other test exercises by name: the linearity rules of fig. 4.5
// (each shown failing at its own construct), the syntax-directed rules of fig. 4.8 in a
// derivation, and the conditional rules of the standard semantics and of the heap machine.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { example, scratch } from '../support/files.js';

const { file } = scratch('refsem-perceus-rules-');

/**
 * A program whose lambda owns its parameter `a` but whose body, of the construct under test,
 * never consumes it: fig. 4.5 fails at that construct, so the error names its rule.
 */
async function lambdaBody(body: string, captured = ''): Promise<string> {
  const params = captured ? `(${captured})` : '()';
  const arg = captured ? '\\z -> z' : '';
  const src = `type list { Nil; Cons(head, tail) }\nfun g(b) = b\nfun f${params} { val h = \\a -> ${body}; h(2) }\nfun main() = f(${arg})\n`;
  const r = await runCli(['rc', file('body.lam', src), '--annotated']);
  expect(r.code).toBe(1);
  return r.stdout + r.stderr;
}

describe('linearity rules (fig. 4.5) name the construct where a derivation fails', () => {
  it.each([
    ['LIN-LIT', '1', '1 consumes {}'],
    ['LIN-PRIM', '1 + 2', '1 + 2 consumes {}'],
    ['LIN-CALL', 'g(1)', 'g(1) consumes {}'],
    ['LIN-CON', 'Cons(1, Nil)', 'Cons(1, Nil) consumes {}'],
    ['LIN-LAM', '\\b -> b', '\\b -> b consumes {}'],
  ])('[%s]: a lambda body `%s` that leaves its parameter unconsumed', async (rule, body, consumes) => {
    const out = await lambdaBody(body);
    expect(out).toContain(`[${rule}] owned environment {a} but ${consumes}`);
  });

  it.each([
    ['LIN-APP', 'k(1)'],
    ['LIN-IF', 'if k then 2 else 3'],
  ])('[%s]: a lambda body `%s` that consumes its capture but not its parameter', async (rule, body) => {
    const out = await lambdaBody(body, 'k');
    expect(out).toContain(`[${rule}] owned environment {a, k} but ${body} consumes {k}`);
  });

  it('[LIN-DUP]: a dup of a name nothing later consumes has nothing to duplicate into', async () => {
    const r = await runCli(['rc', file('dup0.lam', 'fun f(x) { val g = \\a -> { dup x; a }; x + g(2) }\nfun main() = f(1)\n'), '--annotated']);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/\[LIN-DUP\] 'dup x' has nothing to duplicate into: x is never consumed in dup x; a/);
  });

  it('[LIN-DUP]: a dup of a name consumed later is derivable (the name is borrowed there)', async () => {
    const r = await runCli(['rc', file('dup.lam', 'fun f(x) { val y = (dup x; 1); x + x + y }\nfun main() = f(1)\n'), '--annotated']);
    expect(r.stdout).toContain('derivable: every function is derivable');
    expect(r.stdout).toContain('result: 3');
  });

  it('[LIN-MATCH]: a branch owns its binders; dropping the unused one makes it derivable', async () => {
    const list = 'type list { Nil; Cons(head, tail) }\n';
    const bad = await runCli(['rc', file('m1.lam', `${list}fun f(xs) { match xs { Cons(h, t) -> h Nil -> 0 } }\nfun main() = f(Cons(1, Nil))\n`), '--annotated']);
    expect(bad.stdout + bad.stderr).toContain('[LIN-MATCH] the Cons branch owns {h, t} but consumes {h}');
    const good = await runCli(['rc', file('m2.lam', `${list}fun f(xs) { match xs { Cons(h, t) -> { drop t; h } Nil -> 0 } }\nfun main() = f(Cons(1, Nil))\n`), '--annotated']);
    expect(good.stdout).toContain('result: 1');
  });
});

describe('syntax-directed rules (fig. 4.8) in the derivation of map', () => {
  it('[SCALL], [SPRIM] and [SIF] derive the call, primitive and conditional of map.lam', async () => {
    const r = await runCli(['rc', file('map.lam', example('perceus/map.lam')), '--derivation']);
    expect(r.code).toBe(0);
    // the recursive call borrows nothing it consumes: map(xx, f) passes both owned names on
    expect(r.stdout).toMatch(/\[SCALL\] \{t\} \| \{f, xx\} ⊢s map\(xx, f\) ⇝ map\(xx, f\)/);
    // a primitive borrows its operands, so the owned lo and hi are duplicated into it
    expect(r.stdout).toMatch(/\[SPRIM\] \{lo, hi\} \| \{\} ⊢s lo > hi ⇝ \(dup lo; lo\) > \(dup hi; hi\)/);
    // the branch that does not use lo and hi drops them
    expect(r.stdout).toMatch(/\[SIF\] .* ⇝ if t then \{ drop lo; drop hi; Nil \}/);
  });
});

describe('conditionals at run time', () => {
  it('[STD-IF]: the standard semantics takes a branch per test of range', async () => {
    const r = await runCli(['rc', file('map2.lam', example('perceus/map.lam')), '--standard', '--trace']);
    expect(r.code).toBe(0);
    // range(1, 10) tests lo > hi eleven times: ten false, one true
    expect(r.stdout.match(/\[STD-IF\]/g)).toHaveLength(11);
  });

  it('[IF-R]: the heap machine takes the same eleven branches', async () => {
    const r = await runCli(['rc', file('map3.lam', example('perceus/map.lam')), '--trace']);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/\[IF-R\]/g)).toHaveLength(11);
  });
});
