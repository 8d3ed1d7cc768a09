// fast-check arbitraries for completed target programs (Tgt, fig. 2.7) and inputs for them. The
// programs are well scoped (checkTgt accepts them) but otherwise unconstrained, so they reach
// every outcome: done, failing asserts, negative extents, out-of-bounds reads and writes, error
// values in control, unallocated accesses, and parallel loops with and without races.
import fc from 'fast-check';
import type { Input } from '../../alg-semantics/ast.js';
import type { Expr } from '../../expr/ast.js';
import { E_RDOM, int } from '../../expr/value.js';
import type { AllocDim, Stmt, TgtProgram, Trav } from '../../target-semantics/ast.js';
import { arbExpr } from './expr.js';

export interface TgtShape {
  /** statement nesting depth */
  readonly depth?: number;
  /** expression depth */
  readonly exprDepth?: number;
}

/** The funcs every generated program may use: the output f and two intermediates. */
const FUNCS: ReadonlyMap<string, number> = new Map([
  ['f', 1],
  ['g', 1],
  ['h', 2],
]);
const HEADER = { params: ['n'], window: [{ dim: 'x', min: 'x.min', len: 'x.len' }] };
const TRAVS: readonly Trav[] = ['serial', 'parallel', 'parallel', 'vectorize', 'unroll'];

type Gen = fc.GeneratorValue;

const small = (g: Gen, min: number, max: number): Expr => ({ k: 'const', value: int(g(fc.integer, { min, max })) });

function expr(g: Gen, vars: readonly string[], shape: TgtShape, accesses = true): Expr {
  return g(arbExpr, { vars, funcs: accesses ? FUNCS : new Map(), depth: shape.exprDepth ?? 2 });
}

/** An index: mostly a loop variable plus a small offset, sometimes any expression. */
function index(g: Gen, vars: readonly string[], shape: TgtShape): Expr {
  if (vars.length === 0 || g(fc.integer, { min: 0, max: 3 }) === 0) return expr(g, vars, shape);
  const v: Expr = { k: 'var', name: g(fc.constantFrom, ...vars) };
  const d = g(fc.integer, { min: -1, max: 1 });
  return d === 0 ? v : { k: 'op', op: '+', args: [v, { k: 'const', value: d }] };
}

/** A loop or allocation extent: usually a small constant, sometimes negative, an error or an expression. */
function extent(g: Gen, vars: readonly string[], shape: TgtShape): Expr {
  switch (g(fc.integer, { min: 0, max: 11 })) {
    case 0:
      return small(g, -2, -1);
    case 1:
      return { k: 'const', value: E_RDOM };
    case 2:
      return expr(g, vars, shape);
    default:
      return small(g, 0, 4);
  }
}

function allocation(g: Gen, func: string, wide: boolean, vars: readonly string[], shape: TgtShape): Stmt {
  const dims: AllocDim[] = Array.from({ length: FUNCS.get(func)! }, (_, i) => ({
    dim: i === 0 ? 'x' : 'y',
    min: wide ? small(g, -3, -1) : small(g, -2, 2),
    len: wide ? small(g, 6, 9) : extent(g, vars, shape),
  }));
  return { k: 'allocate', func, dims };
}

function stmt(g: Gen, vars: readonly string[], depth: number, fresh: () => string, shape: TgtShape): Stmt {
  const leafOnly = depth <= 0;
  const choice = g(fc.integer, { min: 0, max: leafOnly ? 4 : 10 });
  switch (choice) {
    case 0:
      return { k: 'nop' };
    case 1:
      return { k: 'assert', cond: g(fc.boolean) ? small(g, 0, 2) : expr(g, vars, shape) };
    case 2:
      return allocation(g, g(fc.constantFrom, 'f', 'g', 'h'), false, vars, shape);
    case 3:
    case 4: {
      const func = g(fc.constantFrom, 'f', 'g', 'h');
      const idx = Array.from({ length: FUNCS.get(func)! }, () => index(g, vars, shape));
      return { k: 'store', func, ref: g(fc.boolean) ? {} : { stage: 0 }, idx, value: expr(g, vars, shape) };
    }
    case 5:
    case 6: {
      const v = fresh();
      const trav = g(fc.constantFrom, ...TRAVS);
      const body = stmt(g, [...vars, v], depth - 1, fresh, shape);
      return { k: 'for', var: v, trav, min: small(g, -2, 2), len: extent(g, vars, shape), body };
    }
    case 7:
      return {
        k: 'if',
        cond: expr(g, vars, shape),
        then: stmt(g, vars, depth - 1, fresh, shape),
        else: stmt(g, vars, depth - 1, fresh, shape),
      };
    case 8: {
      const v = fresh();
      return { k: 'let', var: v, value: expr(g, vars, shape), body: stmt(g, [...vars, v], depth - 1, fresh, shape) };
    }
    case 9:
      return { k: 'label', name: g(fc.constantFrom, 'f', 'g', 'h', 'f.s0'), body: stmt(g, vars, depth - 1, fresh, shape) };
    default: {
      const n = g(fc.integer, { min: 0, max: 3 });
      return { k: 'seq', body: Array.from({ length: n }, () => stmt(g, vars, depth - 1, fresh, shape)) };
    }
  }
}

/** Completed target programs over `pipeline f(n; x in (x.min, x.len))`. */
export function arbTgtProgram(shape: TgtShape = {}): fc.Arbitrary<TgtProgram> {
  return fc.gen().map((g) => {
    let next = 0;
    const fresh = () => `v${next++}`;
    const vars = [...HEADER.params, 'x.min', 'x.len'];
    // Every func is allocated somewhere (checkTgt requires it). Most programs allocate them
    // generously up front, so that their bodies run far enough to reach the interesting outcomes;
    // the others allocate them only at the end, so earlier accesses find no allocation.
    const allocs = [...FUNCS.keys()].map((f) => allocation(g, f, true, vars, shape));
    const upFront = g(fc.integer, { min: 0, max: 4 }) > 0;
    const n = g(fc.integer, { min: 1, max: 4 });
    const body = Array.from({ length: n }, () => stmt(g, vars, shape.depth ?? 3, fresh, shape));
    const all = upFront ? [...allocs, ...body] : [...body, ...allocs];
    return { output: 'f', ...HEADER, body: { k: 'seq', body: all } } satisfies TgtProgram;
  });
}

/** Inputs for the programs of arbTgtProgram. */
export const arbTgtInput: fc.Arbitrary<Input> = fc
  .record({ min: fc.integer({ min: -2, max: 2 }), len: fc.integer({ min: 0, max: 4 }), n: fc.integer({ min: -2, max: 4 }) })
  .map(({ min, len, n }) => ({ window: [[int(min), int(len)]], params: new Map([['n', int(n)]]) }));
