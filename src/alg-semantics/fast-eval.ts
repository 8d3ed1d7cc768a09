// The fast evaluator of algorithms: the meaning of fig. 2.6 without substitution. Each stage is
// compiled once to a JS function over a slot environment; values are memoized per func, per
// version (the pure stage, then one version per unrolled rdom iteration of each update, §2.4.3)
// and per point. test/alg-semantics/eval.test.ts checks it against the spec evaluator.
//
// Faithfulness notes (spec/alg.md): an update is `select(ē = x̄ ∧ e_p, e_b, f[x̄])` with all three
// arguments evaluated, so every version evaluates e_b and e_p at every looked-up point and their
// errors propagate (def. 2.6); a stage with a negative rdom extent yields ε_rdom at every point.
import { UserError } from '../diag.js';
import type { Expr } from '../expr/ast.js';
import { INT_OPS, add, applyOp, mul } from '../expr/ops.js';
import { E_RDOM, type Int, type Value, isError, valueToJson } from '../expr/value.js';
import type { Func, Input, Pipeline, Stage } from './ast.js';
import { type InputLike, checkInput, inputOf, outputFunc } from './input.js';
import { PointTable, ValueTable, isInt32 } from './store.js';
import { forEachPoint } from '../expr/window.js';
import { pureDims } from './validate.js';

export interface Realization {
  func: string;
  window: [Int, Int][];
  values: Value[];
}

export interface FastOptions {
  /** Evaluation steps (stage bodies evaluated) before giving up with a UserError. */
  maxSteps?: number;
  maxPoints?: number;
}

/** Default step limit: generous for any window that fits in memory, but never an endless run. */
export const FAST_EVAL_MAX_STEPS = 200_000_000;

type Env = Value[];
type Code = (env: Env) => Value;

interface FuncRt {
  /** Number of dimensions: accesses are checked against it when compiled. */
  readonly arity: number;
  get(c: Value[]): Value;
  get1(a: Value): Value;
  get2(a: Value, b: Value): Value;
}

interface Counter {
  steps: number;
  readonly max: number;
}

/** The evaluator's step limit ran out (a step, or an rdom larger than the whole limit): bad input to a command, a budget to a caller that has one. */
export class StepLimitExceeded extends UserError {}

function tick(ctr: Counter): void {
  if (++ctr.steps > ctr.max) {
    throw new StepLimitExceeded(`evaluation needs more than ${ctr.max} steps`, undefined, 'use a smaller window, smaller parameters, or raise the step limit');
  }
}

/** Worst error among values (def. 2.6), used where several operators would each propagate it. */
function worst(vals: readonly Value[]): Value | undefined {
  let w: Value | undefined;
  for (const v of vals) if (isError(v) && (w === undefined || v.rank > (w as { rank: number }).rank)) w = v;
  return w;
}

interface Scope {
  slots: ReadonlyMap<string, number>;
  params: ReadonlyMap<string, Int>;
  funcs: ReadonlyMap<string, FuncRt>;
  /** Self-accesses of an update stage read the version before the one being computed. */
  self?: { name: string; arity: number; at: (v: number, c: Value[]) => Value; vslot: number };
  /** Set for rdom bounds, whose variables may only be parameters (def. 2.9). */
  startup?: boolean;
}

/**
 * Compiles an expression once to a JS function of the slot environment. Pure and reduction
 * variables are slots, parameters are constants, accesses call the memoized funcs directly.
 */
function compile(e: Expr, s: Scope): Code {
  return compileWith(e, s, 'env', (i) => `env[${i}]`) as Code;
}

/**
 * A pure func body as a function of its coordinates `(a0, a1, …)`, so that evaluating a point
 * allocates nothing (the fast path of pure funcs such as the blur's).
 */
function compilePure(e: Expr, s: Scope, n: number): (...c: Value[]) => Value {
  const ps = Array.from({ length: n }, (_, i) => `a${i}`);
  return compileWith(e, s, ps.join(', '), (i) => ps[i]!) as (...c: Value[]) => Value;
}

