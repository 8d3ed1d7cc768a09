// Example tests for the rules: parsing and scope errors, the syntax-directed translation and its
// derivation, the declarative checker, the standard semantics, and the heap machine's rules.
import { describe, expect, it } from 'vitest';
import { checkDerivable } from '../../src/perceus/declarative.js';
import { type TraceLine, run } from '../../src/perceus/heap-machine.js';
import { compile } from '../../src/perceus/heap-compile.js';
import { CONFIGS, annotate, applicableChecks, runAnnotated, runConfig } from '../../src/perceus/pipeline.js';
import { printExpr } from '../../src/perceus/print.js';
import { loadProgram, normalize, resolve } from '../../src/perceus/scope.js';
import { parseProgram } from '../../src/perceus/parse.js';
import { evalStandard, printValue } from '../../src/perceus/standard.js';
import type { Program } from '../../src/perceus/syntax.js';
import { perceus, printDerivation } from '../../src/perceus/syntax-directed.js';
import { userError } from '../support/errors.js';

const LIST = 'type list { Nil; Cons(head, tail) }\n';
const load = (src: string) => loadProgram(LIST + src, 't.lam');
const body = (p: Program, f = 'main') => printExpr(p.funs.find((d) => d.name === f)!.body).replace(/\s+/g, ' ');
const perceusBody = (src: string, f = 'main') => body(perceus(load(src)).program, f);


describe('scope checks', () => {
  it('reports unbound variables with their location', () => {
    const e = userError(() => load('fun main() {\n  val x = 1;\n  y\n}'));
    expect(e.render()).toBe("t.lam:4:3: error: unbound variable 'y'\n  hint: declare it with val, as a parameter, or as a top-level fun");
  });
  it('reports constructor arity mismatches', () => {
    expect(userError(() => load('fun main() = Cons(1)')).message).toBe("constructor 'Cons' takes 2 argument(s) but is given 1");
  });
  it('reports non-exhaustive matches', () => {
    expect(userError(() => load('fun main() = match Nil { Nil -> 0 }')).message).toBe('non-exhaustive match: no branch for Cons');
  });
  it('reports syntax errors with file:line:col', () => {
    expect(userError(() => load('fun main() = (1')).render()).toMatch(/^t\.lam:2:16: error: expected '\)'/);
  });
  it('rebinds a scrutinee that is still needed, because [SMATCH] consumes it', () => {
    expect(body(load('fun main() { val xs = Cons(1, Nil); match xs { Cons(x, r) -> xs; Nil -> xs } }'))).toContain("val xs'1 = xs; match xs'1");
  });
});

describe('syntax-directed rules (fig. 4.8)', () => {
  it('[SVAR-DUP] and [SAPP]: a variable used twice is duplicated where it is borrowed', () => {
    expect(perceusBody('fun main() { val f = \\x -> x; val y = 1; val p = Cons(y, Nil); f(p) }')).toBe('val f = \\x -> x; val y = 1; val p = Cons(y, Nil); f(p)');
    expect(perceusBody('fun main() { val p = Cons(1, Nil); Cons(p, p) }')).toBe('val p = Cons(1, Nil); Cons(dup p; p, p)');
  });
  it('[SLAM-D] drops an unused parameter; [SLAM] duplicates borrowed captures', () => {
    expect(perceusBody('fun main() { val p = Cons(1, Nil); val k = \\y -> p; Cons(k, p) }')).toBe('val p = Cons(1, Nil); val k = { dup p; \\y -> { drop y; p } }; Cons(k, p)');
  });
  it('[SBIND-D] drops an unused binding right away', () => {
    expect(perceusBody('fun main() { val p = Cons(1, Nil); 5 }')).toBe('val p = Cons(1, Nil); drop p; 5');
  });
  it('[SMATCH] drops in each branch what that branch does not use', () => {
    expect(perceusBody('fun f(xs, y) { match xs { Cons(h, t) -> t; Nil -> y } }\nfun main() = f(Nil, Nil)', 'f')).toBe('match xs { Cons(h, t) -> drop y; drop h; t Nil -> y }');
  });
  it('prints a derivation naming the rules', () => {
    const d = perceus(load('fun main() { val p = Cons(1, Nil); Cons(p, p) }'), true).derivations.get('main')!;
    const text = printDerivation(d);
    expect(text.split('\n')[0]).toMatch(/^\[SFUN\]/);
    for (const r of ['SBIND', 'SCON', 'SVAR-DUP', 'SVAR', 'SLIT']) expect(text).toContain(`[${r}]`);
  });
});

describe('declarative rules (fig. 4.5)', () => {
  const annotated = (src: string) => normalize(resolve(parseProgram(LIST + src, 'a.lam')));
  it('accepts Perceus output (theorem 4.3) and the scoped-free hand annotation', () => {
    expect(checkDerivable(perceus(load('fun main() { val p = Cons(1, Nil); Cons(p, p) }')).program)).toBeUndefined();
    expect(checkDerivable(annotated('fun main() { val p = Cons(1, Nil); dup p; Cons(p, p) }'))).toBeUndefined();
  });
  it('rejects a missing dup, a double drop and a dup of nothing, naming the rule', () => {
    expect(checkDerivable(annotated('fun main() { val p = Cons(1, Nil); Cons(p, p) }'))).toMatchObject({ rule: 'LIN-BIND' });
    expect(checkDerivable(annotated('fun main() { val p = Cons(1, Nil); drop p; drop p; 1 }'))).toMatchObject({ fun: 'main' });
    expect(checkDerivable(annotated('fun f(x) { dup x; x }\nfun main() = f(1)'))).toMatchObject({ rule: 'LIN-FUN' });
  });
});

