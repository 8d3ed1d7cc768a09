// Generators of valid algorithms (§2.4, defs. 2.7–2.10) and their inputs (def. 2.1) covering every
// construct: funcs of 1–3 dimensions, several update stages, multi-dimensional rdoms (sometimes
// with negative extents, §2.9), predicates, data-dependent indexing, parameters and every operator
// of fig. 2.5b including div/mod by zero.
//
// fast-check generates *blueprints* — trees of small integers — that are decoded into pipelines.
// A blueprint names funcs, variables and arities by number, resolved modulo what is in scope, so
// every blueprint decodes to a valid pipeline and every shrink of it does too: shrinking needs no
// dependent generation (fc.chain), and counterexamples come out small.
import fc from 'fast-check';
import { type Expr, type OpName, OP_ARITY, cst, op, vr, access, walkExpr } from '../../expr/ast.js';
import { E_MEM, E_RDOM, type Int, int } from '../../expr/value.js';
import type { Func, Input, Pipeline, RVar, Stage } from '../../alg-semantics/ast.js';
import { ALL_OPS } from '../arbitraries/expr.js';

/** Expression blueprint. */
export type EB =
  | { readonly t: 'c'; readonly v: Int }
  | { readonly t: 'err'; readonly mem: boolean }
  | { readonly t: 'v'; readonly i: number }
  | { readonly t: 'op'; readonly op: OpName; readonly a: readonly EB[] }
  | { readonly t: 'acc'; readonly f: number; readonly a: readonly EB[]; readonly raw: boolean };

/** A startup expression blueprint for rdom bounds (def. 2.9): a constant, or a parameter plus one. */
export interface SB {
  readonly c: number;
  readonly p: number | null;
}

export interface UpdateB {
  readonly rdom: readonly { readonly min: SB; readonly len: SB }[];
  /** per dimension: does the stage use the pure variable (def. 2.8)? */
  readonly pure: readonly boolean[];
  readonly lhs: readonly EB[];
  readonly rhs: EB;
  readonly pred: EB | null;
}

export interface FuncB {
  readonly dims: number;
  readonly pure: EB;
  readonly updates: readonly UpdateB[];
}

export interface PipelineB {
  readonly params: number;
  readonly funcs: readonly FuncB[];
}

export interface GenOptions extends InputOptions {
  /** funcs per generic pipeline (the last is the output); at least `minFuncs` (default 1) */
  readonly minFuncs?: number;
  readonly maxFuncs: number;
  /** dimensions per func, 1–3 (default 3) */
  readonly maxDims?: number;
  readonly maxUpdates: number;
  /** reduction variables per rdom, 0–2 (default 2) */
  readonly maxRVars?: number;
  /** parameters, 0–2 (default 2) */
  readonly maxParams?: number;
  /** the largest constant of an rdom bound (default 3); a bound may also be a parameter plus it */
  readonly maxExtent?: number;
  /** nesting depth of expressions (an update's value gets one more level) */
  readonly exprDepth: number;
  /** negative constants among rdom bounds: the negative extents of §2.9 (default on) */
  readonly negativeExtents?: boolean;
  /** error constants among the leaves (default on) */
  readonly errorConstants?: boolean;
  /**
   * ε_mem among the error constants (default on). Off, every error constant is ε_rdom: the only
   * error a run may meet outside the window without being unsafe under the verdicts of
   * spec/lowering.md (the decision on errors met outside the window).
   */
  readonly memErrors?: boolean;
  /** accesses inside indices and reduction coordinates: data-dependent indexing (default on) */
  readonly dataDependent?: boolean;
  /**
   * Self-accesses in the reduction coordinates of updates, e.g. `f(f(r, 0), y) <- …` (def. 2.7
   * allows them; fig. 2.6 reads the func's value before the stage). Off by default.
   */
  readonly selfCoords?: boolean;
  /**
   * The corners of ℤ ∪ {ε} frequent instead of absent: integers at and beyond ±2^53, where values
   * switch representation (value.ts), and error values several times as often. Off by default.
   */
  readonly extremeConstants?: boolean;
  /**
   * Zoo switch (thesis §2.9, races in rdom predicates): self-accesses inside predicates ignore
   * syntactic separation, as a validity check that forgets predicates would let through.
   */
  readonly looseSeparationInPredicates?: boolean;
  /**
   * Constants beyond 32 bits (and near the int32 edges) among the leaves: what code generation's
   * 32-bit lanes and 64-bit overflow checks must get right (thesis §5.1). Off by default, where
   * exact small values keep cases cheap and readable.
   */
  readonly wideConstants?: boolean;
  /** app-shaped pipelines (app.ts): their percentage among generated algorithms, and their size */
  readonly app?: { readonly share: number; readonly maxFuncs: number };
  /** swarm testing: each case draws a random subset of stage kinds and directives */
  readonly swarm?: boolean;
}

