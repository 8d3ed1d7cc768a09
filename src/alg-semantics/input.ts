// Checking an input z = ⟨(I_1 … I_n), (c_1 … c_m)⟩ (fig. 2.5a) against a pipeline before realizing.
import { CLI_LOC, UserError, argLoc } from '../diag.js';
import { mul } from '../expr/ops.js';
import type { Int } from '../expr/value.js';
import type { Func, Input, Pipeline } from './ast.js';

/** Largest window `realize` materialises unless told otherwise (`--max-points`). */
export const DEFAULT_MAX_POINTS = 10_000_000;


export function outputFunc(p: Pipeline): Func {
  const f = p.funcs.find((g) => g.name === p.output);
  if (!f) throw new UserError(`the output func '${p.output}' is not defined`, p.loc);
  return f;
}

/**
 * An input as a library user writes it: a window of `[min, len]` pairs and the parameters as a
 * Map or a plain object, integers as numbers or bigints.
 */
export interface InputLike {
  readonly window: readonly (readonly [min: number | bigint, len: number | bigint])[];
  readonly params?: ReadonlyMap<string, number | bigint> | Readonly<Record<string, number | bigint>>;
}

const isInt = (v: unknown): v is Int => (typeof v === 'number' && Number.isSafeInteger(v)) || typeof v === 'bigint';
/** A bigint in the safe range is stored as a number (the canonical form of exact integers). */
const canonical = (v: Int): Int => (typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);

/** The input the evaluators take, from what a library user passes; wrong shapes are refused plainly. */
export function inputOf(x: Input | InputLike): Input {
  if (x === null || typeof x !== 'object' || !Array.isArray(x.window)) {
    throw new UserError('an input needs a window: a list of [min, len] pairs, one per output dimension', CLI_LOC, 'e.g. { window: [[0, 4]], params: { n: 3 } }');
  }
  const window = x.window.map((d, i) => {
    if (!Array.isArray(d) || d.length !== 2 || !isInt(d[0]) || !isInt(d[1])) {
      throw new UserError(`window dimension ${i} is not a [min, len] pair of integers`, CLI_LOC, 'e.g. { window: [[0, 4], [-2, 3]] }');
    }
    return [canonical(d[0]), canonical(d[1])] as const;
  });
  const raw = x.params ?? new Map<string, Int>();
  const entries: [string, unknown][] = raw instanceof Map ? [...raw] : Object.entries(raw);
  for (const [k, v] of entries) if (!isInt(v)) throw new UserError(`parameter '${k}' is ${String(v)}, not an integer`, CLI_LOC, 'parameters are safe integers or bigints');
  return { window, params: new Map(entries.map(([k, v]) => [k, canonical(v as Int)])) };
}

/** Number of points of a window (the product of its extents). */
export function windowSize(window: Input['window']): Int {
  return window.reduce<Int>((n, [, len]) => mul(n, len), 1);
}

export function checkInput(p: Pipeline, input: Input, opts: { maxPoints?: number } = {}): void {
  const f = outputFunc(p);
  if (input.window.length !== f.vars.length) {
    throw new UserError(`the window has ${input.window.length} dimensions but the output func '${f.name}' has ${f.vars.length} (${f.vars.join(', ') || 'none'})`,
      argLoc('--window'), `give one MIN+LEN per dimension, e.g. --window ${f.vars.map(() => '0+4').join(',') || "''"}`);
  }
  for (const [min, len] of input.window) {
    if (len < 0) throw new UserError(`the window extent ${len} (at minimum ${min}) is negative`, argLoc('--window'), 'window extents are at least 0');
  }
  for (const q of p.params) {
    if (!input.params.has(q)) throw new UserError(`parameter '${q}' is not given`, argLoc('--param'), `pass --param ${q}=INT`);
  }
  for (const q of input.params.keys()) {
    if (!p.params.includes(q)) {
      throw new UserError(`'${q}' is not a parameter of pipeline '${p.output}'`, argLoc('--param', `${q}=${input.params.get(q)}`),
        p.params.length ? `its parameters are: ${p.params.join(', ')}` : 'this pipeline takes no parameters');
    }
  }
  const maxPoints = opts.maxPoints ?? DEFAULT_MAX_POINTS;
  const size = windowSize(input.window);
  if (size > maxPoints) {
    throw new UserError(`the window has ${size} points, more than the limit of ${maxPoints}`, CLI_LOC, 'use a smaller window (refsem run accepts --max-points to raise the limit)');
  }
}
