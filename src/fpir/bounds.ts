// Interval bounds of FPIR expressions (spec/fpir.md, [FPIR-BOUNDS]): what predicated lowering
// rules ask (Pitchfork §3.3: `upper_bounded(x_u16, INT16_MAX)`). Sound and simple: exact
// intervals through the operations whose result is monotone in each operand and cannot wrap,
// the whole type elsewhere.
import type { FExpr } from './ast.js';
import { type Binding, baseName } from './match.js';
import { applyPrim } from './prim.js';
import { type ScalarType, clamp, inRange, tmax, tmin } from './types.js';

export type Interval = readonly [bigint, bigint];

const whole = (t: ScalarType): Interval => [tmin(t), tmax(t)];
const hull = (vs: readonly bigint[]): Interval => [vs.reduce((a, b) => (b < a ? b : a)), vs.reduce((a, b) => (b > a ? b : a))];
/** The interval if it fits the type (no wrapping happened), else the whole type. */
const fit = (i: Interval, t: ScalarType): Interval => (inRange(i[0], t) && inRange(i[1], t) ? i : whole(t));
const corners = (a: Interval, b: Interval, f: (x: bigint, y: bigint) => bigint): Interval => hull([f(a[0], b[0]), f(a[0], b[1]), f(a[1], b[0]), f(a[1], b[1])]);

// implements [FPIR-BOUNDS]
export function boundsOf(e: FExpr, env: (name: string) => Interval | undefined = () => undefined): Interval {
  const b = (x: FExpr) => boundsOf(x, env);
  switch (e.k) {
    case 'var':
      return env(e.name) ?? whole(e.type);
    case 'const':
      return [e.value, e.value];
    case 'cast':
      return fit(b(e.arg), e.type);
    case 'select': {
      const [, x, y] = e.args.map(b) as [Interval, Interval, Interval];
      return hull([...x, ...y]);
    }
    case 'prim': {
      const [x, y] = [b(e.args[0]), b(e.args[1])];
      // Constant operands (a rule's constant wildcards): the one value, exactly.
      if (x[0] === x[1] && y[0] === y[1]) {
        const v = applyPrim(e.op, x[0], y[0], e.type);
        return [v, v];
      }
      switch (e.op) {
        case '+':
          return fit(corners(x, y, (p, q) => p + q), e.type);
        case '-':
          return fit(corners(x, y, (p, q) => p - q), e.type);
        case '*':
          return fit(corners(x, y, (p, q) => p * q), e.type);
        case 'min':
          return [x[0] < y[0] ? x[0] : y[0], x[1] < y[1] ? x[1] : y[1]];
        case 'max':
          return [x[0] > y[0] ? x[0] : y[0], x[1] > y[1] ? x[1] : y[1]];
        case '<=':
          return x[1] <= y[0] ? [1n, 1n] : x[0] > y[1] ? [0n, 0n] : [0n, 1n];
        case '>=':
          return x[0] >= y[1] ? [1n, 1n] : x[1] < y[0] ? [0n, 0n] : [0n, 1n];
        case '&':
          return e.type.bits === 1 ? [x[0] & y[0], x[1] & y[1]] : whole(e.type);
        default:
          return whole(e.type);
      }
    }
    case 'fp': {
      const xs = e.args.map(b);
      const [x, y] = [xs[0]!, xs[1] ?? xs[0]!];
      switch (e.op) {
        case 'widening_add':
          return corners(x, y, (p, q) => p + q);
        case 'widening_sub':
          return corners(x, y, (p, q) => p - q);
        case 'widening_mul':
          return corners(x, y, (p, q) => p * q);
        case 'widening_shl':
          return y[0] >= 0n ? fit(corners(x, y, (p, q) => p << q), e.type) : whole(e.type);
        case 'absd': {
          const hi = hull([x[1] - y[0], y[1] - x[0], 0n])[1];
          return [0n, hi];
        }
        case 'saturating_cast':
        case 'saturating_narrow':
          return [clamp(x[0], e.type), clamp(x[1], e.type)];
        case 'saturating_add':
          return [clamp(x[0] + y[0], e.type), clamp(x[1] + y[1], e.type)];
        default:
          return whole(e.type);
      }
    }
  }
}

/** Does a rule's precondition hold for every value the bound expressions can take? */
export function provedFor(pre: FExpr | undefined, b: Binding): boolean {
  if (!pre) return true;
  const env = (name: string): Interval | undefined => {
    const x = b.get(baseName(name));
    return x ? boundsOf(x) : undefined;
  };
  const r = boundsOf(pre, env);
  return r[0] === 1n && r[1] === 1n;
}