/** What an input (def. 2.1) may look like. */
export interface InputOptions {
  /** The largest window extent an input asks for in every dimension (default 4). */
  readonly maxWindowLen?: number;
  /** The largest extent in dimension 0, the innermost loop (default `maxWindowLen`). */
  readonly maxInnerLen?: number;
  /**
   * Windows away from the origin one time in ten (minima of two and three digits): coordinates of
   * several digits tell apart what single digits cannot, e.g. keys that join (1, 23) and (12, 3)
   * into the same text.
   */
  readonly farWindows?: boolean;
  /** Window minima next to ±2^53 half of the time, where coordinates turn into bigints. */
  readonly extremeMins?: boolean;
  /** Parameters uniform in this range instead of the mostly positive default. */
  readonly paramRange?: readonly [number, number];
}

export const DEFAULT_GEN: GenOptions = { maxFuncs: 3, maxUpdates: 2, exprDepth: 2 };

export const PARAM_NAMES = ['n', 'm'] as const;
export const VAR_NAMES = ['x', 'y', 'z'] as const;
export const RVAR_NAMES = ['r', 's'] as const;
export const funcName = (i: number): string => `f${i}`;

// Division and modulo get extra weight: division by zero is the arithmetic corner of §2.9.
const OPS: OpName[] = [...ALL_OPS, 'div', 'mod', 'div', 'mod', '+', '-', '*'];

/** The largest arity of an operator (select's three arguments). */
const MAX_ARITY = Math.max(...Object.values(OP_ARITY));

/** Values just inside and beyond the 32-bit range, and far beyond it (still exact in a double). */
const WIDE = [2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 32 + 3, -(2 ** 33) + 7, 2 ** 40 + 1, -(2 ** 47)];

/** Integers at the edge of the safe range and beyond, where values switch representation (value.ts). */
const EXTREME: readonly Int[] = [2n ** 53n, -(2n ** 53n), 2 ** 53 - 1, -(2 ** 53 - 1), 2n ** 53n + 1n, -(2n ** 60n), 2n ** 64n];

type LeafOptions = Pick<GenOptions, 'wideConstants' | 'errorConstants' | 'memErrors' | 'extremeConstants'>;

