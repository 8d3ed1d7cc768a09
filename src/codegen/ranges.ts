// Value ranges for 32-bit vector lanes (spec/codegen.md, [C-NARROW]). The bounds engines'
// symbolic interval arithmetic (fig. 2.10b, src/expr/interval.ts) gives every lane expression of
// a vectorized loop an interval whose ends are expressions in variables known when the loop starts;
// the emitted code evaluates the ends there and takes the 32-bit lanes only if they all fit.
import { type Expr, exprEquals, listEquals, walkExpr } from '../expr/ast.js';
import { type Interval, TOP, evalInterval, hull, iAdd, iMul, point } from '../expr/interval.js';
import { C, constOf, maxE, mulE } from '../expr/symbolic.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { visitStmts } from '../target-semantics/walk.js';

export type FuncRanges = ReadonlyMap<string, Interval>;

/** The interval of a loop variable: [min.lo, (min + len − 1).hi]. */
function loopInterval(min: Expr, len: Expr, env: (e: Expr) => Interval): Interval {
  const lo = env(min).lo;
  const hi = env({ k: 'op', op: '+', args: [min, { k: 'op', op: '-', args: [len, C(1)] }] }).hi;
  return { lo, hi };
}

function evalIn(e: Expr, vars: ReadonlyMap<string, Interval>, funcs: FuncRanges, memo?: Map<Expr, Interval>): Interval {
  return evalInterval(
    e,
    {
      variable: (name) => vars.get(name) ?? point({ k: 'var', name }),
      hole: () => TOP,
      access: (a) => funcs.get(a.func) ?? TOP,
    },
    memo,
  );
}

/**
 * Calls `f` on every distinct node (by identity) of `exprs` once, with its interval over `vars`,
 * each node evaluated once: the ends of a node repeated in a tree are the same at every occurrence.
 */
function eachInterval(exprs: readonly Expr[], vars: ReadonlyMap<string, Interval>, funcs: FuncRanges, memo: Map<Expr, Interval>, seen: Set<Expr>, f: (e: Expr, i: () => Interval) => void): void {
  const visit = (e: Expr): void => {
    if (seen.has(e)) return;
    seen.add(e);
    f(e, () => evalIn(e, vars, funcs, memo));
    if (e.k === 'access' || e.k === 'op') for (const a of e.args) visit(a);
  };
  for (const e of exprs) visit(e);
}

/** One memo and one set of visited nodes per scope's variable intervals (scopes share their map while nothing is bound). */
function perScope(): (vars: ReadonlyMap<string, Interval>) => { memo: Map<Expr, Interval>; seen: Set<Expr> } {
  const byVars = new Map<ReadonlyMap<string, Interval>, { memo: Map<Expr, Interval>; seen: Set<Expr> }>();
  return (vars) => {
    let m = byVars.get(vars);
    if (m === undefined) byVars.set(vars, (m = { memo: new Map(), seen: new Set() }));
    return m;
  };
}

/** A let or loop around a statement; a loop with the interval of its extent where it starts. */
interface Binder {
  readonly name: string;
  readonly len?: Interval;
  /** a loop's min and extent as written */
  readonly loop?: { readonly min: Expr; readonly len: Expr };
  /** a let's value */
  readonly value?: Expr;
}

/** What [C-ACCUMULATE] knows about a statement's surroundings (see walkScoped). */
interface Scope {
  /** the intervals of the loop and let variables bound around the statement */
  readonly vars: ReadonlyMap<string, Interval>;
  /** the number of loops of the walked statement around it */
  readonly depth: number;
  /** the lets and loops around it, outermost first */
  readonly binders: readonly Binder[];
  /**
   * Per func, how many of `binders` lie outside the latest `allocate` of the func that precedes the
   * statement in a sequence around it (each run of that allocate starts a fresh buffer).
   */
  readonly allocated: ReadonlyMap<string, number>;
}

type Store = Extract<Stmt, { k: 'store' }>;