function compileWith(e: Expr, s: Scope, params: string, slot: (i: number) => string): unknown {
  const consts: unknown[] = [];
  const k = (v: unknown): string => {
    let i = consts.indexOf(v);
    if (i < 0) i = consts.push(v) - 1;
    return `k${i}`;
  };
  // Temporaries hold evaluated arguments, so that each is evaluated once, left to right. They are
  // local to one call of the generated function, so recursive demand does not clobber them.
  let temps = 0;
  const temp = (): string => `t${temps++}`;
  const bind = (code: string): [name: string, assign: string[]] => {
    if (LITERAL.test(code)) return [code, []];
    const t = temp();
    return [t, [`${t} = ${code}`]];
  };
  const gen = (e: Expr): string => {
    switch (e.k) {
      case 'const':
        return typeof e.value === 'number' ? `(${e.value})` : k(e.value);
      case 'var': {
        const i = s.slots.get(e.name);
        if (i !== undefined) return slot(i);
        const v = s.params.get(e.name);
        if (v === undefined) {
          throw s.startup
            ? new UserError(`rdom bound mentions '${e.name}', but bounds may mention only constants and parameters (def. 2.9)`, e.loc, 'check the program first (refsem check)')
            : new UserError(`unbound variable '${e.name}'`, e.loc);
        }
        return typeof v === 'number' ? `(${v})` : k(v);
      }
      case 'hole':
        throw new UserError('bounds holes do not occur in algorithms', e.loc);
      case 'access': {
        const args = e.args.map(gen);
        // Valid programs have the right arity (def. 2.10); the evaluator does not assume it, since
        // a missing argument would silently read an unfilled slot.
        const arity = s.self && e.func === s.self.name ? s.self.arity : s.funcs.get(e.func)?.arity;
        if (arity !== undefined && arity !== args.length) {
          throw new UserError(`'${e.func}' has ${arity} dimension${arity === 1 ? '' : 's'} but is accessed with ${args.length} argument${args.length === 1 ? '' : 's'}`, e.loc, 'check the program first (refsem check)');
        }
        if (s.self && e.func === s.self.name) return `${k(s.self.at)}(${slot(s.self.vslot)} - 1, [${args.join(', ')}])`;
        const g = s.funcs.get(e.func);
        if (!g) throw new UserError(`unknown func '${e.func}'`, e.loc);
        if (g instanceof PureFunc && args.length === 2) {
          // The memo hit of a 2-D pure func read in place: the hot path of stencils.
          const [[a, as], [b, bs]] = args.map(bind) as [[string, string[]], [string, string[]]];
          const i = temp();
          const T = k(g.table);
          return `(${[...as, ...bs].map((x) => `${x}, `).join('')}(${i} = ${T}.slot2(${a}, ${b})) >= 0 && ${T}.state[${i}] === 1 ? ${T}.nums[${i}] : ${k(g)}.miss2(${a}, ${b}, ${i}))`;
        }
        if (args.length === 1) return `${k(g)}.get1(${args[0]})`;
        if (args.length === 2) return `${k(g)}.get2(${args[0]}, ${args[1]})`;
        return `${k(g)}.get([${args.join(', ')}])`;
      }
      case 'op': {
        // Def. 2.6 first (an error argument makes the result the worst error), else the integer
        // operator of ops.ts; literal arguments are never errors and need no test.
        const bound = e.args.map((a) => bind(gen(a)));
        const vals = bound.map(([v]) => v).join(', ');
        const tests = bound.filter(([, as]) => as.length > 0).map(([v]) => `typeof ${v} === 'object'`);
        const exact = `${k(INT_OPS[e.op])}(${vals})`;
        const code = tests.length ? `${tests.join(' || ')} ? ${k(applyOp)}('${e.op}', [${vals}]) : ${exact}` : exact;
        return `(${[...bound.flatMap(([, as]) => as), code].join(', ')})`;
      }
    }
  };
  const body = gen(e);
  const decls = consts.map((_, i) => `const k${i} = K[${i}];`).join(' ');
  const lets = temps > 0 ? `let ${Array.from({ length: temps }, (_, i) => `t${i}`).join(', ')}; ` : '';
  const src = `${decls} return (${params}) => { ${lets}return ${body}; };`;
  let factory = FACTORIES.get(src);
  if (!factory) {
    if (FACTORIES.size >= 10_000) FACTORIES.clear();
    factory = new Function('K', src) as (K: unknown[]) => unknown;
    FACTORIES.set(src, factory);
  }
  return factory(consts);
}

/** Generated code of a number literal, e.g. `(3)` or `(-2)`. */
const LITERAL = /^\(-?\d+\)$/;

/**
 * Generated code by source text. Reusing the factory lets every realization of the same program
 * share the engine's optimized code for it (fuzzing and benchmarks realize a program many times).
 */
const FACTORIES = new Map<string, (K: unknown[]) => unknown>();

