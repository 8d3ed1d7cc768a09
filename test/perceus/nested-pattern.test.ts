// Nested patterns ([NESTED-PATTERN]): rows tried in order, each testing its sub-patterns left to
// right and falling through; matched values named by their rebuilds, so no scrutinee is copied.
import { describe, expect, it } from 'vitest';
import { CONFIGS, SINGLE_PASS_CONFIGS, applicableChecks, runConfig } from '../../src/perceus/pipeline.js';
import { printExpr } from '../../src/perceus/print.js';
import { loadProgram } from '../../src/perceus/scope.js';
import { evalStandard, printValue } from '../../src/perceus/standard.js';
import { userError } from '../support/errors.js';

const TREE = 'type color { Red; Black }\ntype tree { Leaf; Node(color, lchild, key, value, rchild) }\ntype expr { Val(n); Var(n); Add(l, r) }\n';
const BALANCE = `fun bal(l, k, v, r) {
  match l {
    Leaf -> Leaf
    Node(_, Node(Red, lx, kx, vx, rx), ky, vy, ry) -> Node(Red, Node(Black, lx, kx, vx, rx), ky, vy, Node(Black, ry, k, v, r))
    Node(_, ly, ky, vy, Node(Red, lx, kx, vx, rx)) -> Node(Red, Node(Black, ly, ky, vy, lx), kx, vx, Node(Black, rx, k, v, r))
    Node(_, lx, kx, vx, rx) -> Node(Black, Node(Red, lx, kx, vx, rx), k, v, r)
  }
}
`;
const load = (src: string) => loadProgram(TREE + src, 'n.lam');
const result = (src: string) => {
  const r = evalStandard(load(src));
  return r.kind === 'value' ? printValue(r.value) : r.kind;
};

describe('[NESTED-PATTERN] nested patterns', () => {
  it('tries the rows in order, falling through when a sub-pattern fails', () => {
    const node = (l: string, r: string) => `Node(Red, ${l}, 2, 0, ${r})`;
    const leaf1 = 'Node(Red, Leaf, 1, 0, Leaf)';
    expect(result(BALANCE + `fun main() = bal(${node(leaf1, 'Leaf')}, 3, 0, Leaf)`)).toBe('Node(Red, Node(Black, Leaf, 1, 0, Leaf), 2, 0, Node(Black, Leaf, 3, 0, Leaf))');
    expect(result(BALANCE + `fun main() = bal(${node('Leaf', leaf1)}, 3, 0, Leaf)`)).toBe('Node(Red, Node(Black, Leaf, 2, 0, Leaf), 1, 0, Node(Black, Leaf, 3, 0, Leaf))');
    // Neither child red: the last row, with the matched node rebuilt.
    const black = 'Node(Black, Leaf, 1, 0, Leaf)';
    expect(result(BALANCE + `fun main() = bal(${node(black, 'Leaf')}, 3, 0, Leaf)`)).toBe('Node(Black, Node(Red, Node(Black, Leaf, 1, 0, Leaf), 2, 0, Leaf), 3, 0, Leaf)');
  });

  it('tests integers and nullary constructors, and a default row catches the rest', () => {
    const f = 'fun f(a, b) {\n  match a {\n    Val(0) -> b\n    Add(Val(n), Var(m)) -> Val(n + m)\n    _ -> a\n  }\n}\n';
    expect(result(f + 'fun main() = f(Val(0), Var(7))')).toBe('Var(7)');
    expect(result(f + 'fun main() = f(Val(4), Var(7))')).toBe('Val(4)');
    expect(result(f + 'fun main() = f(Add(Val(2), Var(3)), Leaf)')).toBe('Val(5)');
    expect(result(f + 'fun main() = f(Add(Var(2), Var(3)), Leaf)')).toBe('Add(Var(2), Var(3))');
  });

  it('copies no scrutinee: matched values are named by their rebuilds', () => {
    const body = printExpr(load(BALANCE + 'fun main() = 0').funs.find((d) => d.name === 'bal')!.body);
    // A copy `val x'k = y` would precede a match on a value still needed.
    expect(body).not.toMatch(/val \S+ = [a-z_'0-9]+;/);
  });

  it('passes every check under every configuration, and reuses the matched cells', () => {
    const core = load(BALANCE + 'fun main() { val a = bal(Node(Red, Node(Red, Leaf, 1, 0, Leaf), 2, 0, Leaf), 3, 0, Leaf); val b = bal(Node(Red, Leaf, 1, 0, Node(Red, Leaf, 2, 0, Leaf)), 3, 0, a); Node(Black, a, 0, 0, b) }');
    const reference = evalStandard(core);
    for (const c of [...CONFIGS, ...SINGLE_PASS_CONFIGS]) expect(runConfig(core, c, { checks: applicableChecks(c), reference }).verdict, c.name).toEqual({ ok: true });
    expect(runConfig(core, CONFIGS.find((c) => c.name === '+reuse')!).result.stats.reuses).toBeGreaterThanOrEqual(4);
  });

  it('reports a constructor no row fully matches, and arity mistakes, with locations', () => {
    expect(userError(() => load('fun main() = match Val(1) { Val(0) -> 1; Var(n) -> 2; Add(l, r) -> 3 }')).message).toBe('non-exhaustive match: no pattern matches every Val');
    expect(userError(() => load('fun main() = match Val(1) { Add(Val(a, b), r) -> 1; _ -> 2 }')).render()).toMatch(/^n\.lam:4:29: error: pattern 'Val' needs 1 binder\(s\) but has 2/);
  });
});
