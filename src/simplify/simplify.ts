// The simplifier (spec/simplify.md): a bottom-up walk that simplifies the arguments of a node,
// folds it when they are all constants, then tries the rules grouped under its operator in order
// and, when one applies, simplifies the result again. It never backtracks and never calls a
// solver, so the same expression always gives the same answer (the TRS paper's two requirements of
// a compiler's rewriter, its §2.2). Termination follows from every rule decreasing the reduction order
// of order.ts (checked by test/simplify/order.test.ts).
import type { Expr } from '../expr/ast.js';
import { applyOp } from '../expr/ops.js';
import { applyRule } from './match.js';
import { type Domain, type Rule, type RuleSet, groupOf } from './rule.js';

/** One rewrite: the rule (or constant folding) and the subterm before and after it. */
export interface RewriteStep {
  /** a rule group of spec/simplify.md, or SIMP-FOLD */
  readonly group: string;
  /** the rule's name, or `fold` */
  readonly name: string;
  readonly before: Expr;
  readonly after: Expr;
}

export interface SimplifyOptions {
  readonly domain: Domain;
  readonly trace?: (step: RewriteStep) => void;
}

const FOLD_RULE = 'SIMP-FOLD';

/**
 * [SIMP-DOMAIN] A rule claimed for every value applies in both domains; a rule claimed for
 * integers only applies only where the caller says every value is an integer.
 */
// implements [SIMP-DOMAIN]
export const appliesIn = (r: Rule, domain: Domain): boolean => r.domain === 'values' || domain === 'integers';

/** Simplifies `e` with the rules of `rules` that hold in `opts.domain`. */
export function simplifyWith(e: Expr, rules: RuleSet, opts: SimplifyOptions): Expr {
  // Terms already in normal form, by identity: a rewritten node is simplified again, and its
  // wildcards' subterms need not be walked a second time.
  const normal = new Set<Expr>();
  const done = (x: Expr): Expr => {
    normal.add(x);
    return x;
  };
  const simp = (x: Expr): Expr => {
    if (normal.has(x)) return x;
    if (x.k === 'access') return done({ ...x, args: x.args.map(simp) });
    if (x.k !== 'op') return done(x);
    const node: Expr = { k: 'op', op: x.op, args: x.args.map(simp) };
    const consts = node.args.flatMap((a) => (a.k === 'const' ? [a.value] : []));
    if (consts.length === node.args.length) {
      // [SIMP-FOLD] an operator on constants is its value, error values included (def. 2.6).
      const after: Expr = { k: 'const', value: applyOp(node.op, consts) };
      opts.trace?.({ group: FOLD_RULE, name: 'fold', before: node, after });
      return done(after);
    }
    for (const r of rules.byRoot.get(node.op) ?? []) {
      if (!appliesIn(r, opts.domain)) continue;
      const after = applyRule(r, node);
      if (after === undefined) continue;
      opts.trace?.({ group: groupOf(r), name: r.name, before: node, after });
      return done(simp(after));
    }
    return done(node);
  };
  return simp(e);
}
