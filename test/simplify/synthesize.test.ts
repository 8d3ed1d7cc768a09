// Rule synthesis [SIMP-SYNTH]: left-hand sides generalize the subterms of an expression, and the
// counterexample-guided search finds the smallest proved right-hand side below the left-hand side
// in the reduction order, in the domain asked for (or none).
import { afterAll, describe, expect, it } from 'vitest';
import type { Expr } from '../../src/expr/ast.js';
import { parseExprText } from '../../src/expr/parse.js';
import { printExpr } from '../../src/expr/print.js';
import { shutdownZ3 } from '../../src/expr/smt.js';
import { proposeLhs, synthesizeRhs } from '../../src/simplify/synthesize.js';

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
