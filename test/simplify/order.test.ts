// Termination [SIMP-ORDER]: every built-in rule strictly decreases the reduction order of the
// TRS paper's appendix (spec/simplify.md), the order's three parts behave as defined there, and the decrease survives
// substituting terms for the wildcards (closure under substitution, which makes checking l > r
// per rule enough).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Expr, substExpr, walkExpr } from '../../src/expr/ast.js';
import { parseExprText } from '../../src/expr/parse.js';
import { arbExpr } from '../../src/fuzz/arbitraries/expr.js';
import { BUILTIN_RULES } from '../../src/simplify/builtin-rules.js';
import { measure, reduces, ruleDecreases } from '../../src/simplify/order.js';
import { applyRule } from '../../src/simplify/match.js';
import { isConstWildcard } from '../../src/simplify/rule.js';
import { FAULTS } from '../../src/fuzz/zoo/faults.js';
import { parseRules } from '../../src/simplify/parse-rules.js';

const p = (s: string): Expr => parseExprText(s, 'alg');

describe('reduction order [SIMP-ORDER]', () => {
  it.each(BUILTIN_RULES.map((r) => [r.name, r] as const))('rule %s decreases it', (_n, r) => {
    expect(ruleDecreases(r)).toEqual({ greater: true });
  });

  it('compares operator histograms from the strongest operator down', () => {
    expect(reduces(p('x / 2'), p('x * 2 + 1'))).toEqual({ greater: true });
    expect(reduces(p('x + 1'), p('x - 1'))).toEqual({ greater: false, why: 'more - on the right (1) than on the left (0)' });
    expect(measure(p('min(x, y) + max(x, y)')).histogram).toEqual([0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0]);
  });

  it('needs every term wildcard at least as often on the left (the TRS paper’s x1 ⊗ x2 vs x2 ⊕ x2)', () => {
    expect(reduces(p('x * y'), p('y + y'))).toEqual({ greater: false, why: "'y' occurs 2 times on the right but 1 on the left" });
  });

  it('breaks ties by the root: a weaker root on the left', () => {
    expect(reduces(p('select(x, y, z) - y'), p('select(x, 0, z - y)'))).toEqual({ greater: true });
    expect(reduces(p('select(x, 0, z - y)'), p('select(x, y, z) - y')).greater).toBe(false);
    // A commutation can never decrease it, which is why the rules carry both argument orders.
    expect(reduces(p('x + c0'), p('c0 + x')).greater).toBe(false);
  });

  it('counts a right-hand part made of constant wildcards as the constant it folds to', () => {
    const [r] = parseRules('values a: (x + c0) + c1 -> x + (c0 + c1);', 'a.rules');
    expect(ruleDecreases(r!)).toEqual({ greater: true });
    expect(reduces(r!.lhs, r!.rhs).greater).toBe(false);
  });

  it('planted zoo rules decrease the order too: the order says nothing about truth', () => {
    const planted = FAULTS.flatMap((f) => (f.rules ? parseRules(f.rules, f.name) : []));
    expect(planted.map((r) => ruleDecreases(r).greater)).toEqual([true, true]);
  });

  it('every rewrite step decreases it: σ(l) > the rewritten term, for random substitutions', () => {
    const arbSub = fc.array(arbExpr({ vars: ['u', 'v'], depth: 3 }), { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(fc.constantFrom(...BUILTIN_RULES), arbSub, fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 3, maxLength: 3 }), (r, terms, ks) => {
        const sub = new Map<string, Expr>();
        let t = 0;
        let k = 0;
        walkExpr(r.lhs, (x) => {
          if (x.k !== 'var' || sub.has(x.name)) return;
          sub.set(x.name, isConstWildcard(x.name) ? { k: 'const', value: ks[k++ % ks.length]! } : terms[t++ % terms.length]!);
        });
        const before = substExpr(r.lhs, sub);
        const after = applyRule(r, before);
        fc.pre(after !== undefined);
        expect(reduces(before, after!).greater).toBe(true);
      }),
      { numRuns: 500, seed: 7 },
    );
  });
});
