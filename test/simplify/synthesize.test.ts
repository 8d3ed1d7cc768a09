// Rule synthesis [SIMP-SYNTH]: left-hand sides generalize the subterms of an expression, and the
// counterexample-guided search finds the smallest proved right-hand side below the left-hand side
// in the reduction order, in the domain asked for (or none).
import { afterAll, describe, expect, it } from 'vitest';
import type { Expr } from '../../src/expr/ast.js';
import { parseExprText } from '../../src/expr/parse.js';
import { printExpr } from '../../src/expr/print.js';
import { shutdownZ3 } from '../../src/expr/smt.js';
import type { Rule } from '../../src/simplify/rule.js';
import { placeRule, proposeLhs, synthesizeGuarded, synthesizeRhs } from '../../src/simplify/synthesize.js';

afterAll(async () => {
  await shutdownZ3();
});

const p = (s: string) => parseExprText(s, 'alg') as Extract<Expr, { k: 'op' }>;
const show = (e: Expr) => printExpr(e, 'alg');

describe('synthesis [SIMP-SYNTH]', () => {
  it('proposes every small operator subterm, constants kept and generalized, equal leaves correlated', () => {
    expect(proposeLhs(p('min(a + 2, a) * b')).map(show)).toEqual(['min(x + 2, x) * y', 'min(x + c0, x) * y', 'min(x + 2, x)', 'min(x + c0, x)', 'x + 2', 'x + c0']);
  });

  it('finds a proved right-hand side, smallest first, in the domain asked for', async () => {
    const a = await synthesizeRhs('s', p('max(x + 2, x)'), 'values');
    expect(a.rule && show(a.rule.rhs)).toBe('x + 2');
    // On every value x − x is 0 or x's error: a weaker operator than − must keep x.
    expect(show((await synthesizeRhs('s', p('x - x'), 'values')).rule!.rhs)).toBe('min(0, max(x, 0))');
    expect(show((await synthesizeRhs('s', p('x - x'), 'integers')).rule!.rhs)).toBe('0');
  }, 60_000);

  it('learns from counterexamples: without tests, the first candidate is refuted by Z3 and its counterexample rules out the rest', async () => {
    const r = await synthesizeRhs('s', p('x - x'), 'integers', { tests: 0 });
    expect(show(r.rule!.rhs)).toBe('0');
    expect(r).toMatchObject({ proofs: 2, counterexamples: 1 });
  }, 60_000);
});

describe('rules with predicates, and their place [SIMP-SYNTH]', () => {
  it("finds the TRS paper's predicate for a factor pulled out of a min", async () => {
    // A generous solver limit: the proof is nonlinear, and the machine may be loaded.
    const r = await synthesizeGuarded('s', p('min(x * c0, y * c0)'), 'integers', { timeoutMs: 30_000 });
    expect(r.rule && `${show(r.rule.rhs)} if ${show(r.rule.pred!)}`).toBe('c0 * min(x, y) if !(c0 < 0)');
  }, 60_000);

  it('places a rule before an earlier rule of its root that would shadow it, else after the last of its root, and never a rule that does not decrease', () => {
    const rule = (name: string, lhs: string, rhs: string): Rule => ({ name, domain: 'integers', lhs: p(lhs), rhs: parseExprText(rhs, 'alg') });
    const set = [rule('a', 'x + 0', 'x'), rule('b', 'x * c0', 'x'), rule('c', 'x * y', 'y'), rule('d', 'x - x', '0')];
    const shadowed = placeRule(set, rule('n', 'x * 0', '0'));
    expect(shadowed?.rules.map((r) => r.name)).toEqual(['a', 'n', 'b', 'c', 'd']);
    expect(shadowed).toMatchObject({ before: 'b', group: 'SR-MUL' });
    expect(placeRule(set, rule('m', 'x + (y - x)', 'y'))?.rules.map((r) => r.name)).toEqual(['a', 'm', 'b', 'c', 'd']);
    expect(placeRule(set, rule('s', 'x + y', 'y + x'))).toBeUndefined();
  });
});
