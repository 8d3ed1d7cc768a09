// Pipelines shaped like image-processing apps (Halide's apps and its random_pipeline generator
// use the same stage kinds): an input func of the coordinates, then a DAG of stages, each of a
// named kind — pointwise maps, separable and 2-D stencils, down- and upsampling, clamped
// boundaries, pooling, scans, histograms, all-to-all products, funcs with several update stages
// and order-sensitive reductions. The generic generator (pipeline.ts) reaches every construct
// of fig. 2.5 but rarely composes them into the multi-func shapes where schedule bugs live.
//
// As in pipeline.ts, fast-check draws a blueprint of small integers that always decodes to a
// valid algorithm (defs. 2.7–2.10), so every shrink step is again a valid app pipeline.
import fc from 'fast-check';
import { type Expr, access, cst, op, vr } from '../../expr/ast.js';
import { int } from '../../expr/value.js';
import type { Func, RVar, Stage } from '../../alg-semantics/ast.js';
import { PARAM_NAMES, VAR_NAMES, funcName } from './pipeline.js';

/**
 * The stage kinds. `scan` and `ordered-reduction` are order-sensitive: their result depends on
 * the order in which the reduction domain is traversed (§2.4.1: r_1 innermost), so a directive
 * that reorders reduction loops changes it.
 */
export const STAGE_KINDS = [
  'pointwise', 'stencil', 'stencil-2d', 'downsample', 'upsample', 'clamp',
  'pool', 'scan', 'histogram', 'all-to-all', 'multi-update', 'ordered-reduction',
] as const;
export type StageKind = (typeof STAGE_KINDS)[number];

export const ORDER_SENSITIVE: ReadonlySet<StageKind> = new Set(['scan', 'ordered-reduction']);

/** One stage: its kind and small integers that pick its inputs, its dimension and its constants. */
export interface AppStageB {
  readonly kind: number;
  /** primary input: the previous func unless this picks an older one (fan-in, fan-out) */
  readonly src: number;
  /** secondary input, for stages that combine two funcs */
  readonly src2: number;
  /** the dimension a 1-D stage acts along */
  readonly dim: number;
  /** a small constant of the stage */
  readonly k: number;
}

export interface AppB {
  readonly t: 'app';
  readonly dims: number;
  readonly params: number;
  /** the constants of the input func */
  readonly input: number;
  /** the scale of the input's values: 1, or beyond 32 bits (values, never coordinates, get large) */
  readonly scale: number;
  readonly stages: readonly AppStageB[];
  /** swarm testing: the stage kinds this pipeline may use (a bit per kind; all when absent) */
  readonly kinds?: number;
  /**
   * Halide's apps read their input through a boundary condition: 0 for none, else 1 + which
   * (see `boundary`) the first stage applies, whatever its own kind.
   */
  readonly edge?: number;
}

export interface AppOptions {
  /** funcs per pipeline, the input func included (1–16) */
  readonly maxFuncs: number;
}

export function arbAppB(o: AppOptions, swarm: boolean): fc.Arbitrary<AppB> {
  const stage: fc.Arbitrary<AppStageB> = fc.record({
    kind: fc.nat(STAGE_KINDS.length - 1),
    src: fc.nat(15),
    src2: fc.nat(15),
    dim: fc.nat(2),
    k: fc.nat(7),
  });
  return fc.record({
    t: fc.constant('app' as const),
    // Images: mostly two dimensions.
    dims: fc.oneof({ weight: 1, arbitrary: fc.constant(1) }, { weight: 4, arbitrary: fc.constant(2) }, { weight: 1, arbitrary: fc.constant(3) }),
    params: fc.nat(2),
    input: fc.nat(63),
    scale: fc.nat(SCALES.length - 1),
    // Pipelines of several stages are the point: lengths are drawn uniformly up to the maximum
    // rather than with fast-check's preference for short arrays.
    stages: fc.array(stage, { minLength: Math.min(1, o.maxFuncs - 1), maxLength: o.maxFuncs - 1, size: 'max' }),
    ...(swarm ? { kinds: fc.integer({ min: 1, max: (1 << STAGE_KINDS.length) - 1 }) } : {}),
    edge: fc.nat(BOUNDARY_CONDITIONS),
  });
}

/** The kind a stage blueprint decodes to, within the pipeline's swarm subset. */
export function kindOf(b: AppB, s: AppStageB): StageKind {
  const allowed = STAGE_KINDS.filter((_, i) => b.kinds === undefined || (b.kinds >> i) & 1);
  return allowed[s.kind % allowed.length]!;
}

const c = (n: number): Expr => cst(int(n));

/**
 * Scales of the input's values. Large ones take every value of the pipeline beyond 32 bits (what
 * 32-bit lanes, overflow checks and keys built from values must get right), while coordinates stay
 * small: histogram bins take values modulo 8 and clamped.
 */
const SCALES = [1, 1, 1, 1, 2 ** 31 + 1, -(2 ** 33) + 7, 2 ** 40 + 1];
const add = (...es: Expr[]): Expr => es.reduce((a, e) => op('+', a, e));
const clampTo = (e: Expr, lo: number, hi: number): Expr => op('max', c(lo), op('min', e, c(hi)));

