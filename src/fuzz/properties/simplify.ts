// The simplifier inside campaigns (spec/simplify.md): on random expressions and environments,
// simplify(e) evaluates like e — in the `values` domain with error values among the variables and
// constants, in the `integers` domain on integers only — and simplifying again changes nothing.
// Half of the expressions are instances of a rule's left-hand side (wildcards replaced by random
// terms, constant wildcards by small constants), so that every rule of the campaign's set is
// exercised where it fires rather than where a random tree happens to match it.
import fc from 'fast-check';
import { type Expr, exprEquals, substExpr } from '../../expr/ast.js';
import { evalExpr } from '../../expr/eval.js';
import { parseExprText } from '../../expr/parse.js';
import { printExpr } from '../../expr/print.js';
import { E_MEM, E_RDOM, type Value, int, showValue, valueFromJson, valueToJson } from '../../expr/value.js';
import { type Domain, type Rule, isConstWildcard, wildcardNames } from '../../simplify/rule.js';
import { simplifyWith } from '../../simplify/simplify.js';
import { arbExpr } from '../arbitraries/expr.js';
import type { FuzzEnv } from '../env.js';
import { PASS, type Property } from '../property.js';

export interface SimplifyCase {
  readonly domain: Domain;
  readonly expr: Expr;
  readonly env: ReadonlyMap<string, Value>;
}

const VARS = ['x', 'y', 'z'];
const DOMAINS: readonly Domain[] = ['values', 'integers'];

/** Small values, zero often (divisors), and in `values` the two error values. */
const arbVarValue = (d: Domain): fc.Arbitrary<Value> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant<Value>(0) },
    { weight: 6, arbitrary: fc.integer({ min: -6, max: 6 }).map((n): Value => int(n)) },
    ...(d === 'values' ? [{ weight: 2, arbitrary: fc.constantFrom<Value>(E_RDOM, E_MEM) }] : []),
  );

const arbEnv = (d: Domain) => fc.tuple(...VARS.map(() => arbVarValue(d))).map((vs) => new Map(VARS.map((v, i) => [v, vs[i]!] as const)));

const arbSmallConst = fc.integer({ min: -3, max: 3 }).map((k): Expr => ({ k: 'const', value: int(k) }));

/** What a wildcard of an instance stands for: mostly a variable or a small constant. */
const arbPart = (d: Domain): fc.Arbitrary<Expr> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...VARS).map((name): Expr => ({ k: 'var', name })) },
    { weight: 2, arbitrary: arbSmallConst },
    { weight: 2, arbitrary: arbExpr({ vars: VARS, errors: d === 'values', depth: 2 }) },
  );

/**
 * A rule's left-hand side with random parts for its wildcards, in a domain where the rule
 * applies: an `integers` rule is exercised on integers, a `values` rule in either domain.
 */
function arbInstance(rules: readonly Rule[]): fc.Arbitrary<SimplifyCase> {
  return fc.constantFrom(...rules).chain((r) => {
    const names = wildcardNames(r.lhs);
    const domain = r.domain === 'integers' ? fc.constant<Domain>('integers') : fc.constantFrom(...DOMAINS);
    return domain.chain((d) =>
      fc.record({
        domain: fc.constant(d),
        expr: fc.tuple(...names.map((n) => (isConstWildcard(n) ? arbSmallConst : arbPart(d)))).map((es) => substExpr(r.lhs, new Map(names.map((n, i) => [n, es[i]!] as const)))),
        env: arbEnv(d),
      }),
    );
  });
}

/** A random expression over x, y and z. */
const arbRandom = fc.constantFrom(...DOMAINS).chain((d) =>
  fc.record({ domain: fc.constant(d), expr: arbExpr({ vars: VARS, errors: d === 'values', depth: 4 }), env: arbEnv(d) }),
);

const arbCase = (env: FuzzEnv): fc.Arbitrary<SimplifyCase> =>
  fc.oneof({ weight: 1, arbitrary: arbRandom }, { weight: 3, arbitrary: arbInstance(env.rules.rules) });

const show = (e: Expr): string => printExpr(e, 'alg');
const showEnv = (env: ReadonlyMap<string, Value>): string => [...env].map(([k, v]) => `${k}=${showValue(v)}`).join(' ');

export const simplify: Property<SimplifyCase, SimplifyCase> = {
  name: 'simplify',
  summary: 'spec/simplify.md: the simplifier preserves the value of an expression in its domain (error values included in `values`) and is idempotent',
  arbitrary: arbCase,
  concretize: (g) => g,
  check(c, env) {
    const rules = env.rules;
    const once = simplifyWith(c.expr, rules, { domain: c.domain });
    const before = evalExpr(c.expr, c.env);
    const after = evalExpr(once, c.env);
    const at = `${show(c.expr)} at ${showEnv(c.env)} (domain ${c.domain})`;
    if (before !== after) {
      const steps: string[] = [];
      simplifyWith(c.expr, rules, { domain: c.domain, trace: (s) => steps.push(s.name) });
      return { status: 'fail', verdict: 'simplify-differs', expected: `${at} = ${showValue(before)}`, actual: `simplified to ${show(once)} by ${steps.join(', ')}, which is ${showValue(after)}` };
    }
    const twice = simplifyWith(once, rules, { domain: c.domain });
    if (!exprEquals(twice, once)) return { status: 'fail', verdict: 'simplify-not-idempotent', expected: `${show(once)} again`, actual: show(twice) };
    return PASS;
  },
  encode: (c) => ({ extra: { domain: c.domain, expr: show(c.expr), env: JSON.stringify(Object.fromEntries([...c.env].map(([k, v]) => [k, valueToJson(v)]))) } }),
  decode(t) {
    const domain = t.extra?.domain === 'integers' ? 'integers' : 'values';
    const vars = JSON.parse(t.extra?.env ?? '{}') as Record<string, unknown>;
    const env = new Map(Object.entries(vars).map(([k, v]) => [k, valueFromJson(v)] as const));
    return { domain, expr: parseExprText(t.extra?.expr ?? '0', 'alg', '<reproducer>'), env };
  },
  shape: (c) => `${c.domain}/${show(c.expr).replace(/-?\d+/g, 'N')}`,
};
