// The rule format [SIMP-RULE]: well-formed rules parse to data; malformed ones are refused with a
// located error naming what is wrong.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { printExpr } from '../../src/expr/print.js';
import { BUILTIN_RULES } from '../../src/simplify/builtin-rules.js';
import { parseRules } from '../../src/simplify/parse-rules.js';
import { ruleSource } from '../../src/simplify/rule.js';
import { exprEquals } from '../../src/expr/ast.js';

function error(text: string): string {
  try {
    parseRules(text, 'r.rules');
  } catch (e) {
    if (e instanceof UserError) return e.render();
    throw e;
  }
  throw new Error('no error');
}

describe('parseRules [SIMP-RULE]', () => {
  it('reads domain, name, sides and predicate', () => {
    const [r] = parseRules('integers div-mul-cancel: (x * c0) / c0 -> x if c0 != 0;', 'r.rules');
    expect(r!.name).toBe('div-mul-cancel');
    expect(r!.domain).toBe('integers');
    expect(printExpr(r!.lhs, 'alg')).toBe('x * c0 / c0');
    expect(printExpr(r!.pred!, 'alg')).toBe('!(c0 == 0)');
    expect(r!.loc).toEqual({ file: 'r.rules', line: 1, col: 1 });
  });

  it('has unique names for the built-in rules', () => {
    expect(new Set(BUILTIN_RULES.map((r) => r.name)).size).toBe(BUILTIN_RULES.length);
    expect(BUILTIN_RULES.length).toBeGreaterThan(60);
  });

  it('prints every built-in rule back in the format it was read from', () => {
    const again = parseRules(BUILTIN_RULES.map(ruleSource).join('\n'), 'again.rules');
    expect(again.map(ruleSource)).toEqual(BUILTIN_RULES.map(ruleSource));
    expect(again.map((r) => exprEquals(r.lhs, BUILTIN_RULES.find((b) => b.name === r.name)!.lhs))).not.toContain(false);
  });

  it('refuses malformed rules at the offending place', () => {
    expect(error('values a: x + -> x;')).toBe("r.rules:1:15: error: expected an expression but found '->'");
    expect(error('values a: foo(x) -> x;')).toBe("r.rules:1:11: error: unknown operator 'foo'\n  hint: the operators are + - * / % && || ! < > == <= >= != and select, min, max");
    expect(error('value a: x -> x;')).toContain("r.rules:1:1: error: unknown domain 'value'");
    expect(error('values a: x + 0 -> y;')).toContain("'y' occurs on the right of 'a' but not on its left");
    expect(error('values a: x + c0 -> x if x > 0;')).toContain("r.rules:1:26: error: the predicate of 'a' names 'x', which is not a constant wildcard");
    expect(error('values a: x -> x;')).toContain("the left-hand side of 'a' is not an operator application");
    expect(error('values a: x + 0 -> x;\nvalues a: x * 1 -> x;')).toContain("r.rules:2:8: error: a second rule named 'a'");
    expect(error('values a: x + 0 -> x')).toContain('expected \';\' but found the end of the input');
  });
});
