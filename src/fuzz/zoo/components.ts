// Planted faults in copies of components other than directives: a bounds engine whose interval
// rule for + is off by one, a query extraction that forgets indexing accesses, an executor that
// treats negative loop extents as zero, and one whose division by zero is not the total one of
// §2.9. Each wraps the real component and changes only what the fault is about.
import { type Expr, cst, op, walkExpr } from '../../expr/ast.js';
import { beta0 } from '../../bounds/beta0.js';
import { type BoundsEngine } from '../../bounds/engine.js';
import type { QNode, Query } from '../../bounds/query.js';
import type { Input } from '../../alg-semantics/ast.js';
import type { Stmt, TgtProgram } from '../../target-semantics/ast.js';
import { mapStmtExprs, stmtExprs } from '../../target-semantics/holes.js';
import { type ForStmt, mapChildren, visitStmts } from '../../target-semantics/walk.js';
import { funcsOf } from '../../schedule/loops.js';
import { type RunOptions, execTgt } from '../../target-semantics/exec.js';
import type { Outcome } from '../../target-semantics/outcome.js';
import { canonical } from '../properties/roundtrip.js';

/**
 * Rebuilds every expression of a query node; with `conditions` false, only those whose value is a
 * point or a range (a loop's bounds, a let, a membership), leaving the conditions as they are.
 */
export function mapQuery(n: QNode, f: (e: Expr) => Expr, conditions = true): QNode {
  const g = conditions ? f : (e: Expr) => e;
  switch (n.k) {
    case 'true':
      return n;
    case 'pred':
      return { ...n, e: g(n.e) };
    case 'in':
      return { ...n, e: f(n.e) };
    case 'and':
      return { ...n, parts: n.parts.map((p) => mapQuery(p, f, conditions)) };
    case 'implies':
      return { ...n, cond: g(n.cond), body: mapQuery(n.body, f, conditions) };
    case 'forall':
      return { ...n, min: f(n.min), len: f(n.len), body: mapQuery(n.body, f, conditions) };
    case 'exists':
      return { ...n, body: mapQuery(n.body, f, conditions) };
    case 'let':
      return { ...n, e: f(n.e), body: mapQuery(n.body, f, conditions) };
  }
}

function mapAdds(e: Expr): Expr {
  if (e.k === 'access') return { ...e, args: e.args.map(mapAdds) };
  if (e.k !== 'op') return e;
  const args = e.args.map(mapAdds);
  // The planted rule: the interval of a + b is computed one lower than it is.
  return e.op === '+' ? op('-', { ...e, args }, cst(1)) : { ...e, args };
}

/** β0 whose interval rule for + yields [lo_a + lo_b − 1, hi_a + hi_b − 1]: an off-by-one. */
export const offByOnePlus: BoundsEngine = {
  name: 'beta0-plus-off-by-one',
  complete: (t: TgtProgram, q: Query) => beta0(t, { ...q, body: mapQuery(q.body, mapAdds) }),
};

/**
 * The arguments of accesses that sit inside another access's index (data-dependent indexing),
 * by identity: the query builder reuses the program's expression objects.
 */
function indexingAccessArgs(t: TgtProgram): Set<Expr> {
  const out = new Set<Expr>();
  const visitIndex = (e: Expr) => walkExpr(e, (x) => {
    if (x.k === 'access') for (const a of x.args) out.add(a);
  });
  for (const e of stmtExprs(t.body)) {
    walkExpr(e, (x) => {
      if (x.k === 'access') x.args.forEach(visitIndex);
    });
  }
  return out;
}

function dropCpu(n: QNode, hidden: Set<Expr>): QNode {
  switch (n.k) {
    case 'in':
      return n.pair.kind === 'cpu' && hidden.has(n.e) ? { k: 'true', rule: n.rule } : n;
    case 'and':
      return { ...n, parts: n.parts.map((p) => dropCpu(p, hidden)) };
    case 'implies':
    case 'forall':
    case 'exists':
    case 'let':
      return { ...n, body: dropCpu(n.body, hidden) };
    default:
      return n;
  }
}

/**
 * β0 on a query whose extraction did not force accesses in indexing positions into compute bounds
 * (§2.9, "Compute bounds for indexing accesses"): they only have to be allocated.
 */
export const indexAccessesUnforced: BoundsEngine = {
  name: 'beta0-index-accesses-unforced',
  complete: (t: TgtProgram, q: Query) => beta0(t, { ...q, body: dropCpu(q.body, indexingAccessArgs(t)) }),
};

/** Funcs computed inside the computation of a func that is itself computed inside another one's (f in g in h). */
function nestedFuncs(t: TgtProgram): string[] {
  const funcs = new Set(funcsOf(t));
  const out: string[] = [];
  visitStmts(t.body, (s, _path, labels) => {
    if (s.k === 'label' && funcs.has(s.name) && labels.filter((l) => funcs.has(l)).length >= 2) out.push(s.name);
  });
  return out;
}

/**
 * β0 whose compute bounds come out one point short for funcs placed two levels deep: an engine
 * that is right on every flat or singly nested schedule, and wrong only under nested compute-at.
 */
export const shortUnderNesting: BoundsEngine = {
  name: 'beta0-short-under-nesting',
  complete(t: TgtProgram, q: Query) {
    const r = beta0(t, q);
    if (!r.ok) return r;
    const nested = nestedFuncs(t);
    const completion = new Map([...r.completion].map(([k, e]) => [k, nested.some((f) => k.startsWith(`?cpu.len(${f}.`) && !k.includes('@')) ? op('-', e, cst(1)) : e]));
    return { ...r, completion };
  },
};

/** Every loop rewritten by f, innermost first (f sees the loop with its body already rewritten). */
function mapLoops(s: Stmt, f: (s: ForStmt) => Stmt): Stmt {
  const inner = mapChildren(s, (c) => mapLoops(c, f));
  return inner.k === 'for' ? f(inner) : inner;
}

/** An executor that runs a loop with a negative extent zero times instead of getting stuck (§2.9). */
export function execNegativeAsZero(t: TgtProgram, input: Input, opts?: RunOptions): Outcome {
  const o = execTgt(t, input, opts);
  // Only runs that meet a negative extent behave differently; the others are the real executor's.
  if (o.kind !== 'stuck' || o.stuck.kind !== 'rdom-failure') return o;
  return execTgt({ ...t, body: mapLoops(t.body, (l) => ({ ...l, len: op('max', l.len, cst(0)) })) }, input, opts);
}

function nonTotalDivision(e: Expr): Expr {
  if (e.k === 'access') return { ...e, args: e.args.map(nonTotalDivision) };
  if (e.k !== 'op') return e;
  const args = e.args.map(nonTotalDivision);
  if (e.op !== 'div' && e.op !== 'mod') return { ...e, args };
  // x / 0 and x % 0 give x, the convention §2.9 rejected, in the target only.
  return op('select', op('=', args[1]!, cst(0)), args[0]!, { ...e, args });
}

const observable = (o: Outcome): string => canonical(o.kind === 'done' ? o.output : o.stuck);

/** An executor whose division and modulo by zero differ from the algorithm's total ones. */
export function execNonTotalDivision(t: TgtProgram, input: Input, opts?: RunOptions): Outcome {
  const o = execTgt(t, input, opts);
  const faulty = execTgt({ ...t, body: mapStmtExprs(t.body, nonTotalDivision) }, input, opts);
  // The rewrite costs extra steps; only a run where a division by zero changed something differs.
  return observable(faulty) === observable(o) ? o : faulty;
}