export function arbEB(depth: number, o: LeafOptions = {}): fc.Arbitrary<EB> {
  // Error constants are rare: an error value spreads to every point of its func (spec/lowering.md,
  // [VERDICT-ALG-ERROR]), and a case whose window holds one is vacuously confluent (def. 2.3).
  // Optional leaves are built only when asked for, so that default generation draws exactly as it
  // always has.
  const leaf: fc.Arbitrary<EB> = fc.oneof(
    { weight: 40, arbitrary: fc.integer({ min: -3, max: 4 }).map((v): EB => ({ t: 'c', v })) },
    { weight: 10, arbitrary: fc.integer({ min: -40, max: 40 }).map((v): EB => ({ t: 'c', v })) },
    { weight: 60, arbitrary: fc.nat(5).map((i): EB => ({ t: 'v', i })) },
    ...(o.errorConstants === false ? [] : [{ weight: o.extremeConstants ? 11 : 1, arbitrary: (o.memErrors === false ? fc.constant(false) : fc.boolean()).map((mem): EB => ({ t: 'err', mem })) }]),
    // Wide constants are what the compiled backends' narrowing must get right (§5.1); at a lower
    // weight most of them end in divisions, comparisons or funcs that are not vectorized.
    ...(o.wideConstants ? [{ weight: 24, arbitrary: fc.constantFrom(...WIDE).map((v): EB => ({ t: 'c', v })) }] : []),
    ...(o.extremeConstants ? [{ weight: 18, arbitrary: fc.constantFrom(...EXTREME).map((v): EB => ({ t: 'c', v })) }] : []),
  );
  const { e } = fc.letrec<{ e: EB }>((tie) => ({
    e: fc.oneof(
      { depthSize: 'small', maxDepth: depth, withCrossShrink: true },
      { weight: 3, arbitrary: leaf },
      {
        weight: 3,
        // Missing arguments are filled by cycling the ones given, so the blueprint need not know the
        // arity; up to three are drawn, so that every argument of a select can differ from the
        // others (with two, its third argument repeats its condition: select(c, t, c)).
        arbitrary: fc
          .record({ op: fc.constantFrom(...OPS), a: fc.array(tie('e'), { minLength: 1, maxLength: MAX_ARITY }) })
          .map(({ op: o, a }): EB => ({ t: 'op', op: o, a })),
      },
      {
        weight: 2,
        arbitrary: fc
          .record({ f: fc.nat(7), a: fc.array(tie('e'), { minLength: 1, maxLength: 2 }), raw: fc.nat(9).map((k) => k === 0) })
          .map((r): EB => ({ t: 'acc', ...r })),
      },
    ),
  }));
  return e;
}

// Extents stay small (the cost of a check grows with their product); a parameter plus a small
// constant, or a negative constant, gives the negative extents of §2.9.
function arbSB(o: Pick<GenOptions, 'maxExtent' | 'negativeExtents'>): fc.Arbitrary<SB> {
  const c = fc.integer({ min: 0, max: o.maxExtent ?? 3 });
  return fc.record({
    c: o.negativeExtents === false ? c : fc.oneof({ weight: 20, arbitrary: c }, { weight: 1, arbitrary: fc.integer({ min: -2, max: -1 }) }),
    p: fc.option(fc.nat(1), { freq: 4 }),
  });
}

export function arbPipelineB(o: GenOptions = DEFAULT_GEN): fc.Arbitrary<PipelineB> {
  const eb = arbEB(o.exprDepth, o);
  const sb = arbSB(o);
  // An update's value gets one more level: order-sensitive reductions (f(0) * 2 + r) need it.
  const update: fc.Arbitrary<UpdateB> = fc.record({
    rdom: fc.array(fc.record({ min: sb, len: sb }), { maxLength: Math.min(o.maxRVars ?? 2, RVAR_NAMES.length) }),
    pure: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
    lhs: fc.tuple(eb, eb, eb),
    rhs: arbEB(o.exprDepth + 1, o),
    pred: fc.option(eb, { freq: 2 }),
  });
  const func: fc.Arbitrary<FuncB> = fc.record({
    dims: fc.integer({ min: 1, max: Math.min(o.maxDims ?? 3, VAR_NAMES.length) }),
    pure: eb,
    updates: fc.array(update, { maxLength: o.maxUpdates }),
  });
  return fc.record({
    params: fc.nat(Math.min(o.maxParams ?? 2, PARAM_NAMES.length)),
    funcs: fc.array(func, { minLength: o.minFuncs ?? 1, maxLength: o.maxFuncs }),
  });
}

/** What is in scope while decoding one expression. */
interface Scope {
  readonly vars: readonly string[];
  /** earlier funcs and their arity */
  readonly funcs: readonly { readonly name: string; readonly arity: number }[];
  /** the func being updated, with the coordinates its self-accesses must use (def. 2.7) */
  readonly self?: { readonly name: string; readonly fixed: readonly (string | undefined)[] };
}

/** Data-dependent indices are clamped so that bounds inference sees a finite interval (fig. 2.10). */
const clamp = (e: Expr): Expr => op('min', op('max', e, cst(0)), cst(7));

/** How expressions decode: the zoo's loose separation, and whether indices may read funcs. */
interface Decoding {
  readonly loose: boolean;
  readonly dataDependent: boolean;
}