/** `f[ī] <- f[ī] + e`, `e + f[ī]` or `f[ī] - e`: the term added to the point's value (negated for −). */
function accumulatedTerm(s: Store): Expr | undefined {
  const v = s.value;
  if (v.k !== 'op' || (v.op !== '+' && v.op !== '-')) return undefined;
  const samePoint = (e: Expr) => e.k === 'access' && e.func === s.func && listEquals(e.args, s.idx);
  const [a, b] = v.args as [Expr, Expr];
  if (samePoint(a)) return v.op === '+' ? b : { k: 'op', op: '-', args: [C(0), b] };
  return v.op === '+' && samePoint(b) ? a : undefined;
}

// implements [C-ACCUMULATE]
/**
 * How often one run of the buffer's lifetime can execute `s` at one point, as an
 * interval [0, N]. The loops since the func's latest allocation whose variable is, unshadowed, a
 * whole index component are fixed by the point; N is the product of the other loops' largest
 * extents (at least 0).
 */
function executionsPerPoint(s: Store, scope: Scope): Interval {
  const fixed = new Set(s.idx.flatMap((e) => (e.k === 'var' ? [e.name] : [])));
  const innermost = new Map(scope.binders.map((b, i) => [b.name, i]));
  for (const v of [...fixed]) for (const l of splitLoops(v, scope.binders, innermost)) fixed.add(l);
  let n: Expr | null = C(1);
  scope.binders.forEach((b, i) => {
    if (b.len === undefined || i < (scope.allocated.get(s.func) ?? 0)) return;
    if (innermost.get(b.name) === i && fixed.has(b.name)) return;
    n = n === null || b.len.hi === null ? null : mulE(n, maxE(C(0), b.len.hi));
  });
  return { lo: C(0), hi: n };
}

/**
 * The loops a let-bound index component fixes besides itself: a let `v = e₀ + a·K + b` (a guarded
 * split's coordinate), a and b loops around it, b's running over (0, n) with constants n ≤ K, and
 * e₀ mentioning neither them nor anything bound inside them. Then v − e₀ = a·K + b with
 * 0 ≤ b < K, so for given outer variables one value of v has one pair (a, b): both loops are fixed
 * by the point.
 */
function splitLoops(v: string, binders: readonly Binder[], innermost: ReadonlyMap<string, number>): string[] {
  const at = innermost.get(v);
  const value = at === undefined ? undefined : binders[at]!.value;
  if (value === undefined) return [];
  const terms: Expr[] = [];
  const flatten = (e: Expr): void => {
    if (e.k === 'op' && e.op === '+') e.args.forEach(flatten);
    else terms.push(e);
  };
  flatten(value);
  const loopAt = (e: Expr | undefined) => (e?.k === 'var' && innermost.get(e.name) !== undefined && innermost.get(e.name)! < at! && binders[innermost.get(e.name)!]!.loop ? innermost.get(e.name)! : undefined);
  for (const [i, bTerm] of terms.entries()) {
    const b = loopAt(bTerm);
    if (b === undefined) continue;
    const bLoop = binders[b]!.loop!;
    const n = constOf(bLoop.len);
    if (constOf(bLoop.min) === undefined || BigInt(constOf(bLoop.min)!) !== 0n || n === undefined) continue;
    for (const [j, aTerm] of terms.entries()) {
      if (j === i || aTerm.k !== 'op' || aTerm.op !== '*') continue;
      const [x, y] = aTerm.args as [Expr, Expr];
      const k = constOf(y) ?? constOf(x);
      const a = loopAt(constOf(y) !== undefined ? x : y);
      if (a === undefined || a === b || k === undefined || BigInt(k) < BigInt(n) || BigInt(n) < 1n) continue;
      const inner = new Set(binders.slice(Math.min(a, b)).map((x) => x.name));
      const rest = terms.filter((_, q) => q !== i && q !== j);
      if (rest.some((e) => mentionsAny(e, inner))) continue;
      return [binders[a]!.name, binders[b]!.name];
    }
  }
  return [];
}

function mentionsAny(e: Expr, names: ReadonlySet<string>): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (x.k === 'var' && names.has(x.name)) found = true;
  });
  return found;
}

