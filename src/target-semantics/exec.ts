// The fast executor: a completed Tgt program is compiled once to one JavaScript function (loop
// variables and lets become JS locals, loops become JS loops) and run on many inputs. It implements
// fig. 2.8 without building configurations: each statement does what the rules do to it and adds
// the number of rule applications the small-step machine would make, so both executors return
// equal Outcomes, step counts included (spec/target.md, "Steps"). Values stay exact: the generated
// code calls the runtime helpers below, whose safe-integer paths are inline and whose other paths
// go through src/expr/ops.ts.
import type { Input } from '../alg-semantics/ast.js';
import { type InputLike, inputOf } from '../alg-semantics/input.js';
import type { Expr, OpName } from '../expr/ast.js';
import { INT_OPS, add, applyOp, div, mod } from '../expr/ops.js';
import { type Int, type Value, isError } from '../expr/value.js';
import type { Stmt, TgtProgram } from './ast.js';
import { bindInput, checkTgt } from './check.js';
import type { Outcome, Site, Stuck } from './outcome.js';
import { RaceDetector, done, permutation } from './parallel.js';
import { type Rng, seededRng } from '../rng.js';
import { Buf, StuckSignal, allocate, checkedOffset, programSite, siteOf } from './store.js';


/**
 * The fast executor's default step budget: every evaluator path ends within seconds unless asked
 * for more (a loop of 10^18 iterations is then the named outcome budget-exceeded, not a hang).
 */
export const EXEC_MAX_STEPS = 200_000_000;

export interface RunOptions {
  readonly seed?: number;
  readonly maxSteps?: number;
  /**
   * Called after every store with the func, the point and the value written, in execution order
   * (the write-order property compares these sequences). A program run with it is compiled apart,
   * so runs without it pay nothing.
   */
  readonly onStore?: StoreWatcher;
  /** Called after every allocation with the func and its bounds; compiled apart like `onStore`. */
  readonly onAlloc?: AllocWatcher;
}

/**
 * The loops around a statement when it runs, outermost first, each with its induction variable's
 * value: which iteration of which loop made a write (the iteration-space pictures of a report).
 */
export type LoopValues = readonly (readonly [string, Value])[];
export type StoreWatcher = (func: string, point: readonly Value[], value: Value, loops: LoopValues) => void;
export type AllocWatcher = (func: string, bounds: readonly (readonly [Int, Int])[], loops: LoopValues) => void;

export interface CompiledTgt {
  readonly program: TgtProgram;
  /** The generated JavaScript, for inspection. */
  readonly source: string;
  run(input: Input, opts?: RunOptions): Outcome;
}

/** The run state the generated code reads and updates. */
interface Ctx {
  readonly bufs: (Buf | undefined)[];
  steps: number;
  readonly max: number;
  readonly rng: Rng;
  readonly races: RaceDetector;
  readonly onStore?: StoreWatcher;
  readonly onAlloc?: AllocWatcher;
}

/** Thrown when a loop iteration finds the step budget spent. */
const BUDGET = Symbol('budget');

/** Steps the machine spends evaluating an expression: one per [TGT-VAR], [EVAL] and [READ]. */
export function exprSteps(e: Expr): number {
  switch (e.k) {
    case 'const':
    case 'hole':
      return 0;
    case 'var':
      return 1;
    case 'access':
    case 'op':
      return e.args.reduce((n, a) => n + exprSteps(a), 1);
  }
}

const stuckAt = (stuck: Stuck, steps: number): StuckSignal => new StuckSignal(stuck, steps);

// ---- runtime helpers called by the generated code -------------------------------------------

function slowOp(o: OpName, a: Value, b: Value): Value {
  return isError(a) || isError(b) ? applyOp(o, [a, b]) : INT_OPS[o](a, b);
}