function decodeExpr(b: EB, s: Scope, d: Decoding): Expr {
  switch (b.t) {
    case 'c':
      return cst(int(b.v));
    case 'err':
      return cst(b.mem ? E_MEM : E_RDOM);
    case 'v':
      return s.vars.length > 0 ? vr(s.vars[b.i % s.vars.length]!) : cst(int(b.i));
    case 'op':
      return op(b.op, ...Array.from({ length: OP_ARITY[b.op] }, (_, i) => decodeExpr(b.a[i % b.a.length]!, s, d)));
    case 'acc': {
      const targets = [...s.funcs, ...(s.self ? [{ name: s.self.name, arity: s.self.fixed.length }] : [])];
      if (targets.length === 0) return decodeExpr(b.a[0]!, s, d);
      const g = targets[b.f % targets.length]!;
      const isSelf = g.name === s.self?.name;
      const args = Array.from({ length: g.arity }, (_, i) => {
        const fixed = isSelf && !d.loose ? s.self!.fixed[i] : undefined;
        if (fixed !== undefined) return vr(fixed);
        // An argument of a self-access may not read the func itself: keep index trees one level
        // deep. Without data-dependent indexing, an index reads no func at all.
        const inner: Scope = !d.dataDependent ? { ...s, funcs: [], self: undefined } : isSelf ? { ...s, self: undefined } : s;
        const a = decodeExpr(b.a[i % b.a.length]!, inner, d);
        return !b.raw && hasAccessIn(a) ? clamp(a) : a;
      });
      return access(g.name, args);
    }
  }
}

function hasAccessIn(e: Expr): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (x.k === 'access') found = true;
  });
  return found;
}

function decodeStartup(b: SB, params: readonly string[]): Expr {
  if (b.p === null || params.length === 0) return cst(int(b.c));
  const p = vr(params[b.p % params.length]!);
  return b.c === 0 ? p : op('+', p, cst(int(b.c)));
}

export function decodePipeline(b: PipelineB, o: GenOptions = DEFAULT_GEN): Pipeline {
  const params = PARAM_NAMES.slice(0, b.params);
  const d: Decoding = { loose: false, dataDependent: o.dataDependent !== false };
  const funcs: Func[] = [];
  b.funcs.forEach((fb, fi) => {
    const name = funcName(fi);
    const vars = VAR_NAMES.slice(0, fb.dims);
    const earlier = funcs.map((f) => ({ name: f.name, arity: f.vars.length }));
    const pureScope: Scope = { vars: [...vars, ...params], funcs: earlier };
    const stages: Stage[] = [
      { pure: true, rdom: [], lhs: vars.map((x) => vr(x)), rhs: decodeExpr(fb.pure, pureScope, d), pred: cst(1) },
    ];
    for (const u of fb.updates) {
      const rdom: RVar[] = u.rdom.map((r, k) => ({ name: RVAR_NAMES[k]!, min: decodeStartup(r.min, params), len: decodeStartup(r.len, params) }));
      const pure = vars.map((_, i) => u.pure[i]!);
      const pureVars = vars.filter((_, i) => pure[i]);
      const fixed = vars.map((x, i) => (pure[i] ? x : undefined));
      const scope: Scope = { vars: [...pureVars, ...rdom.map((r) => r.name), ...params], funcs: earlier, self: { name, fixed } };
      // Reduction coordinates mention no pure variable (def. 2.7); they read funcs only with
      // data-dependent indexing, and the func itself only when `selfCoords` asks for it.
      const redScope: Scope = {
        vars: [...rdom.map((r) => r.name), ...params],
        funcs: d.dataDependent ? earlier : [],
        ...(d.dataDependent && o.selfCoords ? { self: { name, fixed } } : {}),
      };
      // A data-dependent coordinate (a histogram's bin) is clamped like a data-dependent index.
      const lhs = vars.map((x, i) => {
        if (pure[i]) return vr(x);
        const e = decodeExpr(u.lhs[i]!, redScope, d);
        return hasAccessIn(e) ? clamp(e) : e;
      });
      const pred = u.pred === null ? cst(1) : decodeExpr(u.pred, scope, { ...d, loose: o.looseSeparationInPredicates === true });
      stages.push({ pure: false, rdom, lhs, rhs: decodeExpr(u.rhs, scope, d), pred });
    }
    funcs.push({ name, vars, stages });
  });
  return { output: funcs[funcs.length - 1]!.name, params, funcs: useEveryFunc(funcs) };
}