/**
 * How often one lifetime of the func's buffer can execute `s` at all, at any point: the product of
 * the largest extents of the loops around it since the func's latest allocation; undefined unless
 * that is a constant.
 */
function executionsPerLifetime(s: Store, scope: Scope): bigint | undefined {
  let n = 1n;
  for (const [i, b] of scope.binders.entries()) {
    if (b.len === undefined || i < (scope.allocated.get(s.func) ?? 0)) continue;
    const hi = b.len.hi === null ? undefined : constOf(b.len.hi);
    if (hi === undefined) return undefined;
    n *= BigInt(hi) > 0n ? BigInt(hi) : 0n;
  }
  return n;
}

/** Whether `e` reads func `f` anywhere. */
function reads(e: Expr, f: string): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (x.k === 'access' && x.func === f) found = true;
  });
  return found;
}

/** Iterations of [C-RECURRENCE] looked through for an invariant range when no count bounds them. */
const MAX_RECURRENCE_STEPS = 64;

// implements [C-RECURRENCE]
/**
 * The range of a func some of whose stores read the func itself (a scan: `f[r] <- f[r − 1] + f[r]`),
 * from `base`, the hull of its other stores. R₀ = base and Rₖ₊₁ = Rₖ ∪ the values of the reading
 * stores with the func's reads over Rₖ: every integer of the buffer lies in Rₖ after k runs of
 * those stores. An Rₖ equal to Rₖ₊₁ holds after any number of runs; otherwise R_N does, N the
 * stores' runs per buffer lifetime when that is a constant up to MAX_RECURRENCE_STEPS. Anything
 * else, and ends that are not constants, is [−∞, ∞].
 */
function recurrenceRange(f: string, base: Interval | undefined, stores: readonly { s: Store; scope: Scope }[], ranges: FuncRanges): Interval {
  const constant = (i: Interval) => i.lo !== null && i.hi !== null && constOf(i.lo) !== undefined && constOf(i.hi) !== undefined;
  if (base === undefined || !constant(base)) return TOP;
  let runs: bigint | undefined = 0n;
  for (const { s, scope } of stores) {
    const n = executionsPerLifetime(s, scope);
    runs = runs === undefined || n === undefined ? undefined : runs + n;
  }
  const steps = runs !== undefined && runs <= BigInt(MAX_RECURRENCE_STEPS) ? Number(runs) : undefined;
  let r = base;
  for (let k = 0; k < (steps ?? MAX_RECURRENCE_STEPS); k++) {
    const inner = new Map(ranges).set(f, r);
    const next = stores.reduce((acc, { s, scope }) => hull(acc, evalIn(s.value, scope.vars, inner)), r);
    if (!constant(next)) return TOP;
    const same = (a: Expr | null, b: Expr | null) => BigInt(constOf(a!)!) === BigInt(constOf(b!)!);
    if (same(next.lo, r.lo) && same(next.hi, r.hi)) return r;
    r = next;
  }
  return steps === undefined ? TOP : r;
}

/**
 * The values each func's buffer can hold: the hull of the intervals of every value stored into it,
 * with loop and let variables replaced by their intervals, so the ends mention only the pipeline's
 * parameters and window; an accumulating store adds its term as often as it can run per point
 * ([C-ACCUMULATE]); stores that read their own func otherwise are bounded by [C-RECURRENCE].
 * Starting from [−∞, ∞] for every func, each pass is sound given the last (a descending
 * iteration), so the result after a fixed number of passes is sound.
 */
