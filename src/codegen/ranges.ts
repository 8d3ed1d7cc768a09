// Value ranges for 32-bit vector lanes (spec/codegen.md, [C-NARROW]). The bounds engines'
// symbolic interval arithmetic (fig. 2.10b, src/expr/interval.ts) gives every lane expression of
// a vectorized loop an interval whose ends are expressions in variables known when the loop starts;
// the emitted code evaluates the ends there and takes the 32-bit lanes only if they all fit.
import { type Expr, walkExpr } from '../expr/ast.js';
import { type Interval, TOP, evalInterval, hull, point } from '../expr/interval.js';
import { C } from '../expr/symbolic.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';

export type FuncRanges = ReadonlyMap<string, Interval>;

interface Scope {
  readonly vars: ReadonlyMap<string, Interval>;
}

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
    const next = new Map<string, Interval | undefined>();
    const visit = (s: Stmt, scope: Scope): void => {
      const env = (e: Expr) => evalIn(e, scope.vars, ranges);
      switch (s.k) {
        case 'store': {
          const v = env(s.value);
          const prev = next.get(s.func);
          next.set(s.func, prev === undefined ? v : hull(prev, v));
          return;
        }
        case 'seq':
          for (const b of s.body) visit(b, scope);
          return;
        case 'if':
          visit(s.then, scope);
          visit(s.else, scope);
          return;
        case 'label':
          visit(s.body, scope);
          return;
        case 'let':
          visit(s.body, { vars: new Map(scope.vars).set(s.var, env(s.value)) });
          return;
        case 'for':
          visit(s.body, { vars: new Map(scope.vars).set(s.var, loopInterval(s.min, s.len, env)) });
          return;
        default:
          return;
      }
    };
    visit(t.body, { vars: new Map() });
    ranges = new Map([...next].map(([f, i]) => [f, i ?? TOP]));
  }
  return ranges;
}

/**
 * The interval ends that must lie in the int32 range for a vectorized loop's lanes to be 32-bit:
 * both ends of every subexpression of `exprs`, with the loop variable ranging over
 * [min, min + len − 1] and the loop's lets over their intervals. Undefined when some end is
 * infinite (no proof is possible).
 */
export function laneEnds(
  exprs: readonly Expr[],
  loop: { readonly var: string; readonly min: Expr; readonly len: Expr },
  lets: readonly { readonly var: string; readonly value: Expr }[],
  funcs: FuncRanges,
): Expr[] | undefined {
  const vars = new Map<string, Interval>();
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