const HELPERS = {
  add(a: Value, b: Value): Value {
    if (typeof a === 'number' && typeof b === 'number') {
      const r = a + b;
      if (Number.isSafeInteger(r)) return r;
    }
    return slowOp('+', a, b);
  },
  sub(a: Value, b: Value): Value {
    if (typeof a === 'number' && typeof b === 'number') {
      const r = a - b;
      if (Number.isSafeInteger(r)) return r;
    }
    return slowOp('-', a, b);
  },
  mul(a: Value, b: Value): Value {
    if (typeof a === 'number' && typeof b === 'number') {
      const r = a * b;
      if (Number.isSafeInteger(r)) return r === 0 ? 0 : r; // never -0 (value.ts)
    }
    return slowOp('*', a, b);
  },
  div(a: Value, b: Value): Value {
    return typeof a === 'number' && typeof b === 'number' ? div(a, b) : slowOp('div', a, b);
  },
  mod(a: Value, b: Value): Value {
    return typeof a === 'number' && typeof b === 'number' ? mod(a, b) : slowOp('mod', a, b);
  },
  lt: (a: Value, b: Value): Value => (typeof a === 'number' && typeof b === 'number' ? (a < b ? 1 : 0) : slowOp('<', a, b)),
  gt: (a: Value, b: Value): Value => (typeof a === 'number' && typeof b === 'number' ? (a > b ? 1 : 0) : slowOp('>', a, b)),
  eq: (a: Value, b: Value): Value => (typeof a === 'number' && typeof b === 'number' ? (a === b ? 1 : 0) : slowOp('=', a, b)),
  bin: slowOp,
  not: (a: Value): Value => (isError(a) ? a : INT_OPS.not(a)),
  nary: (o: OpName, args: Value[]): Value => applyOp(o, args),

  /** [READ] with the general checks: unallocated, InBounds (def. 2.13), races. */
  read(c: Ctx, slot: number, func: string, point: Value[], before: number, site: Site): Value {
    const buf = c.bufs[slot];
    const off = checkedOffset(buf, func, point, 'read', site, c.races);
    if (typeof off !== 'number') throw stuckAt(off, c.steps + before);
    return buf!.data[off]!;
  },
  /** [READ] of a 2-D buffer outside parallel loops, bounds checked inline. */
  read2(c: Ctx, slot: number, func: string, i: Value, j: Value, before: number, site: Site): Value {
    const buf = c.bufs[slot];
    const m = buf?.numMins;
    if (m && typeof i === 'number' && typeof j === 'number') {
      const d0 = i - m[0]!;
      const d1 = j - m[1]!;
      if (d0 >= 0 && d0 < buf!.lens[0]! && d1 >= 0 && d1 < buf!.lens[1]!) return buf!.data[d0 + d1 * buf!.strides[1]!]!;
    }
    return HELPERS.read(c, slot, func, [i, j], before, site);
  },
  read1(c: Ctx, slot: number, func: string, i: Value, before: number, site: Site): Value {
    const buf = c.bufs[slot];
    const m = buf?.numMins;
    if (m && typeof i === 'number') {
      const d = i - m[0]!;
      if (d >= 0 && d < buf!.lens[0]!) return buf!.data[d]!;
    }
    return HELPERS.read(c, slot, func, [i], before, site);
  },
  /** [ASSN]: the value was evaluated before the point (context `a ← E`, then `E ← c`). */
  write(c: Ctx, slot: number, func: string, v: Value, point: Value[], cost: number, site: Site): void {
    const buf = c.bufs[slot];
    const off = checkedOffset(buf, func, point, 'write', site, c.races, v);
    if (typeof off !== 'number') throw stuckAt(off, c.steps + cost);
    buf!.data[off] = v;
    c.steps += cost + 1;
  },
  write2(c: Ctx, slot: number, func: string, v: Value, i: Value, j: Value, cost: number, site: Site): void {
    const buf = c.bufs[slot];
    const m = buf?.numMins;
    if (m && typeof i === 'number' && typeof j === 'number') {
      const d0 = i - m[0]!;
      const d1 = j - m[1]!;
      if (d0 >= 0 && d0 < buf!.lens[0]! && d1 >= 0 && d1 < buf!.lens[1]!) {
        buf!.data[d0 + d1 * buf!.strides[1]!] = v;
        c.steps += cost + 1;
        return;
      }
    }
    HELPERS.write(c, slot, func, v, [i, j], cost, site);
  },
  write1(c: Ctx, slot: number, func: string, v: Value, i: Value, cost: number, site: Site): void {
    const buf = c.bufs[slot];
    const m = buf?.numMins;
    if (m && typeof i === 'number') {
      const d = i - m[0]!;
      if (d >= 0 && d < buf!.lens[0]!) {
        buf!.data[d] = v;
        c.steps += cost + 1;
        return;
      }
    }
    HELPERS.write(c, slot, func, v, [i], cost, site);
  },
  /** [ASSN] in a program compiled for a store watcher: the write, then the watcher. */
  writeWatched(c: Ctx, slot: number, func: string, v: Value, point: Value[], cost: number, site: Site, loops: LoopValues): void {
    HELPERS.write(c, slot, func, v, point, cost, site);
    c.onStore?.(func, point, v, loops);
  },
  /** [ALLOC] in a program compiled for watchers: the allocation, then the watcher. */
  allocWatched(c: Ctx, slot: number, s: Stmt & { k: 'allocate' }, bounds: Value[], cost: number, loops: LoopValues): void {
    HELPERS.alloc(c, slot, s, bounds, cost);
    c.onAlloc?.(s.func, c.bufs[slot]!.bounds(), loops);
  },
  /** [ALLOC] */
  alloc(c: Ctx, slot: number, s: Stmt & { k: 'allocate' }, bounds: Value[], cost: number): void {
    const r = allocate(s, bounds);
    if (!(r instanceof Buf)) throw stuckAt(r, c.steps + cost);
    c.bufs[slot] = r;
    c.steps += cost + 1;
  },
  /** Conditions of if and assert must be integers; assert's must be non-zero (def. 2.11). */
  cond(c: Ctx, v: Value, cost: number, s: Stmt, site: Site): void {
    const what = s.k === 'assert' ? 'assert condition' : 'if condition';
    if (isError(v)) throw stuckAt({ kind: 'error-in-control', what, value: v, site }, c.steps + cost);
    if (s.k === 'assert' && v === 0) throw stuckAt({ kind: 'assert-failed', cond: s.cond, site }, c.steps + cost);
    c.steps += cost + 1;
  },
  /** Loop bounds must be integers with a non-negative length (def. 2.12). */
  bounds(c: Ctx, min: Value, len: Value, x: string, cost: number, site: Site): void {
    if (isError(min)) throw stuckAt({ kind: 'error-in-control', what: `loop min of ${x}`, value: min, site }, c.steps + cost);
    if (isError(len)) throw stuckAt({ kind: 'error-in-control', what: `loop extent of ${x}`, value: len, site }, c.steps + cost);
    if (len < 0) throw stuckAt({ kind: 'rdom-failure', var: x, min, len, site }, c.steps + cost);
    c.steps += cost;
  },
  /** The loop variable's value in iteration k (k counts from 0). */
  iter: (min: Int, k: number): Int => (typeof min === 'number' && Number.isSafeInteger(min + k) ? min + k : add(min, k)),
  perm: (c: Ctx, min: Int, len: Int, site: Site): Int[] => permutation(c.rng, min, len, site),
  budget(): never {
    throw BUDGET;
  },
};