export function funcRanges(t: TgtProgram, passes?: number): FuncRanges {
  let ranges: Map<string, Interval> = new Map();
  // A func's range needs the ranges of the funcs it reads, one pass later: a chain of n stages
  // needs n passes. Without a given number, passes run until nothing changes (at most one per
  // stored func, plus one).
  const limit = passes ?? storedFuncs(t.body).size + 1;
  for (let k = 0; k < limit; k++) {
    const before = ranges;
    const stored = new Map<string, Interval>();
    const added = new Map<string, Interval>();
    const recurrent = new Map<string, { s: Store; scope: Scope }[]>();
    const join = (m: Map<string, Interval>, f: string, v: Interval, op: (a: Interval, b: Interval) => Interval) => {
      const prev = m.get(f);
      m.set(f, prev === undefined ? v : op(prev, v));
    };
    walkScoped(t.body, ranges, (s, scope) => {
      if (s.k !== 'store') return;
      const term = accumulatedTerm(s);
      if (term !== undefined && !reads(term, s.func)) join(added, s.func, iMul(executionsPerPoint(s, scope), evalIn(term, scope.vars, ranges)), iAdd);
      else if (reads(s.value, s.func)) recurrent.set(s.func, [...(recurrent.get(s.func) ?? []), { s, scope }]);
      else join(stored, s.func, evalIn(s.value, scope.vars, ranges), hull);
    });
    // A buffer starts every lifetime as ε_mem, which an accumulation keeps, so every integer it
    // holds is a plainly stored value plus at most N terms of each accumulating store.
    for (const [f, sum] of added) if (stored.has(f)) stored.set(f, iAdd(stored.get(f)!, sum));
    for (const [f, stores] of recurrent) stored.set(f, added.has(f) ? TOP : recurrenceRange(f, stored.get(f), stores, ranges));
    ranges = stored;
    if (passes === undefined && sameRanges(before, ranges)) break;
  }
  return ranges;
}

const sameEnd = (a: Expr | null, b: Expr | null): boolean => (a === null ? b === null : b !== null && exprEquals(a, b));

function sameRanges(a: FuncRanges, b: FuncRanges): boolean {
  return a.size === b.size && [...a].every(([f, i]) => b.has(f) && sameEnd(i.lo, b.get(f)!.lo) && sameEnd(i.hi, b.get(f)!.hi));
}

/** The funcs some statement of `s` stores into. */
function storedFuncs(s: Stmt, out = new Set<string>()): Set<string> {
  visitStmts(s, (x) => {
    if (x.k === 'store') out.add(x.func);
  });
  return out;
}

/**
 * Calls `f` on every statement of `s` with its scope: the intervals of the loop and let variables
 * bound around it (a loop's min and extent, and a let's value, see the variables outside it), the
 * number of loops of `s` around it, and the binders and allocations [C-ACCUMULATE] counts with.
 */
function walkScoped(
  s: Stmt,
  funcs: FuncRanges,
  f: (s: Stmt, scope: Scope) => void,
  scope: Scope = { vars: new Map(), depth: 0, binders: [], allocated: new Map() },
  memos = perScope(),
): void {
  f(s, scope);
  // loop bounds and let values repeat their subterms (bounds inference builds extents from extents)
  const env = (e: Expr) => evalIn(e, scope.vars, funcs, memos(scope.vars).memo);
  const walk = (b: Stmt, inner = scope) => walkScoped(b, funcs, f, inner, memos);
  switch (s.k) {
    case 'seq': {
      let inner = scope;
      for (const b of s.body) {
        walk(b, inner);
        if (b.k === 'allocate') inner = { ...inner, allocated: new Map(inner.allocated).set(b.func, scope.binders.length) };
      }
      return;
    }
    case 'if':
      walk(s.then);
      walk(s.else);
      return;
    case 'label':
      walk(s.body);
      return;
    case 'let':
      walk(s.body, { ...scope, vars: new Map(scope.vars).set(s.var, env(s.value)), binders: [...scope.binders, { name: s.var, value: s.value }] });
      return;
    case 'for': {
      const binder = { name: s.var, len: env(s.len), loop: { min: s.min, len: s.len } };
      const vars = new Map(scope.vars).set(s.var, loopInterval(s.min, s.len, env));
      walk(s.body, { ...scope, vars, depth: scope.depth + 1, binders: [...scope.binders, binder] });
      return;
    }
    default:
      return;
  }
}

/** The expressions a statement evaluates itself (not those of the statements it contains). */
function ownExprs(s: Stmt): readonly Expr[] {
  switch (s.k) {
    case 'assert':
    case 'if':
      return [s.cond];
    case 'let':
      return [s.value];
    case 'store':
      return [s.value, ...s.idx];
    case 'allocate':
      return s.dims.flatMap((d) => [d.min, d.len]);
    case 'for':
      return [s.min, s.len];
    default:
      return [];
  }
}