/** A func with only its pure stage: one memo table of final values. */
class PureFunc implements FuncRt {
  readonly table = new ValueTable();
  constructor(
    readonly body: (...c: Value[]) => Value,
    private readonly ctr: Counter,
    readonly arity: number,
  ) {}
  compute(c: Value[]): Value {
    tick(this.ctr);
    return this.body(...c);
  }
  compute2(a: Value, b: Value): Value {
    tick(this.ctr);
    return this.body(a, b);
  }
  get(c: Value[]): Value {
    const v = this.table.get(c);
    if (v !== undefined) return v;
    const r = this.compute(c);
    this.table.set(c, r);
    return r;
  }
  get1(a: Value): Value {
    const v = this.table.get1(a);
    return v !== undefined ? v : this.get([a]);
  }
  get2(a: Value, b: Value): Value {
    const t = this.table;
    const i = t.slot2(a, b);
    return i >= 0 && t.state[i] === 1 ? t.nums[i]! : this.miss2(a, b, i);
  }
  /** `get2` after its dense cell `i` (or -1) missed. The body never reads this func's own table, so `i` stays valid. */
  miss2(a: Value, b: Value, i: number): Value {
    const t = this.table;
    if (i < 0 || t.state[i] !== 0) return this.get([a, b]);
    const r = this.compute2(a, b);
    if (isInt32(r)) {
      t.nums[i] = r;
      t.state[i] = 1;
    } else t.set([a, b], r);
    return r;
  }
}

/** One iteration of an update, evaluated: the coordinates ē, the predicate e_p and the value e_b. */
interface Parts {
  lhs: Value[];
  p: Value;
  b: Value;
}

/** An update stage after its rdom bounds are known: `count` versions starting at `first`. */
interface Version {
  first: number;
  count: number;
  /** Set when some extent is negative: every lookup through the stage is ε_rdom (RDOM-ERR). */
  err?: Value;
  mins: Int[];
  lens: number[];
  /** No pure variable occurs in the stage (def. 2.8), so ē, e_p, e_b do not depend on the point. */
  shared: boolean;
  lhs: Code[];
  rhs: Code;
  pred: Code;
  /** Shared stages: the parts of iterations 0 … parts.length − 1, computed in order. */
  parts: Parts[];
  /** Shared stages: the worst error among the parts of iterations 0 … t (def. 2.6). */
  errUpTo: (Value | undefined)[];
  /** Shared stages: per written point, the iterations that write it and the values written. */
  writes: PointTable<{ ts: number[]; bs: Value[] }>;
  /** Other stages: per point, its values after iterations 0 … h.length − 1. */
  hist: PointTable<Value[]>;
}

/**
 * A func with update stages. Version 0 is the pure stage; each unrolled iteration of each update
 * is one more version ([RDOM-EVAL] order). The value at (v, c̄) is [UPDATE-EVAL]'s
 * select(ē = c̄ ∧ e_p, e_b, value at (v − 1, c̄)) with every argument evaluated: the worst error
 * among them if there is one, else e_b where the update hits and the previous value elsewhere.
 */
class StagedFunc implements FuncRt {
  private readonly pureVals = new PointTable<Value>();
  private versions: Version[] = [];
  private last = 0;
  constructor(
    private readonly pure: Code,
    private readonly ctr: Counter,
    readonly arity: number,
    build: (self: StagedFunc) => Version[],
  ) {
    this.versions = build(this);
    const v = this.versions[this.versions.length - 1];
    this.last = v ? v.first + v.count - 1 : 0;
  }

  get(c: Value[]): Value {
    return this.at(this.last, c);
  }
  get1(a: Value): Value {
    return this.at(this.last, [a]);
  }
  get2(a: Value, b: Value): Value {
    return this.at(this.last, [a, b]);
  }

  at = (v: number, c: Value[]): Value => {
    if (v === 0) {
      let r = this.pureVals.get(c);
      if (r === undefined) {
        tick(this.ctr);
        r = this.pure(c);
        this.pureVals.set(c, r);
      }
      return r;
    }
    let k = this.versions.length - 1;
    while (this.versions[k]!.first > v) k--;
    const st = this.versions[k]!;
    if (st.err) return st.err;
    return st.shared ? this.sharedAt(st, v - st.first, c) : this.pointAt(st, v - st.first, c);
  };