// ---- code generation ------------------------------------------------------------------------

/** Generates the body of the run function; constants, sites and statements go into tables. */
class Gen {
  constructor(readonly watched = false) {}

  readonly vars = new Map<string, string>();
  readonly bufSlots = new Map<string, number>();
  readonly consts: Value[] = [];
  readonly sites: Site[] = [];
  readonly stmts: Stmt[] = [];
  private tmp = 0;
  /** The induction variables of the loops around the statement being generated, outermost first. */
  private readonly loops: string[] = [];

  /** The enclosing loops' names and values, as the watchers receive them. */
  loopValues(): string {
    return `[${this.loops.map((x) => `[${this.name(x)}, ${this.v(x)}]`).join(', ')}]`;
  }

  v(name: string): string {
    let s = this.vars.get(name);
    if (s === undefined) this.vars.set(name, (s = `v${this.vars.size}`));
    return s;
  }
  buf(func: string): number {
    let s = this.bufSlots.get(func);
    if (s === undefined) this.bufSlots.set(func, (s = this.bufSlots.size));
    return s;
  }
  fresh(): string {
    return `t${this.tmp++}`;
  }
  table<T>(xs: T[], x: T): number {
    xs.push(x);
    return xs.length - 1;
  }
  lit(v: Value): string {
    return typeof v === 'number' ? (Object.is(v, -0) ? '0' : `(${v})`) : `K[${this.table(this.consts, v)}]`;
  }
  name(func: string): string {
    return JSON.stringify(func);
  }

  /** `base`: steps the statement took before this expression, so stuck reads report exact counts. */
  expr(e: Expr, base: number, site: number, par: boolean): string {
    switch (e.k) {
      case 'const':
        return this.lit(e.value);
      case 'var':
        return this.v(e.name);
      case 'hole':
        throw new Error('unreachable: holes are refused by checkTgt');
      case 'op': {
        const args = this.exprs(e.args, base, site, par);
        switch (e.op) {
          case '+':
            return `H.add(${args})`;
          case '-':
            return `H.sub(${args})`;
          case '*':
            return `H.mul(${args})`;
          case 'not':
            return `H.not(${args})`;
          case 'div':
          case 'mod':
            return `H.${e.op}(${args})`;
          case '<':
            return `H.lt(${args})`;
          case '>':
            return `H.gt(${args})`;
          case '=':
            return `H.eq(${args})`;
          case 'select':
            return `H.nary('select', [${args}])`;
          default:
            return `H.bin(${JSON.stringify(e.op)}, ${args})`;
        }
      }
      case 'access': {
        const args = this.exprs(e.args, base, site, par);
        const before = base + exprSteps(e) - 1;
        const slot = this.buf(e.func);
        const head = `S, ${slot}, ${this.name(e.func)}`;
        const tail = `${before}, SITES[${site}]`;
        if (!par && e.args.length === 1) return `H.read1(${head}, ${args}, ${tail})`;
        if (!par && e.args.length === 2) return `H.read2(${head}, ${args}, ${tail})`;
        return `H.read(${head}, [${args}], ${tail})`;
      }
    }
  }

