// Value ranges for 32-bit vector lanes (spec/codegen.md, [C-NARROW]). The bounds engines'
// symbolic interval arithmetic (fig. 2.10b, src/expr/interval.ts) gives every lane expression of
// a vectorized loop an interval whose ends are expressions in variables known when the loop starts;
// the emitted code evaluates the ends there and takes the 32-bit lanes only if they all fit.
import { type Expr, walkExpr } from '../expr/ast.js';
import { type Interval, TOP, evalInterval, hull, point } from '../expr/interval.js';
import { C } from '../expr/symbolic.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';

export type FuncRanges = ReadonlyMap<string, Interval>;

/** The interval of a loop variable: [min.lo, (min + len − 1).hi]. */
function loopInterval(min: Expr, len: Expr, env: (e: Expr) => Interval): Interval {
  const lo = env(min).lo;
  const hi = env({ k: 'op', op: '+', args: [min, { k: 'op', op: '-', args: [len, C(1)] }] }).hi;
  return { lo, hi };
}

function evalIn(e: Expr, vars: ReadonlyMap<string, Interval>, funcs: FuncRanges): Interval {
  return evalInterval(e, {
    variable: (name) => vars.get(name) ?? point({ k: 'var', name }),
    hole: () => TOP,
    access: (a) => funcs.get(a.func) ?? TOP,
  });
}

/**
 * The values each func's buffer can hold: the hull of the intervals of every value stored into it,
 * with loop and let variables replaced by their intervals, so the ends mention only the pipeline's
 * parameters and window. Starting from [−∞, ∞] for every func, each pass is sound given the last
 * (a descending iteration), so the result after a fixed number of passes is sound.
 */
export function funcRanges(t: TgtProgram, passes = 3): FuncRanges {
  let ranges: Map<string, Interval> = new Map();
  for (let k = 0; k < passes; k++) {
    const next = new Map<string, Interval>();
    walkScoped(t.body, new Map(), ranges, (s, vars) => {
      if (s.k !== 'store') return;
      const v = evalIn(s.value, vars, ranges);
      const prev = next.get(s.func);
      next.set(s.func, prev === undefined ? v : hull(prev, v));
    });
    ranges = next;
  }
  return ranges;
}

/**
 * Calls `f` on every statement of `s` with the intervals of the loop and let variables bound
 * around it (a loop's min and extent, and a let's value, see the variables outside it) and the
 * number of loops of `s` around it.
 */
function walkScoped(s: Stmt, vars: ReadonlyMap<string, Interval>, funcs: FuncRanges, f: (s: Stmt, vars: ReadonlyMap<string, Interval>, depth: number) => void, depth = 0): void {
  f(s, vars, depth);
  const env = (e: Expr) => evalIn(e, vars, funcs);
  const walk = (b: Stmt, inner = vars, d = depth) => walkScoped(b, inner, funcs, f, d);
  switch (s.k) {
    case 'seq':
      for (const b of s.body) walk(b);
      return;
    case 'if':
      walk(s.then);
      walk(s.else);
      return;
    case 'label':
      walk(s.body);
      return;
    case 'let':
      walk(s.body, new Map(vars).set(s.var, env(s.value)));
      return;
    case 'for':
      walk(s.body, new Map(vars).set(s.var, loopInterval(s.min, s.len, env)), depth + 1);
      return;
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
function entryScope(loop: Extract<Stmt, { k: 'for' }>, funcs: FuncRanges): Map<string, Interval> {
  return new Map([[loop.var, loopInterval(loop.min, loop.len, (e) => evalIn(e, new Map(), funcs))]]);
}

/** The variable intervals each loop inside `loop`'s body starts in (for [C-NARROW] decided at `loop`'s entry). */
export function innerLoopScopes(loop: Extract<Stmt, { k: 'for' }>, funcs: FuncRanges): Map<Stmt, ReadonlyMap<string, Interval>> {
  const out = new Map<Stmt, ReadonlyMap<string, Interval>>();
  walkScoped(loop.body, entryScope(loop, funcs), funcs, (s, scope) => {
    if (s.k === 'for') out.set(s, scope);
  });
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
  walkScoped(loop.body, entryScope(loop, funcs), funcs, (s, scope, depth) => {
    for (const e of ownExprs(s)) {
      walkExpr(e, (sub) => {
        const prev = out.get(sub);
        if (!isCheckedOp(sub) || prev?.ends === null) return;
        const i = evalIn(sub, scope, funcs);
        const ends = i.lo === null || i.hi === null ? null : [...(prev?.ends ?? []), i.lo, i.hi];
        out.set(sub, { depth: Math.max(depth, prev?.depth ?? 0), ends });
      });
    }
  });
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
  for (const e of exprs) {
    walkExpr(e, (sub) => {
      const i = evalIn(sub, vars, funcs);
      if (i.lo === null || i.hi === null) bounded = false;
      else ends.push(i.lo, i.hi);
    });
  }
  return bounded ? ends : undefined;
}