  /** Evaluates ē, e_p, e_b of iteration t (r_1 innermost, §2.4.1) at point c. */
  private parts(st: Version, t: number, c: Value[]): Parts {
    tick(this.ctr);
    const env: Env = [...c];
    let rest = t;
    for (let i = 0; i < st.lens.length; i++) {
      env.push(add(st.mins[i]!, rest % st.lens[i]!));
      rest = Math.floor(rest / st.lens[i]!);
    }
    env.push(st.first + t);
    return { lhs: st.lhs.map((e) => e(env)), p: st.pred(env), b: st.rhs(env) };
  }

  /** A stage whose parts do not depend on the point: evaluate each iteration once, index writes. */
  private sharedAt(st: Version, t: number, c: Value[]): Value {
    while (st.parts.length <= t) {
      const i = st.parts.length;
      // No pure variable occurs in the stage, so its slots hold an arbitrary placeholder.
      const pt = this.parts(st, i, st.lhs.map(() => 0));
      st.parts.push(pt);
      st.errUpTo.push(worst([...pt.lhs, pt.p, pt.b, ...(i > 0 && st.errUpTo[i - 1] ? [st.errUpTo[i - 1]!] : [])]));
      if (pt.p !== 0 && !isError(pt.p) && pt.lhs.every((e) => !isError(e))) {
        let w = st.writes.get(pt.lhs);
        if (!w) st.writes.set(pt.lhs, (w = { ts: [], bs: [] }));
        w.ts.push(i);
        w.bs.push(pt.b);
      }
    }
    const start = this.at(st.first - 1, c);
    const err = worst([...c, start, ...(st.errUpTo[t] ? [st.errUpTo[t]!] : [])]);
    if (err) return err;
    const w = st.writes.get(c);
    if (!w) return start;
    // The last write at or before iteration t has the final word.
    let lo = 0;
    let hi = w.ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (w.ts[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? start : w.bs[lo - 1]!;
  }

  /** A stage that mentions pure variables: step the point through the iterations. */
  private pointAt(st: Version, t: number, c: Value[]): Value {
    let h = st.hist.get(c);
    if (h === undefined) st.hist.set(c, (h = []));
    while (h.length <= t) {
      const i = h.length;
      const prev = i === 0 ? this.at(st.first - 1, c) : h[i - 1]!;
      const pt = this.parts(st, i, c);
      const err = worst([...pt.lhs, ...c, pt.p, pt.b, prev]);
      h.push(err ?? (pt.p !== 0 && pt.lhs.every((e, j) => e === c[j]) ? pt.b : prev));
    }
    return h[t]!;
  }

  /** The versions of one stage once the parameters fix its rdom bounds ([RDOM-EVAL] order). */
  static versionsOf(f: Func, s: Stage, first: number, scope: Scope, at: StagedFunc['at'], max: number): Version {
    const n = f.vars.length;
    const slots = new Map<string, number>(f.vars.map((x, i) => [x, i]));
    s.rdom.forEach((r, i) => slots.set(r.name, n + i));
    const vslot = n + s.rdom.length;
    const sc: Scope = { ...scope, slots, self: { name: f.name, arity: n, at, vslot } };
    if (s.lhs.length !== n) {
      throw new UserError(`update stage ${f.stages.indexOf(s)} of func '${f.name}' assigns ${s.lhs.length} coordinates, but '${f.name}' has ${n} dimensions`, s.loc, 'check the program first (refsem check)');
    }
    // Bounds are startup expressions (def. 2.9): compiled without slots, so that no variable can
    // read the empty environment they are evaluated in.
    const bound = (e: Expr) => compile(e, { ...scope, slots: new Map(), startup: true })([]);
    const mins = s.rdom.map((r) => bound(r.min));
    const lens = s.rdom.map((r) => bound(r.len));
    const shared = !pureDims(f, s).some(Boolean);
    const base = {
      first, mins: [] as Int[], lens: [] as number[], shared, lhs: [], rhs: () => 0, pred: () => 0,
      parts: [], errUpTo: [], writes: new PointTable<{ ts: number[]; bs: Value[] }>(), hist: new PointTable<Value[]>(),
    };
    const bad = worst([...mins, ...lens]);
    if (bad) return { ...base, count: 1, err: bad };
    if ((lens as Int[]).some((l) => l < 0)) return { ...base, count: 1, err: E_RDOM };
    const count = (lens as Int[]).reduce<Int>((a, b) => mul(a, b), 1);
    if (count > max) {
      throw new StepLimitExceeded(`the rdom of update stage ${f.stages.indexOf(s)} of func '${f.name}' has ${count} iterations, more than the step limit ${max}`, s.loc, 'use smaller rdom extents');
    }
    return {
      ...base, count: Number(count), mins: mins as Int[], lens: (lens as Int[]).map(Number),
      lhs: s.lhs.map((e) => compile(e, sc)), rhs: compile(s.rhs, sc), pred: compile(s.pred, sc),
    };
  }
}

interface Compiled {
  funcs: Map<string, FuncRt>;
  ctr: Counter;
}

function compilePipeline(p: Pipeline, params: ReadonlyMap<string, Int>, opts: FastOptions): Compiled {
  const ctr: Counter = { steps: 0, max: opts.maxSteps ?? FAST_EVAL_MAX_STEPS };
  const funcs = new Map<string, FuncRt>();
  for (const f of p.funcs) {
    const scope: Scope = { slots: new Map(f.vars.map((x, i) => [x, i])), params, funcs: new Map(funcs) };
    if (f.stages.length === 1) {
      funcs.set(f.name, new PureFunc(compilePure(f.stages[0]!.rhs, scope, f.vars.length), ctr, f.vars.length));
      continue;
    }
    const pure = compile(f.stages[0]!.rhs, scope);
    funcs.set(f.name, new StagedFunc(pure, ctr, f.vars.length, (self) => {
      let first = 1;
      return f.stages.slice(1).map((s) => {
        const v = StagedFunc.versionsOf(f, s, first, scope, self.at, ctr.max);
        first += v.count;
        return v;
      });
    }));
  }
  return { funcs, ctr };
}

/** Runs `f`, turning host stack exhaustion on deeply nested demand into a user-facing error. */
function guarded<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new UserError('evaluation nests too deeply for the fast evaluator', undefined, 'request a smaller window or fewer rdom iterations');
    }
    throw e;
  }
}