/** The operations [C-ARITH] checks for overflow. */
const isCheckedOp = (e: Expr): boolean => e.k === 'op' && (e.op === '+' || e.op === '-' || e.op === '*');

/** At a loop's entry: its variable over [min, min + len − 1], everything bound outside it exact. */
function entryScope(loop: Extract<Stmt, { k: 'for' }>, funcs: FuncRanges): Scope {
  const vars = new Map([[loop.var, loopInterval(loop.min, loop.len, (e) => evalIn(e, new Map(), funcs))]]);
  return { vars, depth: 0, binders: [], allocated: new Map() };
}

/** The variable intervals each loop inside `loop`'s body starts in (for [C-NARROW] decided at `loop`'s entry). */
export function innerLoopScopes(loop: Extract<Stmt, { k: 'for' }>, funcs: FuncRanges): Map<Stmt, ReadonlyMap<string, Interval>> {
  const out = new Map<Stmt, ReadonlyMap<string, Interval>>();
  walkScoped(loop.body, funcs, (s, scope) => {
    if (s.k === 'for') out.set(s, scope.vars);
  }, entryScope(loop, funcs));
  return out;
}

/** A checked operation of a loop body: how many loops of the body enclose it, and its ends. */
export interface OverflowCandidate {
  readonly depth: number;
  /** both ends of every occurrence; null when some occurrence's interval is unbounded */
  readonly ends: readonly Expr[] | null;
}

/**
 * `C-PROVED` candidates: every checked operation in the body of `loop`, with the interval ends of
 * all its occurrences (the loop variable over [min, min + len − 1], inner loop and let variables
 * over their intervals, reads over their func's range, everything bound outside the loop exact).
 */
export function overflowCandidates(loop: Extract<Stmt, { k: 'for' }>, funcs: FuncRanges): Map<Expr, OverflowCandidate> {
  const out = new Map<Expr, OverflowCandidate>();
  const scoped = perScope();
  walkScoped(loop.body, funcs, (s, { vars, depth }) => {
    const { memo, seen } = scoped(vars);
    // A node met again in the same scope has the same ends, so only its first occurrence counts;
    // its depth is the same too, since a different loop binds its variable in a new scope.
    eachInterval(ownExprs(s), vars, funcs, memo, seen, (sub, interval) => {
      const prev = out.get(sub);
      if (!isCheckedOp(sub) || prev?.ends === null) return;
      const i = interval();
      const ends = i.lo === null || i.hi === null ? null : [...(prev?.ends ?? []), i.lo, i.hi];
      out.set(sub, { depth: Math.max(depth, prev?.depth ?? 0), ends });
    });
  }, entryScope(loop, funcs), scoped);
  return out;
}

/**
 * The interval ends that must lie in the int32 range for a vectorized loop's lanes to be 32-bit:
 * both ends of every subexpression of `exprs`, with the loop variable ranging over
 * [min, min + len − 1] and the loop's lets over their intervals, and the variables bound outside
 * the loop over `outer` (exact when absent). Undefined when some end is infinite (no proof is possible).
 */
export function laneEnds(
  exprs: readonly Expr[],
  loop: { readonly var: string; readonly min: Expr; readonly len: Expr },
  lets: readonly { readonly var: string; readonly value: Expr }[],
  funcs: FuncRanges,
  outer: ReadonlyMap<string, Interval> = new Map(),
): Expr[] | undefined {
  const vars = new Map<string, Interval>(outer);
  vars.set(loop.var, loopInterval(loop.min, loop.len, (e) => evalIn(e, vars, funcs)));
  for (const l of lets) vars.set(l.var, evalIn(l.value, vars, funcs));
  const ends: Expr[] = [];
  let bounded = true;
  // each distinct node once: a repeated node adds the same ends again
  eachInterval(exprs, vars, funcs, new Map(), new Set(), (_, interval) => {
    const i = interval();
    if (i.lo === null || i.hi === null) bounded = false;
    else ends.push(i.lo, i.hi);
  });
  return bounded ? ends : undefined;
}