/**
 * A func no later func reads has nothing to compute: its compute bounds are undetermined and β0
 * gives up (§2.7.2), which makes the whole case vacuous. Such funcs are added to the output's
 * pure stage, read at the output's own point.
 */
export function useEveryFunc(funcs: Func[]): Func[] {
  const used = new Set<string>();
  for (const f of funcs) for (const st of f.stages) for (const e of [...st.lhs, st.rhs, st.pred]) walkExpr(e, (x) => {
    if (x.k === 'access' && x.func !== f.name) used.add(x.func);
  });
  const out = funcs[funcs.length - 1]!;
  const dead = funcs.slice(0, -1).filter((g) => !used.has(g.name));
  if (dead.length === 0) return funcs;
  const [pure, ...rest] = out.stages;
  const at = (g: Func) => access(g.name, g.vars.map((_, i) => (out.vars.length > 0 ? vr(out.vars[i % out.vars.length]!) : cst(0))));
  const rhs = dead.reduce((e, g) => op('+', e, at(g)), pure!.rhs);
  return [...funcs.slice(0, -1), { ...out, stages: [{ ...pure!, rhs }, ...rest] }];
}

/** Input blueprint: window per dimension (some empty) and parameter values, cut to the pipeline. */
export interface InputB {
  readonly window: readonly (readonly [Int, number])[];
  readonly params: readonly number[];
}

/**
 * Far window minima (farWindows): several digits, but near enough that a func clamped to a box at
 * the origin (a boundary condition) still has a region the executors can allocate.
 */
const FAR = [12, 23, 123, -45, -101];

/** Extreme window minima (extremeMins): next to ±2^53, so that windows straddle it. */
const EXTREME_MINS: readonly Int[] = [...EXTREME, 2 ** 53 - 3, -(2 ** 53) + 2];

export function arbInputB(o: InputOptions = {}): fc.Arbitrary<InputB> {
  const near = fc.integer({ min: -3, max: 3 });
  const mins: fc.WeightedArbitrary<Int>[] = [
    { weight: 9, arbitrary: near },
    ...(o.farWindows ? [{ weight: 1, arbitrary: fc.constantFrom(...FAR) }] : []),
    ...(o.extremeMins ? [{ weight: 9, arbitrary: fc.constantFrom(...EXTREME_MINS) }] : []),
  ];
  const min: fc.Arbitrary<Int> = mins.length > 1 ? fc.oneof(...mins) : near;
  const len = o.maxWindowLen ?? 4;
  // Parameters serve as split factors and rdom extents: mostly positive, and zero or negative
  // (a failed split assertion, a negative extent, §2.9) one time in five.
  const param = o.paramRange
    ? fc.integer({ min: o.paramRange[0], max: o.paramRange[1] })
    : fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 4 }) }, { weight: 1, arbitrary: fc.integer({ min: -1, max: 0 }) });
  return fc.record({
    window: fc.tuple(...[0, 1, 2].map((d) => fc.tuple(
      min,
      fc.integer({ min: 1, max: d === 0 ? o.maxInnerLen ?? len : len }),
      // An empty window compares nothing: it is kept for the corner it is, but rarely. (A middle
      // value, since fast-check's bias favours the ends of a range.)
      fc.integer({ min: 0, max: 99 }).map((k) => k === 37),
    ).map(([min, len, empty]) => [min, empty ? 0 : len] as const))),
    params: fc.tuple(param, param),
  });
}

export function decodeInput(b: InputB, p: Pipeline): Input {
  const out = p.funcs.find((f) => f.name === p.output)!;
  const window = out.vars.map((_, i) => [int(b.window[i]![0]), int(b.window[i]![1])] as const);
  return { window, params: new Map<string, Int>(p.params.map((q, i) => [q, int(b.params[i]!)])) };
}