  /** Arguments left to right (contexts op(c̄, E, ē) and f[c̄, E, ē]); JS evaluates them in order. */
  exprs(es: readonly Expr[], base: number, site: number, par: boolean): string {
    let b = base;
    return es
      .map((a) => {
        const s = this.expr(a, b, site, par);
        b += exprSteps(a);
        return s;
      })
      .join(', ');
  }

  stmt(s: Stmt, par: boolean, out: string[]): void {
    const site = this.table(this.sites, siteOf(s));
    switch (s.k) {
      case 'nop':
        return;
      case 'seq':
        s.body.forEach((b, i) => {
          if (i > 0) out.push('S.steps++;'); // [NOP]
          this.stmt(b, par, out);
        });
        return;
      case 'assert':
        out.push(`H.cond(S, ${this.expr(s.cond, 0, site, par)}, ${exprSteps(s.cond)}, STMTS[${this.table(this.stmts, s)}], SITES[${site}]);`);
        return;
      case 'allocate': {
        const es = this.exprs(s.dims.flatMap((d) => [d.min, d.len]), 0, site, par);
        const cost = s.dims.reduce((n, d) => n + exprSteps(d.min) + exprSteps(d.len), 0);
        const call = `S, ${this.buf(s.func)}, STMTS[${this.table(this.stmts, s)}], [${es}], ${cost}`;
        out.push(this.watched ? `H.allocWatched(${call}, ${this.loopValues()});` : `H.alloc(${call});`);
        return;
      }
      case 'store': {
        const vcost = exprSteps(s.value);
        const value = this.expr(s.value, 0, site, par);
        const idx = this.exprs(s.idx, vcost, site, par);
        const cost = s.idx.reduce((n, e) => n + exprSteps(e), vcost);
        const head = `S, ${this.buf(s.func)}, ${this.name(s.func)}, ${value}`;
        const tail = `${cost}, SITES[${site}]`;
        if (this.watched) out.push(`H.writeWatched(${head}, [${idx}], ${tail}, ${this.loopValues()});`);
        else if (!par && s.idx.length === 1) out.push(`H.write1(${head}, ${idx}, ${tail});`);
        else if (!par && s.idx.length === 2) out.push(`H.write2(${head}, ${idx}, ${tail});`);
        else out.push(`H.write(${head}, [${idx}], ${tail});`);
        return;
      }
      case 'if': {
        const t = this.fresh();
        out.push(`const ${t} = ${this.expr(s.cond, 0, site, par)};`);
        out.push(`H.cond(S, ${t}, ${exprSteps(s.cond)}, STMTS[${this.table(this.stmts, s)}], SITES[${site}]);`);
        out.push(`if (${t} !== 0) {`);
        this.stmt(s.then, par, out);
        out.push('} else {');
        this.stmt(s.else, par, out);
        out.push('}');
        return;
      }
      case 'let':
        out.push(`${this.v(s.var)} = ${this.expr(s.value, 0, site, par)};`, `S.steps += ${exprSteps(s.value) + 1};`);
        this.stmt(s.body, par, out);
        return;
      case 'label':
        out.push('S.steps++;');
        this.stmt(s.body, par, out);
        return;
      case 'for':
        return this.loop(s, site, par, out);
    }
  }

