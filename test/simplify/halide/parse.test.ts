// [HR-SYNTAX] [HR-MODEL]: Halide's rule syntax, read from a visitor written for the test in the
// shape of Halide's sources and from a plain rule file; what is modelled and what is counted.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/diag.js';
import { showH, showRuleH } from '../../../src/simplify/halide/ast.js';
import { modelRule, wildcardTypes } from '../../../src/simplify/halide/model.js';
import { readHalideSource, readRuleFile } from '../../../src/simplify/halide/parse.js';

const VISITOR = `#include "Simplify_Internal.h"
Expr Simplify::visit(const Add *op, ExprInfo *info) {
    auto rewrite = IRMatcher::rewriter(IRMatcher::add(a, b), op->type);
    if (rewrite(x + 0, a) ||   // an operand name
        rewrite(c0 + c1, fold(c0 + c1)) ||
        /* a comment with rewrite(ignored, here) */
        (no_overflow(op->type) &&
         rewrite(x * c0 + y * c1,
                 (x + y * fold(c1 / c0)) * c0,
                 c1 % c0 == 0)) ||
        rewrite(slice(x, c0, c1, c2) + slice(y, c0, c1, c2), slice(x + y, c0, c1, c2)) ||
        rewrite(x + , y)) {
        return rewrite.result;
    }
}
Expr Simplify::visit(const Min *op, ExprInfo *info) {
    if (rewrite(min(x, x), a)) return rewrite.result;
}
`;

describe('reading rewrite calls [HR-SYNTAX]', () => {
  it('finds each call with its visitor and line, blanking comments and keeping unreadable calls', () => {
    const { rules, unreadable } = readHalideSource(VISITOR, 'Simplify_Test.cpp');
    expect(rules.map((r) => [r.node, r.line, showRuleH(r)])).toEqual([
      ['Add', 4, 'rewrite(x + 0, a)'],
      ['Add', 5, 'rewrite(c0 + c1, fold(c0 + c1))'],
      ['Add', 8, 'rewrite(x * c0 + y * c1, (x + y * fold(c1 / c0)) * c0, c1 % c0 == 0)'],
      ['Add', 11, 'rewrite(slice(x, c0, c1, c2) + slice(y, c0, c1, c2), slice(x + y, c0, c1, c2))'],
      ['Min', 17, 'rewrite(min(x, x), a)'],
    ]);
    expect(unreadable).toEqual([expect.objectContaining({ line: 12, node: 'Add', error: "expected an expression but found ','" })]);
  });

  it('reads C++ precedences and negative literals', () => {
    const [r] = readRuleFile('rewrite(x - y * -2 < z && !(w == 1) || u, true)\n', 't');
    expect(showH(r!.lhs)).toBe('x - y * (-2) < z && !(w == 1) || u');
  });

  it('reads a rule file: comments, trailing ||, the node from the root, errors located', () => {
    const rules = readRuleFile('# the seed\nrewrite(min(x, c0) < min(x, c1) + c2, false, c0 >= c1 + c2) ||  # wrong\n\nrewrite(x && neg(x), false);\n', 'r.hrules');
    expect(rules.map((r) => [r.node, r.line])).toEqual([['LT', 2], ['And', 4]]);
    const bad = (text: string) => {
      try {
        readRuleFile(text, 'b.hrules');
      } catch (e) {
        return (e as UserError).render();
      }
      return 'no error';
    };
    expect(bad('rewrite(x + 0, x)\nx + 0 -> x\n')).toBe('b.hrules:2:1: error: expected rewrite(lhs, rhs[, predicate])\n  hint: each line holds one rule in Halide syntax; # starts a comment');
    expect(bad('rewrite(x + 0)\n')).toMatch(/^b.hrules:1:9: error: rewrite takes a left-hand side/);
    expect(bad('rewrite(x + (0, x)\n')).toMatch(/^b.hrules:1:8: error: this rule's parenthesis is not closed/);
  });
});

describe('the model [HR-MODEL]', () => {
  it('names the operands, reads neg, likely and can_prove, and counts what it cannot model', () => {
    const [plus, neg, prove, slice, cpp] = readRuleFile(
      ['rewrite(x + 0, a)', 'rewrite(x && neg(x), false)', 'rewrite(min(x, y) - min(z, w), y - w, can_prove(x - y == z - w, this))',
        'rewrite(slice(x, c0, c1, c2) + slice(y, c0, c1, c2), slice(x + y, c0, c1, c2))', 'rewrite((x + c0) / c1, x / c1 + fold(a_rem / c1))'].join('\n'),
      't',
    );
    const m = (r: typeof plus) => {
      const got = modelRule(r!);
      return got.ok ? showRuleH(got.rule) : got.constructs;
    };
    expect(m(plus)).toBe('rewrite(x + 0, x)');
    expect(m(neg)).toBe('rewrite(x && !x, false)');
    expect(m(prove)).toBe('rewrite(min(x, y) - min(z, w), y - w, x - y == z - w)');
    expect(m(slice)).toEqual(['slice']);
    expect(m(cpp)).toEqual(['C++ name a_rem']);
  });

  it('reads the guards a call sits behind, and lets them change the claim', () => {
    const src = `Expr Simplify::visit(const Div *op, ExprInfo *info) {
    if (EVAL_IN_LAMBDA(rewrite(x / 1, x) ||
        (denominator_non_zero && (rewrite((x * y) / x, y) || false)) ||
        (op->type.is_float() && rewrite(x / c0, x * fold(1 / c0))))) {}
}`;
    const { rules } = readHalideSource(src, 'Simplify_Div.cpp');
    expect(rules.map((r) => r.guards)).toEqual([[], ['denominator_non_zero'], ['op->type.is_float()']]);
    const m = rules.map((r) => modelRule(r));
    expect(m[1]!.ok && showRuleH(m[1]!.rule)).toBe('rewrite(x * y / x, y, x != 0)');
    expect(m[2]).toEqual({ ok: false, constructs: ['guard: floats only'] });
  });

  it('types wildcards by unification: operands of logic and conditions are boolean', () => {
    const [r] = readRuleFile('rewrite(select(x, y == z, w) && u, v)', 't');
    const got = modelRule(r!);
    if (!got.ok) throw new Error('not modelled');
    expect(Object.fromEntries(wildcardTypes(got.rule))).toEqual({ x: 'bool', y: 'int', z: 'int', w: 'bool', u: 'bool', v: 'bool' });
  });
});
