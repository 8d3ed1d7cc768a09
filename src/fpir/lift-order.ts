// The termination order of lifting (spec/fpir.md, [FPIR-LIFT-ORDER]): a weight on expressions
// that every lifting rule strictly decreases. Plain integer operations, casts and selects weigh
// 3, the extending instructions 3 (fig. 4 turns two of them into one widening add and one `+`),
// every other instruction 1, a constant 1. A rule decreases the weight of every expression it
// rewrites when its left side outweighs its right and no wildcard occurs more often on the right
// (the wildcards' expressions then weigh the same or less): the weight is a sum over nodes, so a
// rewrite inside a larger expression decreases it too, and weights are natural numbers, so
// lifting stops. Pitchfork's cost order (§3.2) plays the same role; this one is checkable per rule.
import type { FExpr } from './ast.js';
import type { RewriteRule } from './lift-rules.js';
import { parseRule } from './lift.js';
import { baseName } from './match.js';

export function liftWeight(e: FExpr): number {
  switch (e.k) {
    case 'var':
      return 0;
    case 'const':
      return 1;
    case 'cast':
      return 3 + liftWeight(e.arg);
    case 'prim':
    case 'select':
      return 3 + e.args.reduce((s, a) => s + liftWeight(a), 0);
    case 'fp':
      return (e.op.startsWith('extending_') ? 3 : 1) + e.args.reduce((s, a) => s + liftWeight(a), 0);
  }
}

/** How often each wildcard occurs (constant wildcards of several types count as one). */
function occurrences(e: FExpr, out = new Map<string, number>()): Map<string, number> {
  if (e.k === 'var') out.set(baseName(e.name), (out.get(baseName(e.name)) ?? 0) + 1);
  else if (e.k === 'cast') occurrences(e.arg, out);
  else if (e.k !== 'const') e.args.forEach((a) => occurrences(a, out));
  return out;
}

// implements [FPIR-LIFT-ORDER]
/** Why a rule does not decrease the order, or undefined when it does. */
export function orderViolation(r: RewriteRule): string | undefined {
  const p = parseRule(r);
  const [l, rr] = [liftWeight(p.lhs), liftWeight(p.rhs)];
  if (rr >= l) return `${r.name}: the right side weighs ${rr}, the left ${l}`;
  const left = occurrences(p.lhs);
  for (const [v, k] of occurrences(p.rhs)) if (k > (left.get(v) ?? 0)) return `${r.name}: ${v} occurs ${k} times on the right, ${left.get(v) ?? 0} on the left`;
  return undefined;
}
