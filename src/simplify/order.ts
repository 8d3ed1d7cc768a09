// The reduction order of the TRS paper's appendix (spec/simplify.md names the paper) ([SIMP-ORDER]), which makes the
// rewriting terminate (its §3.2): s > t when every term wildcard occurs in s at least as often as in t
// and either the operator histogram of s is greater than that of t, read lexicographically from
// the strongest operator down, or the histograms are equal and the root of s is weaker than the
// root of t. Each rule needs only l > r, as the order is a reduction order (the paper's theorem).
import type { Expr, OpName } from '../expr/ast.js';
import { type Rule, isConstWildcard, isFoldable } from './rule.js';

/**
 * Operator strength, strongest first (the paper's appendix, restricted to fig. 2.5b: `<=`, `>=`
 * and `!=` are sugar here, and min and max share a place as there).
 */
export const STRENGTH: readonly (readonly OpName[])[] = [
  ['select'], ['div'], ['*'], ['mod'], ['-'], ['+'], ['min', 'max'], ['not'], ['or'], ['and'], ['>'], ['<'], ['='],
];

const rankOf = (o: OpName): number => STRENGTH.findIndex((g) => g.includes(o));

export interface Measure {
  /** occurrences per strength class, strongest first */
  readonly histogram: readonly number[];
  /** occurrences of each term wildcard */
  readonly occurrences: ReadonlyMap<string, number>;
  /** strength class of the root operator (−1 for a leaf) */
  readonly root: number;
}

/**
 * The measure of a term. In a rule's right-hand side (`folded`), a part made of constants and
 * constant wildcards is computed when the rule fires, so it counts as the one constant it becomes
 * (the paper's `fold`). Constant wildcards are replaced by constants, which hold no operator, so
 * the occurrence condition concerns term wildcards only.
 */
export function measure(e: Expr, folded = false): Measure {
  const computed = (x: Expr): boolean => folded && isFoldable(x);
  const histogram = STRENGTH.map(() => 0);
  const occurrences = new Map<string, number>();
  const visit = (x: Expr): void => {
    if (x.k === 'var' && !isConstWildcard(x.name)) occurrences.set(x.name, (occurrences.get(x.name) ?? 0) + 1);
    if (x.k !== 'op' || computed(x)) return;
    histogram[rankOf(x.op)]!++;
    x.args.forEach(visit);
  };
  visit(e);
  return { histogram, occurrences, root: e.k === 'op' && !computed(e) ? rankOf(e.op) : -1 };
}

export type Comparison = { readonly greater: true } | { readonly greater: false; readonly why: string };

/** Is s > t in the reduction order? When not, says which condition fails. */
export const reduces = (s: Expr, t: Expr): Comparison => compare(measure(s), measure(t));

/** Does a rule decrease the order: lhs > rhs, with the rhs's computed parts as constants? */
export const ruleDecreases = (r: Rule): Comparison => compare(measure(r.lhs), measure(r.rhs, true));

// implements [SIMP-ORDER]
function compare(ms: Measure, mt: Measure): Comparison {
  for (const [v, n] of mt.occurrences) {
    if ((ms.occurrences.get(v) ?? 0) < n) return { greater: false, why: `'${v}' occurs ${n} times on the right but ${ms.occurrences.get(v) ?? 0} on the left` };
  }
  for (let i = 0; i < STRENGTH.length; i++) {
    const [a, b] = [ms.histogram[i]!, mt.histogram[i]!];
    if (a > b) return { greater: true };
    if (a < b) return { greater: false, why: `more ${STRENGTH[i]!.join('/')} on the right (${b}) than on the left (${a})` };
  }
  // Equal histograms: the tie-break prefers stronger operators nearer the root. A leaf root has
  // no strength; with equal histograms both sides then have no operator at all.
  if (ms.root >= 0 && mt.root >= 0 && ms.root > mt.root) return { greater: true };
  return { greater: false, why: 'the operator histograms are equal and the right root is not stronger than the left root' };
}
