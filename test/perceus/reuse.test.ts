// Reuse pairing and reuse specialization as Koka's compiler makes them ([OPT-REUSE],
// [OPT-REUSESPEC]): a constructor takes a token of its size, the same constructor's first, then
// the most recently matched; specialization keeps unchanged fields, constant sub-patterns
// included, when Koka's threshold says it saves enough writes.
import { describe, expect, it } from 'vitest';
import { CONFIGS, applicableChecks, runConfig } from '../../src/perceus/pipeline.js';
import { reuseAnalysis } from '../../src/perceus/opt/reuse.js';
import { reuseSpecialization, worthSpecializing } from '../../src/perceus/opt/reusespec.js';
import { printExpr } from '../../src/perceus/print.js';
import { loadProgram } from '../../src/perceus/scope.js';
import { evalStandard } from '../../src/perceus/standard.js';
import type { Program } from '../../src/perceus/syntax.js';

const TYPES = 'type color { Red; Black }\ntype ab { A(x, y); B(x, y) }\ntype tree { Leaf; Node(color, left, key, right) }\n';
const load = (src: string) => loadProgram(TYPES + src + (src.includes('fun main') ? '' : '\nfun main() = 0\n'), 'r.lam');
const body = (p: Program, f: string) => printExpr(p.funs.find((d) => d.name === f)!.body).replace(/\s+/g, ' ');
const reused = (src: string, f = 'f') => body(reuseAnalysis(load(src)), f);
const specialized = (src: string, f = 'f') => body(reuseSpecialization(reuseAnalysis(load(src))), f);

describe('[OPT-REUSE] pairing', () => {
  it('prefers a cell of the same constructor over a more recent one of another', () => {
    // B(a, d) is built first: the inner B cell is the same constructor; A(c, …) then takes the outer A cell.
    const out = reused('fun f(p) { match p { A(a, b) -> match b { B(c, d) -> A(c, B(a, d)); A(c, d) -> 0 }; B(a, b) -> 0 } }');
    expect(out).toContain('B(c, d) {ru1} -> val t = B@ru1(a, d); A@ru2(c, t)');
    expect(out).toContain('A(a, b) {ru2}');
  });

  it('among cells of the same constructor, takes the most recently matched', () => {
    const out = reused('fun f(p) { match p { A(a, b) -> match b { A(c, d) -> A(1, 2); B(c, d) -> 0 }; B(a, b) -> 0 } }');
    // The inner match's cell is the most recent; the outer one is left alone (no token).
    expect(out).toContain('A(c, d) {ru1} -> A@ru1(1, 2)');
    expect(out).not.toContain('ru2');
  });

  it('pairs by size: a constructor of another arity takes no token', () => {
    expect(reused('fun f(p) { match p { A(a, b) -> Node(Red, Leaf, a, b); B(a, b) -> Leaf } }')).not.toContain('@');
  });

  it('never gives a token to a constructor inside a lambda (another activation)', () => {
    const out = reused('fun f(p) { match p { A(a, b) -> \\z -> A(a, z); B(a, b) -> \\z -> z } }');
    expect(out).not.toContain('@');
  });

  it('a token used in one branch of an inner if is gone after it', () => {
    const out = reused('fun f(p, n) { match p { A(a, b) -> { val q = if n then A(a, b) else B(b, a); A(q, 0) }; B(a, b) -> p2(a, b) } }\nfun p2(a, b) = A(a, b)');
    // A(q, 0) is allocated after the if used the token on both paths: it gets a fresh cell.
    expect(out).toContain('A@ru1(a, b)');
    expect(out).toContain('B@ru1(b, a)');
    expect(out).toContain('A(q, 0)');
  });
});

describe('[OPT-REUSESPEC] specialization', () => {
  it("uses Koka's threshold: unchanged fields plus an unchanged tag reach 1 + ⌊(1 + n)/4⌋", () => {
    expect(worthSpecializing(true, 1, 4)).toBe(true); // 2 ≥ 2
    expect(worthSpecializing(false, 1, 4)).toBe(false); // 1 < 2
    expect(worthSpecializing(false, 2, 4)).toBe(true);
    expect(worthSpecializing(true, 1, 7)).toBe(false); // 2 < 3
    expect(worthSpecializing(true, 2, 7)).toBe(true);
  });

  it('counts a constant sub-pattern as an unchanged field', () => {
    const out = specialized('fun f(t, k) { match t { Node(c, l, x, r) -> match c { Red -> Node(Red, l, k, r); Black -> Node(Black, l, x, r) }; Leaf -> Leaf } }');
    expect(out).toContain('Node@ru1(=Red, =l, k, =r)');
    expect(out).toContain('Node@ru1(=Black, =l, =x, =r)');
  });

  it('keeps fields of a token from another constructor of the same size when enough stay', () => {
    expect(specialized('fun f(p) { match p { A(a, b) -> B(a, b); B(a, b) -> A(b, a) } }')).toContain('B@ru1(=a, =b)');
    // For two fields one unchanged field is enough, even with a new tag (1 ≥ 1 + ⌊3/4⌋).
    expect(specialized('fun f(p) { match p { A(a, b) -> B(a, 1); B(a, b) -> A(b, a) } }')).toContain('B@ru1(=a, 1)');
  });

  it('never keeps a field from another position', () => {
    expect(specialized('fun f(p) { match p { A(a, b) -> A(b, a); B(a, b) -> B(a, b) } }')).toContain('A@ru1(b, a)');
  });

  it('specialized programs pass every check under every configuration', () => {
    const core = load('fun f(t, k) { match t { Node(c, l, x, r) -> match c { Red -> Node(Red, l, k, r); Black -> Node(Black, f(l, k), x, r) }; Leaf -> Node(Red, Leaf, k, Leaf) } }\nfun main() { val t = f(f(f(Leaf, 1), 2), 3); val u = t; match u { Node(c, l, x, r) -> A(f(t, 4), x); Leaf -> A(0, 0) } }');
    const reference = evalStandard(core);
    for (const c of CONFIGS) expect(runConfig(core, c, { checks: applicableChecks(c), reference }).verdict, c.name).toEqual({ ok: true });
  });
});
