// fast-check arbitraries of VALID algorithms (defs. 2.7–2.10 hold by construction) and of small
// inputs for them. Every choice is a parameter so that campaigns can tune size and features.
import fc from 'fast-check';
import { type Expr, type OpName, OP_ARITY, access, cst, op, vr } from '../../expr/ast.js';
import { E_MEM, E_RDOM, type Int, type Value } from '../../expr/value.js';
import type { Func, Input, Pipeline, RVar, Stage } from '../../alg-semantics/ast.js';

export interface AlgGenOptions {
  /** Funcs in the pipeline (the last is the output). */
  minFuncs?: number;
  maxFuncs?: number;
  maxDims?: number; // 1..3
  maxUpdates?: number; // update stages per func
  maxRVars?: number; // reduction variables per rdom
  maxParams?: number;
  /** Largest rdom extent written as a constant; extents may also be `p - k` for a parameter p. */
  maxExtent?: number;
  /** Nesting depth of generated expressions. */
  exprDepth?: number;
  /** Allow negative rdom extents (RDOM-ERR), error constants and accesses at computed points. */
  negativeExtents?: boolean;
  errorConstants?: boolean;
  dataDependent?: boolean;
  /**
   * Also put self-accesses (and accesses to other funcs) into the coordinates of reduction
   * dimensions of updates, e.g. `(f(f(r, r), r + r)) <- …`. Off by default: the coordinates of
   * existing generated programs stay as they were.
   */
  selfCoords?: boolean;
  /**
   * Make the corners of ℤ ∪ {ε} frequent instead of rare: integers at and beyond ±2^53, both
   * error values. Off by default.
   */
  extremeConstants?: boolean;
}

const DEFAULTS: Required<AlgGenOptions> = {
  minFuncs: 1, maxFuncs: 3, maxDims: 2, maxUpdates: 2, maxRVars: 2, maxParams: 2, maxExtent: 3,
  exprDepth: 2, negativeExtents: true, errorConstants: true, dataDependent: true, selfCoords: false, extremeConstants: false,
};

const OPS = Object.keys(OP_ARITY) as OpName[];

interface Callee {
  name: string;
  arity: number;
}

/** What an expression may mention. `self` is set in update stages: accesses to the func being defined. */
interface ExprScope {
  vars: readonly string[];
  funcs: readonly Callee[];
  /** For self-accesses: per dimension, the pure variable that must appear there (def. 2.7), or undefined. */
  self?: { name: string; fixed: readonly (string | undefined)[] };
}

/** Integers at the edge of the safe range and beyond, where values switch representation (value.ts). */
const EXTREME_INTS: readonly Int[] = [2n ** 53n, -(2n ** 53n), 2 ** 53 - 1, -(2 ** 53 - 1), 2n ** 53n + 1n, -(2n ** 60n), 2n ** 64n];

function arbConst(o: Required<AlgGenOptions>): fc.Arbitrary<Expr> {
  const huge = o.extremeConstants ? fc.constantFrom<Int>(...EXTREME_INTS) : fc.constantFrom<Int>(2n ** 53n, -(2n ** 60n), 1000);
  const ints = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -4, max: 6 }) }, { weight: o.extremeConstants ? 3 : 1, arbitrary: huge });
  const errs = o.extremeConstants ? fc.constantFrom<Value>(E_RDOM, E_MEM) : fc.constant(E_RDOM);
  const vals: fc.Arbitrary<Value> = o.errorConstants ? fc.oneof({ weight: o.extremeConstants ? 6 : 20, arbitrary: ints }, { weight: 1, arbitrary: errs }) : ints;
  return vals.map((v) => cst(v));
}

export function arbExpr(scope: ExprScope, depth: number, o: Required<AlgGenOptions>): fc.Arbitrary<Expr> {
  const leaves: fc.Arbitrary<Expr>[] = [arbConst(o)];
  if (scope.vars.length > 0) leaves.push(fc.constantFrom(...scope.vars).map(vr), fc.constantFrom(...scope.vars).map(vr));
  const leaf = fc.oneof(...leaves);
  if (depth <= 0) return leaf;
  const sub = arbExpr(scope, depth - 1, o);
  const index = o.dataDependent ? sub : leaf;
  const nodes: fc.Arbitrary<Expr>[] = [
    fc.constantFrom(...OPS).chain((p) => fc.array(sub, { minLength: OP_ARITY[p], maxLength: OP_ARITY[p] }).map((args) => op(p, ...args))),
  ];
  if (scope.funcs.length > 0) {
    nodes.push(fc.constantFrom(...scope.funcs).chain((g) => fc.array(index, { minLength: g.arity, maxLength: g.arity }).map((args) => access(g.name, args))));
  }
  const self = scope.self;
  if (self) {
    nodes.push(fc.tuple(...self.fixed.map((x) => (x === undefined ? index : fc.constant(vr(x))))).map((args) => access(self.name, args)));
  }
  return fc.oneof({ weight: 2, arbitrary: leaf }, { weight: 3, arbitrary: fc.oneof(...nodes) });
}