/** A memoized evaluator of single points of any func, for fixed parameters. */
export function makePointEvaluator(p: Pipeline, params: ReadonlyMap<string, Int>, opts: FastOptions = {}): (func: string, point: readonly Value[]) => Value {
  const { funcs } = compilePipeline(p, params, opts);
  return (func, point) => {
    const g = funcs.get(func);
    if (!g) throw new UserError(`unknown func '${func}'`);
    return guarded(() => g.get([...point]));
  };
}

/** [REALIZE] of the output func over the input window, values flattened first dimension fastest. */
export function realize(p: Pipeline, given: Input | InputLike, opts: FastOptions = {}): Realization {
  const input = inputOf(given);
  checkInput(p, input, opts);
  const f = outputFunc(p);
  const { funcs } = compilePipeline(p, input.params, opts);
  const g = funcs.get(f.name)!;
  const window = input.window.map(([m, l]) => [m, l] as [Int, Int]);
  // Each output point is requested once, so a pure output func is computed without its memo.
  const values: Value[] = [];
  const M = 4;
  const small = window.every(([m, l]) => typeof m === 'number' && typeof l === 'number' && Number.isSafeInteger(m - M) && Number.isSafeInteger(m + l + M));
  if (small) {
    // Producers of the output's dimensionality are mostly read near the window (stencils): size
    // their dense memo to the window plus a margin once, instead of growing it step by step. The
    // output func itself is read by no one, so it needs none.
    for (const h of p.funcs) {
      const rt = funcs.get(h.name);
      if (rt instanceof PureFunc && h !== f && h.vars.length === window.length) {
        rt.table.reserve(window.map(([m]) => (m as number) - M), window.map(([, l]) => (l as number) + 2 * M));
      }
    }
  }
  if (g instanceof PureFunc && small && window.length === 2) {
    const [[x0, w], [y0, h]] = window as [number, number][];
    guarded(() => {
      for (let y = y0!; y < y0! + h!; y++) for (let x = x0!; x < x0! + w!; x++) values.push(g.compute2(x, y));
    });
  } else {
    const point = g instanceof PureFunc ? (c: Value[]) => g.compute(c) : (c: Value[]) => g.get(c);
    guarded(() => forEachPoint(window, (c) => values.push(point(c))));
  }
  return { func: f.name, window, values };
}

/** The JSON shape of docs/architecture.md: {"func","window","values"}. */
export function realizationJson(r: Realization): { func: string; window: (number | string)[][]; values: (number | string)[] } {
  return { func: r.func, window: r.window.map((iv) => iv.map(valueToJson)), values: r.values.map(valueToJson) };
}
