// Matching one left-hand side against one term, and building the right-hand side from the
// bindings (spec/simplify.md [SIMP-MATCH]). Patterns are trees without associativity or
// commutativity, so a match is a single walk that either binds every wildcard or fails: there is
// nothing to backtrack over, as in the TRS paper's matcher (its §2.2).
import { type Expr, exprEquals } from '../expr/ast.js';
import { evalExpr } from '../expr/eval.js';
import { type Value, isInt } from '../expr/value.js';
import { type Rule, isConstWildcard, isFoldable } from './rule.js';

export type Bindings = Map<string, Expr>;

/** Binds the wildcards of `pattern` to subterms of `term`, or returns false. */
function bind(pattern: Expr, term: Expr, b: Bindings): boolean {
  switch (pattern.k) {
    case 'var': {
      if (isConstWildcard(pattern.name) && !(term.k === 'const' && isInt(term.value))) return false;
      const known = b.get(pattern.name);
      if (known) return exprEquals(known, term);
      b.set(pattern.name, term);
      return true;
    }
    case 'const':
      return term.k === 'const' && term.value === pattern.value;
    case 'op':
      return term.k === 'op' && term.op === pattern.op && pattern.args.every((p, i) => bind(p, term.args[i]!, b));
    default:
      return false;
  }
}

/** The values of the constant wildcards, for predicates and folded parts of right-hand sides. */
function constEnv(b: Bindings): Map<string, Value> {
  const env = new Map<string, Value>();
  for (const [k, e] of b) if (e.k === 'const') env.set(k, e.value);
  return env;
}

/** The right-hand side with the bindings substituted; parts made of constants only are computed. */
function instantiate(e: Expr, b: Bindings, env: ReadonlyMap<string, Value>): Expr {
  if (isFoldable(e)) return { k: 'const', value: evalExpr(e, env) };
  switch (e.k) {
    case 'var':
      return b.get(e.name)!;
    case 'op':
      return { k: 'op', op: e.op, args: e.args.map((a) => instantiate(a, b, env)) };
    default:
      return e;
  }
}

// implements [SIMP-MATCH]
/** The term `term` rewrites to by `rule`, or undefined when the rule does not apply there. */
export function applyRule(rule: Rule, term: Expr): Expr | undefined {
  const b: Bindings = new Map();
  if (!bind(rule.lhs, term, b)) return undefined;
  const env = constEnv(b);
  if (rule.pred && evalExpr(rule.pred, env) === 0) return undefined;
  return instantiate(rule.rhs, b, env);
}
