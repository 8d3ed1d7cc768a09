// A rewrite rule of the simplifier as plain data (spec/simplify.md): a name, a left-hand side and a
// right-hand side written in the expression language, a predicate over the constant wildcards, and
// the domain of values on which the rule is claimed to hold. The TRS paper's rules are matched by
// root operator (its §2.2, spec/simplify.md), so a rule set is kept grouped that way.
import type { Loc } from '../diag.js';
import { type Expr, type OpName, walkExpr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';

/**
 * Where a rule is claimed to hold. `values`: for every value of its wildcards, error values
 * included (def. 2.6 makes errors absorb, so `x * 0 → 0` is not one of these). `integers`: only
 * when every wildcard is an integer, which is what bounds inference and code generation see.
 */
export type Domain = 'values' | 'integers';

export interface Rule {
  readonly name: string;
  readonly domain: Domain;
  /** never a bare wildcard: a rule rewrites an operator application (TRS paper §2.1) */
  readonly lhs: Extract<Expr, { k: 'op' }>;
  readonly rhs: Expr;
  /** over constant wildcards only; the rule applies where it is non-zero */
  readonly pred?: Expr;
  readonly loc?: Loc;
}

/** `c0`, `c1`, …: wildcards that match integer constants only; every other name matches any term. */
export const isConstWildcard = (name: string): boolean => /^c[0-9]+$/.test(name);

/** The wildcards of a pattern, in the order they first occur. */
export function wildcardNames(e: Expr): string[] {
  const names = new Set<string>();
  walkExpr(e, (x) => void (x.k === 'var' && names.add(x.name)));
  return [...names];
}

/** The wildcards of a pattern, split by kind. */
export function wildcards(e: Expr): { terms: Set<string>; consts: Set<string> } {
  const names = wildcardNames(e);
  return { terms: new Set(names.filter((n) => !isConstWildcard(n))), consts: new Set(names.filter(isConstWildcard)) };
}

/** Is a subterm of a right-hand side computed when the rule fires (only constants and constant wildcards)? */
export function isFoldable(e: Expr): boolean {
  let ok = true;
  walkExpr(e, (x) => {
    if ((x.k === 'var' && !isConstWildcard(x.name)) || x.k === 'access' || x.k === 'hole') ok = false;
  });
  return ok;
}

/** A rule in the rule format of parse-rules.ts (what `--rules` files hold). */
export const ruleSource = (r: Rule): string =>
  `${r.domain} ${r.name}: ${printExpr(r.lhs, 'alg')} -> ${printExpr(r.rhs, 'alg')}${r.pred ? ` if ${printExpr(r.pred, 'alg')}` : ''};`;

/** A rule as reports and traces show it. */
export const showRule = (r: Rule): string =>
  `${printExpr(r.lhs, 'alg')} → ${printExpr(r.rhs, 'alg')}${r.pred ? ` if ${printExpr(r.pred, 'alg')}` : ''}`;

/**
 * The rule groups of spec/simplify.md, one per root operator as the TRS paper groups Halide's
 * rules (its §2.2); traces print a rule's group before its name.
 */
export const ROOT_GROUP: Readonly<Record<OpName, string>> = {
  '+': 'SR-ADD', '-': 'SR-SUB', '*': 'SR-MUL', div: 'SR-DIV', mod: 'SR-MOD',
  min: 'SR-MINMAX', max: 'SR-MINMAX', select: 'SR-SELECT',
  '<': 'SR-CMP', '>': 'SR-CMP', '=': 'SR-CMP', and: 'SR-LOGIC', or: 'SR-LOGIC', not: 'SR-LOGIC',
};

/** The group of a rule: that of the operator at the root of its left-hand side. */
export const groupOf = (r: Rule): string => ROOT_GROUP[r.lhs.op];

/** A rule set indexed by the operator at the root of each left-hand side. */
export interface RuleSet {
  readonly rules: readonly Rule[];
  readonly byRoot: ReadonlyMap<OpName, readonly Rule[]>;
}

export function ruleSet(rules: readonly Rule[]): RuleSet {
  const byRoot = new Map<OpName, Rule[]>();
  for (const r of rules) byRoot.set(r.lhs.op, [...(byRoot.get(r.lhs.op) ?? []), r]);
  return { rules, byRoot };
}
