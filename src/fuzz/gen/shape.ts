// The shapes campaigns are asked to reach (docs/fuzzing.md, "What campaigns generate"), read off a
// generated case: placements nested in placements, storage at another level than computation,
// and reductions whose result depends on the order of their reduction loops.
import { type Expr, exprEquals, walkExpr } from '../../expr/ast.js';
import type { Func, Pipeline, Stage } from '../../alg-semantics/ast.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { type StmtPath, isInside, loopsOf, visitStmts } from '../../target-semantics/walk.js';
import { allocOf, funcsOf, labelOf } from '../../schedule/loops.js';
import { type GeneratedCounts } from '../stats.js';

/** f computed inside g's computation, g itself computed inside a loop of another func (f in g in h). */
export function hasNestedComputeAt(t: TgtProgram): boolean {
  const funcs = new Set(funcsOf(t));
  let nested = false;
  visitStmts(t.body, (s, _path, labels) => {
    if (s.k === 'label' && funcs.has(s.name) && labels.filter((l) => funcs.has(l)).length >= 2) nested = true;
  });
  return nested;
}

/** The innermost loop around a statement path, if any. */
function innermostLoop(t: TgtProgram, path: StmtPath): string | undefined {
  return loopsOf(t).filter((l) => isInside(path, l.path)).pop()?.stmt.var;
}

/** Some func allocated inside a loop, but at another loop than the one it is computed in. */
export function hasStoreAtOtherLevel(t: TgtProgram): boolean {
  return funcsOf(t).some((f) => {
    const alloc = allocOf(t, f);
    const label = labelOf(t, f);
    if (!alloc || !label) return false;
    const at = innermostLoop(t, alloc.path);
    return at !== undefined && at !== innermostLoop(t, label.path);
  });
}

/** The operands of a chain of one associative, commutative operator. */
function operands(e: Expr, o: string): Expr[] {
  return e.k === 'op' && e.op === o ? e.args.flatMap((a) => operands(a, o)) : [e];
}

const readsFunc = (e: Expr, f: string): boolean => {
  let found = false;
  walkExpr(e, (x) => {
    if (x.k === 'access' && x.func === f) found = true;
  });
  return found;
};

const isOwnPoint = (e: Expr, f: Func, st: Stage): boolean =>
  e.k === 'access' && e.func === f.name && e.args.length === st.lhs.length && e.args.every((a, i) => exprEquals(a, st.lhs[i]!));

/**
 * An update over an rdom whose result may depend on the order of its reduction loops. Decision:
 * judged syntactically. The order cannot matter when the update is a fold f(ē) ⊕ e with ⊕ one of
 * +, *, min, max and e not reading f; it may matter otherwise (f(ē) * 2 + r, a scan reading
 * f(r − 1), a select on f). The test errs towards "sensitive" on folds written unusually.
 */
export function isOrderSensitive(f: Func, st: Stage): boolean {
  if (st.pure || st.rdom.length === 0 || !readsFunc(st.rhs, f.name)) return false;
  for (const o of ['+', '*', 'min', 'max']) {
    const xs = operands(st.rhs, o);
    if (xs.length < 2) continue;
    const own = xs.filter((x) => isOwnPoint(x, f, st));
    if (own.length === 1 && xs.every((x) => own.includes(x) || !readsFunc(x, f.name))) return false;
  }
  return true;
}

export const hasOrderSensitiveReduction = (p: Pipeline): boolean => p.funcs.some((f) => f.stages.some((st) => isOrderSensitive(f, st)));

/** Counts one scheduled case into the campaign's shape statistics. */
export function countShapes(g: GeneratedCounts, p: Pipeline, final: TgtProgram, directives: readonly string[]): void {
  g.checks++;
  if (p.funcs.length >= 4) g.funcs_ge_4++;
  if (directives.includes('compute-at')) g.compute_at++;
  if (hasNestedComputeAt(final)) g.nested_compute_at++;
  if (hasStoreAtOtherLevel(final)) g.store_at_other_level++;
  if (hasOrderSensitiveReduction(p)) g.order_sensitive_reduction++;
  g.directives_total += directives.length;
  g.directives_max = Math.max(g.directives_max, directives.length);
}