describe('standard semantics (fig. 4.6)', () => {
  it('evaluates with named steps', () => {
    const trace: { rule: string }[] = [];
    const r = evalStandard(load('fun id(x) = x\nfun main() { val f = \\x -> x + 1; match Cons(f(1), Nil) { Cons(h, t) -> id(h); Nil -> 0 } }'), 1000, trace as never);
    expect(r.kind === 'value' && printValue(r.value)).toBe('2');
    const rules = new Set(trace.map((t) => t.rule));
    for (const x of ['STD-APP', 'STD-BIND', 'STD-MATCH', 'STD-CALL', 'STD-PRIM', 'STD-EVAL']) expect(rules).toContain(x);
  });
  it('stops at the step budget', () => {
    expect(evalStandard(load('fun loop(n) = loop(n + 1)\nfun main() = loop(0)'), 500).kind).toBe('budget');
  });
});

describe('heap machine (fig. 4.7)', () => {
  const rulesOf = (src: string, cfgName: string) => {
    const c = CONFIGS.find((x) => x.name === cfgName)!;
    const trace: TraceLine[] = [];
    const r = run(compile(annotate(load(src), c), c.formal ?? false), { trace });
    return { r, rules: new Set(trace.map((t) => t.rule)) };
  };
  const prog = 'fun main() { val k = 7; val f = \\x -> x + k; val l = Cons(f(1), Nil); match l { Cons(h, t) -> h; Nil -> 0 } }';
  it('formal machine uses [MATCH-R], [APP-R], [DLAM-R], [DCON-R]', () => {
    const { r, rules } = rulesOf(prog, 'formal');
    expect(r.value).toBe(8);
    for (const x of ['MATCH-R', 'APP-R', 'LAM-R', 'CON-R', 'BIND-R', 'DUP-R', 'DROP-R', 'DLAM-R', 'DCON-R', 'PRIM-R']) expect(rules).toContain(x);
  });
  it('elaborated machine uses [MATCH-E]; reuse uses [DROPSPEC-R] and [CONRU-R]', () => {
    expect(rulesOf(prog, 'perceus').rules).toContain('MATCH-E');
    const m = rulesOf('fun inc(xs) = match xs { Cons(h, t) -> Cons(h + 1, inc(t)); Nil -> Nil }\nfun main() = inc(Cons(1, Cons(2, Nil)))', '+reuse');
    expect(m.rules).toContain('DROPSPEC-R');
    expect(m.rules).toContain('CONRU-R');
    expect(m.r.stats.reuses).toBe(2);
  });
  it('[DROP-TOKEN-R]: a path that does not build releases the reserved cell, and every check holds', () => {
    const src = 'fun f(xs) = match xs { Cons(h, t) -> if h > 1 then Cons(h, t) else t; Nil -> Nil }\nfun main() = f(Cons(1, Cons(2, Nil)))';
    const m = rulesOf(src, '+reuse');
    expect(m.rules).toContain('DROP-TOKEN-R');
    expect(m.r.stats.reuses).toBe(0);
    const p = load(src);
    const c = CONFIGS.find((x) => x.name === '+reusespec')!;
    expect(runConfig(p, c, { checks: applicableChecks(c), reference: evalStandard(p) }).verdict).toEqual({ ok: true });
  });
  it('a stuck program is a named outcome with a location', () => {
    const r = runConfig(load('fun main() {\n  val x = 1;\n  x(2)\n}'), CONFIGS[2]!);
    expect(r.result.stop).toMatchObject({ kind: 'stuck', reason: 'application of a value that is not a function', loc: { line: 4, col: 3 } });
  });
  it('a broken annotation is caught by the count check with the step and the entry', () => {
    const p = normalize(resolve(parseProgram(LIST + 'fun main() { val p = Cons(1, Nil); drop p; drop p; 0 }', 'a.lam')));
    const r = runAnnotated(p, { name: 'x', formal: true, opts: new Set() }, { checks: new Set(['counts']) });
    expect(r.verdict).toMatchObject({ ok: false, check: 'counts' });
    expect(r.verdict.ok || r.verdict.message).toMatch(/#\d+ Cons \(rc=1\) has count 1 but 2 reference\(s\)/);
    // Without the count check, the second drop meets a freed entry: a soundness violation.
    expect(runAnnotated(p, { name: 'x', formal: true, opts: new Set() }).verdict).toMatchObject({ ok: false, check: 'soundness' });
    const leak = normalize(resolve(parseProgram(LIST + 'fun main() { val p = Cons(1, Nil); dup p; drop p; 0 }', 'a.lam')));
    const r2 = runAnnotated(leak, { name: 'x', formal: true, opts: new Set() }, { checks: new Set(['garbage', 'empty']) });
    expect(r2.verdict).toMatchObject({ ok: false, check: 'garbage' });
    expect(r2.verdict.ok || r2.verdict.message).toMatch(/^step \d+ \[[A-Z-]+\]: #\d+ Cons \(rc=1\) is unreachable/);
  });
  it('every configuration passes its checks on the map example', () => {
    const p = load('fun map(xs, f) = match xs { Cons(x, xx) -> Cons(f(x), map(xx, f)); Nil -> Nil }\nfun main() { val k = 3; map(Cons(1, Cons(2, Nil)), \\x -> x + k) }');
    for (const c of CONFIGS) {
      const ref = evalStandard(p);
      const r = runConfig(p, c, { checks: applicableChecks(c), reference: ref });
      expect(r.verdict, c.name).toEqual({ ok: true });
      expect(r.value).toBe('Cons(4, Cons(5, Nil))');
    }
  });
});