/** Decodes an app blueprint; `useEveryFunc` (pipeline.ts) then reads any func nobody reads. */
export function decodeAppFuncs(b: AppB): { params: string[]; funcs: Func[] } {
  const params = PARAM_NAMES.slice(0, b.params);
  const vars = VAR_NAMES.slice(0, b.dims);
  const v = vars.map((x) => vr(x));
  // The input: a bounded, signed pattern of the coordinates, as an image would be.
  const weights = [3 + (b.input % 5), 7 + (b.input % 3), 2];
  const pattern = v.reduce<Expr>((e, x, i) => op('+', e, op('*', x, c(weights[i]!))), c(b.input % 4));
  const image = op('-', op('mod', pattern, c(17 + (b.input % 6))), c(8));
  const scale = SCALES[b.scale % SCALES.length]!;
  const funcs: Func[] = [pureFunc(funcName(0), vars, scale === 1 ? image : op('*', image, c(scale)))];
  // Downsampling doubles the region a consumer needs of its producer: at most two keep the
  // regions (and so the cost of a check) bounded.
  let downsamples = 0;
  b.stages.forEach((s, i) => {
    const name = funcName(i + 1);
    const prev = funcs[funcs.length - 1]!.name;
    const p = s.src % 4 === 0 ? funcs[s.src % funcs.length]!.name : prev;
    const q = funcs[s.src2 % funcs.length]!.name;
    const d = s.dim % b.dims;
    if (i === 0 && b.edge) {
      funcs.push(pureFunc(name, vars, boundary(b.edge - 1, s.k, v, d, (args) => access(p, args))));
      return;
    }
    let kind = kindOf(b, s);
    if (kind === 'downsample' && ++downsamples > 2) kind = 'pointwise';
    funcs.push(decodeStage(kind, { name, vars, v, p, q, d, k: s.k, params }));
  });
  return { params, funcs };
}

interface StageCtx {
  readonly name: string;
  readonly vars: readonly string[];
  readonly v: readonly Expr[];
  /** primary and secondary inputs */
  readonly p: string;
  readonly q: string;
  /** the dimension a 1-D stage acts along */
  readonly d: number;
  readonly k: number;
  readonly params: readonly string[];
}

function pureFunc(name: string, vars: readonly string[], rhs: Expr, updates: readonly Stage[] = []): Func {
  return { name, vars, stages: [{ pure: true, rdom: [], lhs: vars.map((x) => vr(x)), rhs, pred: c(1) }, ...updates] };
}

/** An update stage at the func's own point in every pure dimension (defs. 2.7, 2.8). */
function update(vars: readonly string[], rdom: readonly RVar[], rhs: Expr, lhs: readonly Expr[] = vars.map((x) => vr(x))): Stage {
  return { pure: false, rdom, lhs, rhs, pred: c(1) };
}

/** The coordinates `v` with dimension d replaced by `e`. */
const along = (v: readonly Expr[], d: number, e: Expr): Expr[] => v.map((x, i) => (i === d ? e : x));

/** An rdom extent: a constant, or a parameter plus one when the pipeline has parameters. */
function extent(x: StageCtx, len: number): Expr {
  return x.params.length > 0 && x.k % 3 === 0 ? op('+', vr(x.params[x.k % x.params.length]!), c(1)) : c(len);
}

const BOUNDARY_CONDITIONS = 4;

/**
 * Halide's boundary conditions (Halide::BoundaryConditions), the producer read only inside the box
 * [0, hi] of every dimension: `repeat_edge` clamps every index; `constant_exterior` reads the
 * clamped producer inside the box and a constant outside it; `mirror_interior` and `mirror_image`
 * reflect dimension d at the box's lower edge (−x, −1 − x for x < 0) and repeat the edge beyond
 * the upper one. The last three put a `select` where bounds inference must take both branches: in
 * a value beside a clamped index, and in an index itself.
 */
function boundary(which: number, k: number, v: readonly Expr[], d: number, P: (args: readonly Expr[]) => Expr): Expr {
  const hi = 5 + (k >> 2);
  const edge = v.map((e) => clampTo(e, 0, hi));
  switch (which) {
    case 0:
      return P(edge);
    case 1: {
      const inside = v.map((e) => op('and', op('<', c(-1), e), op('<', e, c(hi + 1)))).reduce((a, b) => op('and', a, b));
      return op('select', inside, P(edge), c(k - 3));
    }
    default: {
      // mirror_interior reflects x < 0 to −x, mirror_image to −1 − x.
      const x = v[d]!;
      const reflected = which === 2 ? op('-', c(0), x) : op('-', c(-1), x);
      return P(along(edge, d, clampTo(op('select', op('<', x, c(0)), reflected, x), 0, hi)));
    }
  }
}

