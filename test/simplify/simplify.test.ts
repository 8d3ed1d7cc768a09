// The simplifier: rules fire bottom-up by name, a rule never fires outside its domain, constants
// fold (error values included), and on random expressions the result evaluates like the input in
// its domain and is its own normal form.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exprEquals } from '../../src/expr/ast.js';
import { parseExprText } from '../../src/expr/parse.js';
import { printExpr } from '../../src/expr/print.js';
import { BUILTIN_RULE_SET, BUILTIN_RULES } from '../../src/simplify/builtin-rules.js';
import { parseRules } from '../../src/simplify/parse-rules.js';
import { ruleSet } from '../../src/simplify/rule.js';
import { type RewriteStep, simplifyWith } from '../../src/simplify/simplify.js';
import { type Domain } from '../../src/simplify/rule.js';
import { simplify } from '../../src/fuzz/properties/simplify.js';
import { DEFAULT_CONFIG, baseEnv } from '../../src/fuzz/env.js';

function run(text: string, domain: Domain = 'values'): { out: string; steps: string[] } {
  const steps: RewriteStep[] = [];
  const out = simplifyWith(parseExprText(text, 'alg'), BUILTIN_RULE_SET, { domain, trace: (s) => steps.push(s) });
  return { out: printExpr(out, 'alg'), steps: steps.map((s) => `${s.group} ${s.name}`) };
}

describe('simplifyWith', () => {
  it('applies rules bottom-up and names each one [SIMP-MATCH]', () => {
    expect(run('(y + 0) * 1')).toEqual({ out: 'y', steps: ['SR-ADD add-zero', 'SR-MUL mul-one'] });
    expect(run('(x - 3) + 3').out).toBe('x');
    expect(run('select(a < b, a, b) + max(a, b)')).toEqual({ out: 'a + b', steps: ['SR-SELECT select-lt-min', 'SR-ADD add-min-max'] });
  });

  it('never applies an integers rule in the values domain [SIMP-DOMAIN]', () => {
    expect(run('x * 0').out).toBe('x * 0');
    expect(run('x * 0', 'integers')).toEqual({ out: '0', steps: ['SR-MUL mul-zero'] });
    expect(run('(x + 2) - x').out).toBe('x + 2 - x');
    expect(run('(x + 2) - x', 'integers').out).toBe('2');
  });

  it('folds operators on constants, error values included [SIMP-FOLD]', () => {
    expect(run('2 + 3 * err.rdom')).toEqual({ out: 'err.rdom', steps: ['SIMP-FOLD fold', 'SIMP-FOLD fold'] });
    expect(run('7 / 0 + 1').out).toBe('1');
  });

  it('checks predicates on the constants a rule matched', () => {
    expect(run('min(x, x + 3)').out).toBe('x');
    expect(run('min(x, x + -3)').out).toBe('min(x, x + -3)');
    expect(run('(x * 4) / 4').out).toBe('x');
    expect(run('(x * 0) / 0').out).toBe('x * 0 / 0');
  });

  it('a repeated wildcard matches equal terms only', () => {
    expect(run('min(a + 1, a + 1)').out).toBe('a + 1');
    expect(run('min(a + 1, b + 1)').out).toBe('min(a + 1, b + 1)');
  });

  it('uses the rules it is given, in their order', () => {
    const rules = ruleSet(parseRules('values first: x + 1 -> x; values second: x + c0 -> x;', 't.rules'));
    const steps: string[] = [];
    simplifyWith(parseExprText('y + 1', 'alg'), rules, { domain: 'values', trace: (s) => steps.push(s.name) });
    expect(steps).toEqual(['first']);
  });

  it('on random expressions keeps values per domain and is idempotent (the fuzz property)', () => {
    const env = baseEnv(DEFAULT_CONFIG);
    fc.assert(
      fc.property(simplify.arbitrary(env), (c) => {
        expect(simplify.check(c, env)).toEqual({ status: 'pass' });
      }),
      { numRuns: 3000, seed: 42 },
    );
  });

  it('the property catches a rule that is wrong on error values', () => {
    const env = { ...baseEnv(DEFAULT_CONFIG), rules: ruleSet([...parseRules('values bad: x * 0 -> 0;', 'z.rules'), ...BUILTIN_RULES]) };
    const c = { domain: 'values' as const, expr: parseExprText('y * 0', 'alg'), env: new Map([['y', { err: 'rdom', rank: 1 } as const]]) };
    const r = simplify.check(c, env);
    expect(r.status === 'fail' && r.verdict).toBe('simplify-differs');
    expect(exprEquals(simplify.decode(simplify.encode(c), env).expr, c.expr)).toBe(true);
  });
});