  /** Each iteration is [FOR-ITER], the body, and [NOP] for `nop; for x in (…) do s`; then [FOR-STOP]. */
  loop(s: Stmt & { k: 'for' }, site: number, par: boolean, out: string[]): void {
    const mn = this.fresh();
    const ln = this.fresh();
    const k = this.fresh();
    const x = this.v(s.var);
    out.push(`const ${mn} = ${this.expr(s.min, 0, site, par)};`);
    out.push(`const ${ln} = ${this.expr(s.len, exprSteps(s.min), site, par)};`);
    out.push(`H.bounds(S, ${mn}, ${ln}, ${this.name(s.var)}, ${exprSteps(s.min) + exprSteps(s.len)}, SITES[${site}]);`);
    if (s.trav === 'parallel') {
      const ord = this.fresh();
      out.push(`if (${ln} > 0) {`, `const ${ord} = H.perm(S, ${mn}, ${ln}, SITES[${site}]);`);
      out.push(`S.races.enter(${this.name(s.var)}, ${ord});`, `for (let ${k} = 0; ${k} < ${ord}.length; ${k}++) {`);
      out.push(`S.races.iterate(${k});`, `${x} = ${ord}[${k}];`, 'S.steps++;');
      this.loops.push(s.var);
      this.stmt(s.body, true, out);
      this.loops.pop();
      out.push('S.steps++;', 'if (S.steps > S.max) H.budget();', '}', 'S.races.leave();', '}');
    } else {
      out.push(`for (let ${k} = 0; ${k} < ${ln}; ${k}++) {`, `${x} = H.iter(${mn}, ${k});`, 'S.steps++;');
      this.loops.push(s.var);
      this.stmt(s.body, par, out);
      this.loops.pop();
      out.push('S.steps++;', 'if (S.steps > S.max) H.budget();', '}');
    }
    out.push('S.steps++;');
  }
}

type RunFn = (S: Ctx, env: readonly Value[], H: typeof HELPERS, K: Value[], SITES: Site[], STMTS: Stmt[]) => void;

/**
 * Generated functions by source text. A program's constants, sites and statements reach its
 * function as arguments, so programs that differ only in those (β0's and β1's completions of one
 * schedule often do) share one function, and V8 parses and compiles it once. Bounded: a campaign
 * sees a stream of programs, and old ones rarely come back.
 */
const FUNCTIONS = new Map<string, RunFn>();
const MAX_FUNCTIONS = 512;

function functionFor(source: string): RunFn {
  let fn = FUNCTIONS.get(source);
  if (!fn) {
    if (FUNCTIONS.size >= MAX_FUNCTIONS) FUNCTIONS.delete(FUNCTIONS.keys().next().value!);
    fn = new Function('S', 'env', 'H', 'K', 'SITES', 'STMTS', source) as RunFn;
    FUNCTIONS.set(source, fn);
  }
  return fn;
}

export function compileTgt(p: TgtProgram, watched = false): CompiledTgt {
  checkTgt(p);
  const g = new Gen(watched);
  const names = [...p.params, ...p.window.flatMap((w) => [w.min, w.len])];
  const header = names.map((n, i) => `${g.v(n)} = env[${i}];`);
  const body: string[] = [];
  g.stmt(p.body, false, body);
  const outSlot = g.buf(p.output);
  const decl = g.vars.size > 0 ? `let ${[...g.vars.values()].join(', ')};` : '';
  const source = [decl, ...header, ...body].join('\n');
  const fn = functionFor(source);
  const nBufs = g.bufSlots.size;
  return {
    program: p,
    source,
    run(input: Input, opts: RunOptions = {}): Outcome {
      if ((opts.onStore || opts.onAlloc) && !watched) throw new Error('internal: a watcher needs the program compiled with `watched`');
      const bound = bindInput(p, input);
      const max = opts.maxSteps ?? EXEC_MAX_STEPS;
      const ctx: Ctx = {
        bufs: new Array<Buf | undefined>(nBufs).fill(undefined),
        steps: 1, // [TGT-REALIZE]
        max,
        rng: seededRng(opts.seed ?? 0),
        races: new RaceDetector(),
        ...(opts.onStore ? { onStore: opts.onStore } : {}),
        ...(opts.onAlloc ? { onAlloc: opts.onAlloc } : {}),
      };
      const budget: Outcome = { kind: 'stuck', stuck: { kind: 'budget-exceeded', steps: max }, steps: max };
      try {
        fn(ctx, names.map((n) => bound.get(n)!), HELPERS, g.consts, g.sites, g.stmts);
      } catch (e) {
        if (e === BUDGET) return budget;
        if (e instanceof StuckSignal) return e.steps > max ? budget : { kind: 'stuck', stuck: e.stuck, steps: e.steps };
        throw e;
      }
      if (ctx.steps > max) return budget;
      const out = ctx.bufs[outSlot];
      if (out === undefined) return { kind: 'stuck', stuck: { kind: 'unallocated', func: p.output, site: programSite(p) }, steps: ctx.steps };
      const steps = ctx.steps + 1; // [END]
      return steps > max ? budget : done(out.toBuffer(), steps, ctx.races);
    },
  };
}

export function execTgt(p: TgtProgram, input: Input | InputLike, opts?: RunOptions): Outcome {
  return compileTgt(p, opts?.onStore !== undefined || opts?.onAlloc !== undefined).run(inputOf(input), opts);
}