function decodeStage(kind: StageKind, x: StageCtx): Func {
  const { name, vars, v, p, q, d, k } = x;
  const P = (args: readonly Expr[]) => access(p, args);
  const Q = (args: readonly Expr[]) => access(q, args);
  const self = (args: readonly Expr[]) => access(name, args);
  const dv = v[d]!;
  switch (kind) {
    case 'pointwise': {
      const forms: Expr[] = [
        op('-', add(op('*', P(v), c(1 + (k % 3))), Q(v)), c(k)),
        op('max', P(v), Q(v)),
        op('select', op('<', P(v), Q(v)), P(v), op('-', Q(v), c(k))),
        op('div', add(P(v), Q(v)), c(2)),
      ];
      return pureFunc(name, vars, forms[k % forms.length]!);
    }
    case 'stencil':
      // A 3-tap blur along one dimension (one half of a separable blur).
      return pureFunc(name, vars, add(P(along(v, d, op('-', dv, c(1)))), op('*', c(2), P(v)), P(along(v, d, op('+', dv, c(1))))));
    case 'stencil-2d': {
      if (vars.length < 2) return decodeStage('stencil', x);
      const taps: Expr[] = [];
      for (const dy of [-1, 0, 1]) for (const dx of [-1, 0, 1]) {
        const shift = (e: Expr, by: number) => (by === 0 ? e : by > 0 ? op('+', e, c(by)) : op('-', e, c(-by)));
        const at = v.map((e, i) => (i === 0 ? shift(e, dx) : i === 1 ? shift(e, dy) : e));
        taps.push(dx === 0 && dy === 0 ? op('*', c(1 + (k % 4)), P(at)) : P(at));
      }
      return pureFunc(name, vars, add(...taps));
    }
    case 'downsample':
      return pureFunc(name, vars, op('div', add(P(along(v, d, op('*', c(2), dv))), P(along(v, d, op('+', op('*', c(2), dv), c(1))))), c(2)));
    case 'upsample':
      return pureFunc(name, vars, op('+', P(along(v, d, op('div', dv, c(2)))), op('mod', dv, c(2))));
    case 'clamp':
      return pureFunc(name, vars, boundary(k % BOUNDARY_CONDITIONS, k, v, d, P));
    case 'pool': {
      // Max or sum pooling over a window of the producer.
      const r: RVar = { name: 'r', min: c(0), len: extent(x, 2 + (k % 3)) };
      const read = P(along(v, d, op('+', dv, vr('r'))));
      return pureFunc(name, vars, k % 2 === 0 ? c(0) : P(v), [update(vars, [r], k % 2 === 0 ? op('+', self(v), read) : op('max', self(v), read))]);
    }
    case 'scan': {
      // A prefix sum along dimension d, reading the func's own previous point: order-sensitive.
      const r: RVar = { name: 'r', min: c(1 - (k % 2)), len: extent(x, 4 + (k % 4)) };
      const at = along(v, d, vr('r'));
      return pureFunc(name, vars, P(v), [update(vars, [r], add(self(along(v, d, op('-', vr('r'), c(1)))), self(at)), at)]);
    }
    case 'histogram': {
      // Counts of the producer's values, clamped into eight bins, over a region of it: the
      // update's coordinate in dimension d depends on data.
      const rdom: RVar[] = [{ name: 'r', min: c(0), len: c(3 + (k % 3)) }, ...(vars.length > 1 ? [{ name: 's', min: c(0), len: c(2) }] : [])];
      const region = v.map((_, i) => (i === 0 ? vr('r') : i === 1 ? vr('s') : c(0)));
      const at = along(v, d, clampTo(op('mod', P(region), c(8)), 0, 7));
      return pureFunc(name, vars, c(0), [update(vars, rdom, op('+', self(at), c(1)), at)]);
    }
    case 'all-to-all': {
      // A matrix product over dimension d and the next one: every output point reads a whole row
      // of one producer and a whole column of the other.
      if (vars.length < 2) return decodeStage('pool', x);
      const e = (d + 1) % vars.length;
      const kk: RVar = { name: 'r', min: c(0), len: extent(x, 3) };
      const rk = vr('r');
      return pureFunc(name, vars, c(0), [update(vars, [kk], op('+', self(v), op('*', P(along(v, e, rk)), Q(along(v, d, rk)))))]);
    }
    case 'multi-update':
      // A pure definition refined by several update stages, each reading the previous one.
      return pureFunc(name, vars, P(v), [
        update(vars, [], op('+', self(v), Q(v))),
        update(vars, [], op('-', op('*', self(v), c(1 + (k % 3))), c(k))),
        update(vars, [{ name: 'r', min: c(0), len: c(2) }], op('max', self(v), op('+', P(along(v, d, op('+', dv, vr('r')))), vr('r')))),
      ]);
    case 'ordered-reduction': {
      // A non-commutative combination over a 2-D rdom (Horner's scheme): swapping r and s, or
      // running either backwards, changes the result.
      const r: RVar = { name: 'r', min: c(0), len: c(2 + (k % 2)) };
      const s: RVar = { name: 's', min: c(-1), len: extent(x, 2) };
      const rhs = op('-', add(op('*', self(v), c(2 + (k % 2))), P(along(v, d, op('+', dv, vr('r'))))), vr('s'));
      return pureFunc(name, vars, P(v), [update(vars, [r, s], rhs)]);
    }
  }
}
