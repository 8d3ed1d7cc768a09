// Checking an input z = ⟨(I_1 … I_n), (c_1 … c_m)⟩ (fig. 2.5a) against a pipeline before realizing.
import { type Loc, UserError } from '../diag.js';
import { mul } from '../expr/ops.js';
import type { Int } from '../expr/value.js';
import type { Func, Input, Pipeline } from './ast.js';

/** Largest window `realize` materialises unless told otherwise (`--max-points`). */
export const DEFAULT_MAX_POINTS = 10_000_000;

const CLI: Loc = { file: '<command line>', line: 1, col: 1 };

export function outputFunc(p: Pipeline): Func {
  const f = p.funcs.find((g) => g.name === p.output);
  if (!f) throw new UserError(`the output func '${p.output}' is not defined`, p.loc);
  return f;
}

/** Number of points of a window (the product of its extents). */
export function windowSize(window: Input['window']): Int {
  return window.reduce<Int>((n, [, len]) => mul(n, len), 1);
}

export function checkInput(p: Pipeline, input: Input, opts: { maxPoints?: number } = {}): void {
  const f = outputFunc(p);
  if (input.window.length !== f.vars.length) {
    throw new UserError(`the window has ${input.window.length} dimensions but the output func '${f.name}' has ${f.vars.length} (${f.vars.join(', ') || 'none'})`,
      CLI, `give one MIN+LEN per dimension, e.g. --window ${f.vars.map(() => '0+4').join(',') || "''"}`);
  }
  for (const [min, len] of input.window) {
    if (len < 0) throw new UserError(`the window extent ${len} (at minimum ${min}) is negative`, CLI, 'window extents are at least 0');
  }
  for (const q of p.params) {
    if (!input.params.has(q)) throw new UserError(`parameter '${q}' is not given`, CLI, `pass --param ${q}=INT`);
  }
  for (const q of input.params.keys()) {
    if (!p.params.includes(q)) {
      throw new UserError(`'${q}' is not a parameter of pipeline '${p.output}'`, CLI,
        p.params.length ? `its parameters are: ${p.params.join(', ')}` : 'this pipeline takes no parameters');
    }
  }
  const maxPoints = opts.maxPoints ?? DEFAULT_MAX_POINTS;
  const size = windowSize(input.window);
  if (size > maxPoints) {
    throw new UserError(`the window has ${size} points, more than the limit of ${maxPoints}`, CLI, 'use a smaller window (refsem run accepts --max-points to raise the limit)');
  }
}
