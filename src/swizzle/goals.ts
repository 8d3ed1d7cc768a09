// Builtin goals (spec/swizzle.md, [SWZ-GOAL]): the specifications of the seed's benchmarks (§5.1),
// written as functions of the goal array's shape. Data symbols are x0, x1, …; weights w0, …;
// polynomial coefficients a0, … and b0, ….
import { type Loc, UserError } from '../diag.js';
import type { Opts } from './gathers.js';
import { type Shape, showShape, sizeOf } from './shape.js';
import type { Terms } from './term.js';

// implements [SWZ-GOAL]
type GoalFn = (t: Terms, shape: Shape, opt: (k: string) => number) => Int32Array;

const sym = (t: Terms, p: string, i: number): number => t.symbol(`${p}${i}`);

const GOALS: Readonly<Record<string, { dims: number; build: GoalFn }>> = {
  /** Trove (CRC, RCR): thread i ends holding the i-th struct of s consecutive values. */
  trove: { dims: 2, build: (t, [n, s]) => Int32Array.from({ length: n! * s! }, (_, k) => sym(t, 'x', k)) },
  /** Trove (Sum): thread i sums its struct. */
  trove_sum: { dims: 1, build: (t, [n], opt) => Int32Array.from({ length: n! }, (_, i) => t.fold(Array.from({ length: opt('n') }, (_, j) => sym(t, 'x', opt('n') * i + j)))) },
  /** 1-D convolution: out[i] = Σ_t x[i+t]·w[t]. */
  conv1d: { dims: 1, build: (t, [n], opt) => Int32Array.from({ length: n! }, (_, i) => t.fold(Array.from({ length: opt('k') }, (_, j) => t.fold([sym(t, 'x', i + j), sym(t, 'w', j)])))) },
  /** 2-D stencil: out[i, j] sums the k×k window of a (h+k−1)×(w+k−1) input, flattened row-major. */
  stencil_2d: {
    dims: 2,
    build: (t, [h, w], opt) => {
      const k = opt('k');
      const width = w! + k - 1;
      return Int32Array.from({ length: h! * w! }, (_, c) => {
        const i = Math.floor(c / w!);
        const j = c % w!;
        const cells: number[] = [];
        for (let di = 0; di < k; di++) for (let dj = 0; dj < k; dj++) cells.push(sym(t, 'x', (i + di) * width + j + dj));
        return t.fold(cells);
      });
    },
  },
  /** Polynomial (finite-field) multiplication: coefficient m of a·b, for degree-w inputs. */
  poly_mult: {
    dims: 1,
    build: (t, [n], opt) => {
      const w = opt('w');
      return Int32Array.from({ length: n! }, (_, m) => {
        const prods: number[] = [];
        for (let i = 0; i < w; i++) if (m - i >= 0 && m - i < w) prods.push(t.fold([sym(t, 'a', i), sym(t, 'b', m - i)]));
        return t.fold(prods);
      });
    },
  },
  /** The HVX Gaussian's 1-2-1 filter: out[m] = x[m]·w0 + x[m+1]·w1 + x[m+2]·w0. */
  gaussian: { dims: 1, build: (t, [n]) => Int32Array.from({ length: n! }, (_, m) => t.fold([t.fold([sym(t, 'x', m), sym(t, 'w', 0)]), t.fold([sym(t, 'x', m + 1), sym(t, 'w', 1)]), t.fold([sym(t, 'x', m + 2), sym(t, 'w', 0)])])) },
};

export const GOAL_NAMES = Object.keys(GOALS);

export function isGoalName(name: string): boolean {
  return Object.hasOwn(GOALS, name);
}

export function buildGoal(name: string, opts: Opts, t: Terms, shape: Shape, loc: Loc): Int32Array {
  const g = GOALS[name];
  if (!g) throw new UserError(`unknown goal '${name}'`, loc, `the builtin goals are: ${GOAL_NAMES.join(', ')}, or write a literal`);
  if (shape.length !== g.dims) throw new UserError(`goal ${name} is ${g.dims}-dimensional, but the array is ${showShape(shape)}`, loc);
  if (sizeOf(shape) > 1 << 20) throw new UserError(`goal array ${showShape(shape)} is too large`, loc);
  const opt = (k: string): number => {
    const v = opts.get(k);
    if (typeof v !== 'number' || v < 1 || v > 64) throw new UserError(`goal ${name} needs option ${k}, a number from 1 to 64`, loc, `write ${name}{${k}=3}`);
    return v;
  };
  return g.build(t, shape, opt);
}