function arbRDom(params: readonly string[], taken: readonly string[], o: Required<AlgGenOptions>): fc.Arbitrary<RVar[]> {
  const lenConst = fc.integer({ min: o.negativeExtents ? -1 : 0, max: o.maxExtent }).map((n) => cst(n));
  const len = params.length > 0
    ? fc.oneof({ weight: 3, arbitrary: lenConst }, { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...params), fc.integer({ min: 0, max: 2 })).map(([p, k]) => op('-', vr(p), cst(k))) })
    : lenConst;
  const min = fc.integer({ min: -2, max: 2 }).map((n) => cst(n));
  return fc.integer({ min: 0, max: o.maxRVars }).chain((k) =>
    fc.tuple(...Array.from({ length: k }, () => fc.tuple(min, len))).map((bs) =>
      bs.map(([mn, ln], i) => ({ name: uniqueName(`r${i}`, taken), min: mn, len: ln }))));
}

const uniqueName = (base: string, taken: readonly string[]): string => (taken.includes(base) ? `${base}_` : base);

/** An update stage of func `f`: pick its pure dimensions (def. 2.8), then respect def. 2.7. */
function arbUpdate(f: { name: string; vars: readonly string[] }, params: readonly string[], funcs: readonly Callee[], o: Required<AlgGenOptions>): fc.Arbitrary<Stage> {
  return fc.tuple(fc.array(fc.boolean(), { minLength: f.vars.length, maxLength: f.vars.length }), arbRDom(params, [...f.vars, ...params], o)).chain(([pureMask, rdom]) => {
    const pureVars = f.vars.filter((_, i) => pureMask[i]);
    const scope: ExprScope = {
      vars: [...pureVars, ...rdom.map((r) => r.name), ...params],
      funcs,
      self: { name: f.name, fixed: f.vars.map((x, i) => (pureMask[i] ? x : undefined)) },
    };
    const e = arbExpr(scope, o.exprDepth, o);
    const coord = o.selfCoords ? e : arbExpr({ ...scope, self: undefined }, 1, o);
    const lhs = fc.tuple(...f.vars.map((x, i) => (pureMask[i] ? fc.constant(vr(x)) : coord)));
    const pred = fc.oneof({ weight: 2, arbitrary: fc.constant(cst(1)) }, { weight: 1, arbitrary: e });
    return fc.tuple(lhs, e, pred).map(([l, rhs, p]): Stage => ({ pure: false, rdom, lhs: l, rhs, pred: p }));
  });
}

export function arbPipeline(opts: AlgGenOptions = {}): fc.Arbitrary<Pipeline> {
  const o = { ...DEFAULTS, ...opts };
  const params = fc.integer({ min: 0, max: o.maxParams }).map((n) => Array.from({ length: n }, (_, i) => `p${i}`));
  const shapes = fc.array(fc.tuple(fc.integer({ min: 1, max: o.maxDims }), fc.integer({ min: 0, max: o.maxUpdates })), { minLength: o.minFuncs, maxLength: o.maxFuncs });
  return fc.tuple(params, shapes).chain(([ps, sh]) => {
    let acc: fc.Arbitrary<Func[]> = fc.constant([]);
    sh.forEach(([dims, updates], k) => {
      acc = acc.chain((done) => {
        const name = `f${k}`;
        const vars = ['x', 'y', 'z'].slice(0, dims);
        const callees = done.map((g) => ({ name: g.name, arity: g.vars.length }));
        const pure = arbExpr({ vars: [...vars, ...ps], funcs: callees }, o.exprDepth, o).map((rhs): Stage => ({ pure: true, rdom: [], lhs: vars.map(vr), rhs, pred: cst(1) }));
        const ups = fc.array(arbUpdate({ name, vars }, ps, callees, o), { minLength: updates, maxLength: updates });
        return fc.tuple(pure, ups).map(([p0, us]) => [...done, { name, vars, stages: [p0, ...us] }]);
      });
    });
    return acc.map((funcs): Pipeline => ({ output: funcs[funcs.length - 1]!.name, params: ps, funcs }));
  });
}

/** A small input for `p`: windows of at most 3 points per dimension, small parameters. */
export function arbInput(p: Pipeline, opts: { maxLen?: number; paramRange?: [number, number]; extremeMins?: boolean } = {}): fc.Arbitrary<Input> {
  const out = p.funcs.find((f) => f.name === p.output)!;
  const [lo, hi] = opts.paramRange ?? [-2, 5];
  // With `extremeMins`, windows also start next to ±2^53, where coordinates turn into bigints.
  const small = fc.integer({ min: -3, max: 3 });
  const min: fc.Arbitrary<Int> = opts.extremeMins ? fc.oneof(small, fc.constantFrom<Int>(...EXTREME_INTS, 2 ** 53 - 3, -(2 ** 53) + 2)) : small;
  const window = fc.tuple(...out.vars.map(() => fc.tuple(min, fc.integer({ min: 0, max: opts.maxLen ?? 3 }))));
  const params = fc.tuple(...p.params.map(() => fc.integer({ min: lo, max: hi })));
  return fc.tuple(window, params).map(([w, vs]): Input => ({
    window: w.map(([m, l]) => [m, l] as const),
    params: new Map(p.params.map((q, i) => [q, vs[i]!])),
  }));
}
