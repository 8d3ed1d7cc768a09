// The bridge to Halide (spec/halide.md): an algorithm, its schedule and an input as a Python program
// for Halide 14's bindings, which realizes the output over the input's window and prints its values
// in refsem's point order. Arithmetic is Int(64) and indices Int(32); operators keep refsem's
// meaning; every func is computed at the root unless the schedule places it, as refsem
// materializes every func; directives map one by one.
// What has no Halide counterpart is refused with its reason, never translated approximately.
import type { Expr } from '../expr/ast.js';
import type { Interval } from '../expr/interval.js';
import { constOf } from '../expr/symbolic.js';
import { isError, toBig } from '../expr/value.js';
import type { Func, Input, Pipeline, Stage } from '../alg-semantics/ast.js';
import type { DirectiveCall } from '../schedule/plugin.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { parseLoopName } from '../target-semantics/loop-name.js';
import { type LoopInfo, isInside, loopsOf } from '../target-semantics/walk.js';
import { resolveLoop } from '../schedule/loops.js';
import { JIT_TARGET_PY } from './jit-target.js';

/**
 * A reason the bridge cannot state a case in Halide: counted as `rejected_by_refsem`. Its message
 * starts with the rule of spec/halide.md that documents the hazard, in brackets.
 */
export class BridgeRefusal extends Error {}

/** One applied directive with the programs before and after it (the bridge reads new loop names off them). */
export interface ScheduleStep {
  readonly call: DirectiveCall;
  readonly before: TgtProgram;
  readonly after: TgtProgram;
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

const pyFunc = (f: string) => `F_${f}`;
const pyVar = (v: string) => `V_${v.replace(/[^A-Za-z0-9_]/g, '_')}`;
const pyParam = (p: string) => `P_${p}`;
const pyRdom = (f: string, stage: number) => `R_${f}_${stage}`;

interface Scope {
  readonly vars: ReadonlySet<string>;
  /** rdom variable → its RVar in Python */
  readonly rvars: ReadonlyMap<string, string>;
  readonly params: ReadonlySet<string>;
  /** the window parameters (x.min, x.len) a schedule's expressions may name: the input's values */
  readonly window?: ReadonlyMap<string, bigint>;
  /** narrow types ([HALIDE-NARROW]): each func's Halide type, arithmetic in Int(32) */
  readonly types?: ReadonlyMap<string, string>;
}

/** The Halide constructor of the arithmetic's type: Int(64), or Int(32) under narrow types. */
const arith = (s: Scope): string => (s.types === undefined ? 'hl.i64' : 'hl.i32');

/** An Int(64) Python expression for e: implements [HALIDE-OPS]. */
function value(e: Expr, s: Scope): string {
  switch (e.k) {
    case 'const': {
      if (isError(e.value)) throw new BridgeRefusal('[HALIDE-OPS] the algorithm writes an error constant, which Halide has no value for');
      const b = toBig(e.value);
      if (b > INT64_MAX || b < INT64_MIN) throw new BridgeRefusal(`[HALIDE-TYPES] the constant ${b} does not fit Halide's Int(64)`);
      return b > 2n ** 31n - 1n || b < -(2n ** 31n) ? `hl.i64(${b})` : `${arith(s)}(${b})`;
    }
    case 'var':
      if (s.vars.has(e.name)) return `${arith(s)}(${pyVar(e.name)})`;
      if (s.rvars.has(e.name)) return `${arith(s)}(${s.rvars.get(e.name)!})`;
      if (s.params.has(e.name)) return s.types === undefined ? pyParam(e.name) : `hl.i32(${pyParam(e.name)})`;
      if (s.window?.has(e.name)) return `${arith(s)}(${s.window.get(e.name)!})`;
      throw new BridgeRefusal(`[HALIDE-OPS] unbound variable '${e.name}'`);
    case 'access': {
      const read = `${pyFunc(e.func)}[${e.args.map((a) => index(a, s)).join(', ')}]`;
      // under narrow types a func narrower than the arithmetic is widened where it is read
      const t = s.types?.get(e.func);
      return t === undefined || t === 'Int(64)' ? read : `hl.i32(${read})`;
    }
    case 'hole':
      throw new BridgeRefusal('[HALIDE-OPS] a bounds hole is not part of an algorithm');
    case 'op': {
      const [a, b, c] = e.args.map((x) => value(x, s));
      const truth = (x: string) => `(${x} != 0)`;
      const bool = (cond: string) => `hl.select(${cond}, ${arith(s)}(1), ${arith(s)}(0))`;
      switch (e.op) {
        case '+': return `(${a} + ${b})`;
        case '-': return `(${a} - ${b})`;
        case '*': return `(${a} * ${b})`;
        // Halide's integer division and modulo are Euclidean with x / 0 = x % 0 = 0, as in §2.9.
        case 'div': return `(${a} / ${b})`;
        case 'mod': return `(${a} % ${b})`;
        case '<': return bool(`${a} < ${b}`);
        case '>': return bool(`${a} > ${b}`);
        case '=': return bool(`${a} == ${b}`);
        case 'and': return bool(`${truth(a!)} & ${truth(b!)}`);
        case 'or': return bool(`${truth(a!)} | ${truth(b!)}`);
        case 'not': return bool(`${a} == 0`);
        case 'select': return `hl.select(${truth(a!)}, ${b}, ${c})`;
        case 'min': return `hl.min(${a}, ${b})`;
        case 'max': return `hl.max(${a}, ${b})`;
      }
    }
  }
}

/** An index, a pure variable as it is and anything else cast to Int(32): implements [HALIDE-TYPES]. */
function index(e: Expr, s: Scope): string {
  if (e.k === 'var' && s.vars.has(e.name)) return pyVar(e.name);
  return `hl.i32(${value(e, s)})`;
}

function mentions(e: Expr, names: ReadonlySet<string>): boolean {
  switch (e.k) {
    case 'var': return names.has(e.name);
    case 'op':
    case 'access': return e.args.some((a) => mentions(a, names));
    default: return false;
  }
}

/** The definitions of one func, its pure stage and each update with its RDom and predicate: implements [HALIDE-RDOM]. */
function defineFunc(f: Func, params: ReadonlySet<string>, out: string[], types?: ReadonlyMap<string, string>): void {
  f.stages.forEach((st: Stage, i) => {
    const rvars = new Map(st.rdom.map((r, k) => [r.name, `${pyRdom(f.name, i)}[${k}]`]));
    const s: Scope = { vars: new Set(f.vars.filter((v, d) => st.pure || (st.lhs[d]!.k === 'var' && (st.lhs[d] as { name: string }).name === v))), rvars, params, ...(types ? { types } : {}) };
    if (st.rdom.length > 0) {
      const outer: Scope = { vars: new Set(), rvars: new Map(), params };
      out.push(`${pyRdom(f.name, i)} = hl.RDom([${st.rdom.map((r) => `hl.Range(hl.i32(${value(r.min, outer)}), hl.i32(${value(r.len, outer)}))`).join(', ')}])`);
      if (!(st.pred.k === 'const' && st.pred.value === 1)) out.push(`${pyRdom(f.name, i)}.where(${value(st.pred, s)} != 0)`);
    }
    const lhs = st.pure ? f.vars.map(pyVar) : st.lhs.map((e) => index(e, s));
    // A predicate without an rdom has no RDom to hang `where` on: the point keeps its value when it is false.
    const guarded = st.rdom.length === 0 && !(st.pred.k === 'const' && st.pred.value === 1);
    // Halide keeps an RDom only if the update's coordinates or value mention it; one its predicate
    // alone mentions, or nothing, would be dropped, making the update a plain redefinition run once
    // over every point. A term 0 · (r₁ + …) mentions it without changing a value ([HALIDE-RDOM]),
    // so Halide runs the update once per point of the rdom, as the semantics does.
    // implements [HALIDE-RDOM-UNUSED]
    const anchored = st.rdom.length > 0 && ![...st.lhs, st.rhs].some((e) => mentions(e, new Set(rvars.keys())));
    const anchor = anchored ? ` + ${arith(s)}(0) * (${[...rvars.values()].map((r) => `${arith(s)}(${r})`).join(' + ')})` : '';
    // [HALIDE-NARROW]: the value computed in Int(32), stored in the func's type
    const typed = (v: string) => (types === undefined ? v : `hl.cast(hl.${types.get(f.name) ?? 'Int(64)'}, ${v})`);
    const rhs = guarded ? `hl.select(${value(st.pred, s)} != 0, ${typed(value(st.rhs, s))}, ${pyFunc(f.name)}[${lhs.join(', ')}])` : typed(`${value(st.rhs, s)}${anchor}`);
    out.push(`${pyFunc(f.name)}[${lhs.join(', ')}] = ${rhs}`);
  });
}

/**
 * The Halide stage object of a loop of refsem: `f.s<i>.v` is stage i of f, `f.s<i>.k<j>.v` the
 * j-th specialization of that stage (made by [HALIDE-SPECIALIZE]).
 */
function stageOf(func: string, stage: number, spec = 0): string {
  if (spec > 0) return pySpecialization(func, stage, spec);
  return stage === 0 ? pyFunc(func) : `${pyFunc(func)}.update(${stage - 1})`;
}

const pySpecialization = (f: string, stage: number, spec: number) => `S_${f}_${stage}_${spec}`;

/** What the bridge knows about every loop variable: its Python object (a Var or an RVar). */
class LoopVars {
  private readonly known = new Map<string, string>();

  constructor(p: Pipeline, readonly decl: string[]) {
    for (const f of p.funcs) {
      f.stages.forEach((st, i) => {
        for (const v of f.vars) this.known.set(`${f.name}.s${i}.${v}`, pyVar(v));
        st.rdom.forEach((r, k) => this.known.set(`${f.name}.s${i}.${r.name}`, `${pyRdom(f.name, i)}[${k}]`));
      });
    }
  }

  of(loop: string): string {
    // A loop copied into a specialization before any directive renamed it there is the same
    // Halide variable as the loop it was copied from (Halide's specializations share the Vars).
    const v = this.known.get(loop) ?? this.known.get(loop.replace(/\.k\d+\./, '.'));
    if (!v) throw new BridgeRefusal(`[HALIDE-SCHEDULE] the bridge does not know loop ${loop}`);
    return v;
  }

  /** A loop made by a directive: a Var when made from pure loops, an RVar from reduction loops. */
  fresh(loop: string, from: readonly string[]): string {
    const reduction = from.some((l) => this.of(l).startsWith('R_') || this.of(l).startsWith('RV_'));
    const name = loop.slice(loop.lastIndexOf('.') + 1);
    const py = `${reduction ? 'RV' : 'V'}_${loop.replace(/[^A-Za-z0-9]/g, '_')}`;
    this.decl.push(`${py} = hl.${reduction ? 'RVar' : 'Var'}('${name}')`);
    this.known.set(loop, py);
    return py;
  }
}

/** The loop of the same stage immediately inside `outer` (what swap and fuse pair it with). */
function innerOf(t: TgtProgram, outer: LoopInfo): LoopInfo {
  return loopsOf(t).find((l) => l !== outer && isInside(l.path, outer.path) && l.name?.func === outer.name?.func && l.name?.stage === outer.name?.stage && l.name?.spec === outer.name?.spec)!;
}

/** Halide 14 keeps a vector's lane count in 16 bits. */
const MAX_LANES = 65535n;

// implements [HALIDE-LANES]: Halide 14 wraps a lane count of 65536 or more to a smaller one (to 0
// at 65536, and its compiler then divides by it: SIGFPE); later versions refuse it. Such a vector
// has no faithful Halide 14 statement.
function refuseWideVector(len: Expr): void {
  if (len.k === 'const' && !isError(len.value) && toBig(len.value) > MAX_LANES) {
    throw new BridgeRefusal(`[HALIDE-LANES] a vector of ${toBig(len.value)} lanes: Halide 14 holds at most ${MAX_LANES} (it wraps the count and its compiler fails); vectorize a split of at most ${MAX_LANES}`);
  }
}

/** The placement of an inlined func: it has no loop level and no storage of its own. */
const INLINED = 'inlined';

const TAILS: Readonly<Record<string, string>> = { guard: 'GuardWithIf', shift: 'ShiftInwards', round: 'RoundUp' };

/** The Python calls of one directive: implements [HALIDE-SCHEDULE]. */
function scheduleCall(p: Pipeline, step: ScheduleStep, loops: LoopVars, outer: Scope, placed: Map<string, string>, stored: Set<string>): string[] {
  const a = step.call.args as Record<string, unknown>;
  const name = step.call.directive.name;
  const at = (loop: string) => {
    const n = parseLoopName(loop);
    if (!n) throw new BridgeRefusal(`[HALIDE-SCHEDULE] loop ${loop} is not named ⟨func, stage, variable⟩`);
    return n;
  };
  const stage = (loop: string) => {
    const n = at(loop);
    return stageOf(n.func, n.stage, n.spec);
  };
  // Loops as the schedule writes them (`f.x` is short for the final stage's loop), resolved on the
  // program the directive applied to.
  const resolve = (text: string) => resolveLoop(step.before, text).stmt.var;
  const newLoops = () => {
    const before = new Set(loopsOf(step.before).map((l) => l.stmt.var));
    return loopsOf(step.after).filter((l) => !before.has(l.stmt.var));
  };
  switch (name) {
    case 'split': {
      const loop = resolve(a.loop as string);
      const made = newLoops();
      const outerLoop = made.find((l) => made.some((m) => m !== l && isInside(m.path, l.path)))!;
      const innerLoop = made.find((l) => l !== outerLoop)!;
      const xo = loops.fresh(outerLoop.stmt.var, [loop]);
      const xi = loops.fresh(innerLoop.stmt.var, [loop]);
      const f = value(a.factor as Expr, outer);
      return [`${stage(loop)}.split(${loops.of(loop)}, ${xo}, ${xi}, hl.i32(${f}), hl.TailStrategy.${TAILS[(a.tail as string | undefined) ?? 'guard']})`];
    }
    case 'reorder': {
      const ls = (a.loops as string[]).map(resolve);
      // refsem lists loops outermost first, Halide innermost first.
      return [`${stage(ls[0]!)}.reorder(${[...ls].reverse().map((l) => loops.of(l)).join(', ')})`];
    }
    case 'swap': {
      const outer = loopsOf(step.before).find((l) => l.stmt.var === resolve(a.loop as string))!;
      const inner = innerOf(step.before, outer);
      return [`${stage(outer.stmt.var)}.reorder(${loops.of(outer.stmt.var)}, ${loops.of(inner.stmt.var)})`];
    }
    case 'fuse': {
      // Halide's fused variable runs over the product with the inner variable varying fastest,
      // as [FUSE]'s x div lb / x mod lb do.
      const outerLoop = loopsOf(step.before).find((l) => l.stmt.var === resolve(a.loop as string))!;
      const inner = innerOf(step.before, outerLoop);
      const fused = newLoops()[0]!;
      const py = loops.fresh(fused.stmt.var, [outerLoop.stmt.var, inner.stmt.var]);
      return [`${stage(outerLoop.stmt.var)}.fuse(${loops.of(inner.stmt.var)}, ${loops.of(outerLoop.stmt.var)}, ${py})`];
    }
    case 'specialize': {
      // implements [HALIDE-SPECIALIZE]: each stage of the func gets the conditions in order, as
      // refsem's chain of ifs tests them; directives on a copy's loops schedule that specialization.
      const f = p.funcs.find((g) => g.name === a.func)!;
      const conds = a.conds as Expr[];
      return f.stages.flatMap((_, i) => conds.map((c, j) => `${pySpecialization(f.name, i, j + 1)} = ${stageOf(f.name, i)}.specialize(${value(c, outer)} != 0)`));
    }
    case 'traverse':
    case 'vectorize':
    case 'unroll': {
      const loop = resolve(a.loop as string);
      if (name === 'traverse' && a.order !== 'parallel') return [];
      if (name === 'vectorize') refuseWideVector(loopsOf(step.before).find((l) => l.stmt.var === loop)!.stmt.len);
      return [`${stage(loop)}.${name === 'traverse' ? 'parallel' : name}(${loops.of(loop)})`];
    }
    case 'compute-at':
    case 'store-at': {
      const loop = resolve(a.loop as string);
      const n = at(loop);
      if (n.spec > 0) throw new BridgeRefusal(`[HALIDE-SPECIALIZE] ${name} at ${loop}, a loop of a specialization: Halide's LoopLevel cannot name one`);
      const level = n.stage === 0 ? `${pyFunc(n.func)}, ${loops.of(loop)}` : `hl.LoopLevel(${pyFunc(n.func)}, ${loops.of(loop)}, ${n.stage})`;
      if (name === 'compute-at') placed.set(a.func as string, level);
      else stored.add(a.func as string);
      return [`${pyFunc(a.func as string)}.${name === 'compute-at' ? 'compute_at' : 'store_at'}(${level})`];
    }
    case 'inline':
      // Halide inlines a func by default; the call says so where the schedule does.
      placed.set(a.func as string, INLINED);
      return [`${pyFunc(a.func as string)}.compute_inline()`];
    case 'bound':
    case 'bound-extent':
    case 'align-bounds': {
      const [f, d] = (a.dim as string).split('.');
      const i32 = (e: unknown) => `hl.i32(${value(e as Expr, outer)})`;
      if (name === 'bound') return [`${pyFunc(f!)}.bound(${pyVar(d!)}, ${i32(a.min)}, ${i32(a.len)})`];
      if (name === 'bound-extent') return [`${pyFunc(f!)}.bound_extent(${pyVar(d!)}, ${i32(a.len)})`];
      // The remainder is optional in refsem and in Halide (0 in both).
      return [`${pyFunc(f!)}.align_bounds(${pyVar(d!)}, ${i32(a.modulus)}${a.remainder === undefined ? '' : `, ${i32(a.remainder)}`})`];
    }
    default:
      throw new BridgeRefusal(`[HALIDE-SCHEDULE] the bridge does not map directive '${name}' to Halide yet (it maps split, reorder, swap, fuse, traverse, vectorize, unroll, inline, compute-at, store-at, specialize, bound, bound-extent and align-bounds)`);
  }
}

/** What the program prints besides Halide's values. */
export interface ProgramOptions {
  /** the algorithm's values, as text: printed beside Halide's, so that a reproducer runs alone and shows both */
  readonly expected?: readonly string[];
  /** realize this many more times after a first realization and print the fastest, in ms (`ms`) */
  readonly timedRuns?: number;
  /**
   * [HALIDE-NARROW]: each func's Halide type (`UInt(8)`, `Int(16)`, …; Int(64) when absent),
   * the arithmetic in Int(32): what a Halide user writes for values known to be small. Only for
   * timing: Int(32) arithmetic may wrap where refsem's does not, so its values must be compared.
   */
  readonly types?: ReadonlyMap<string, string>;
  /**
   * Leave every func's storage where Halide puts it by default, at its compute level: the
   * schedule's `store-at` calls and [HALIDE-ROOT]'s `store_root` are left out. Storage placement
   * never changes values, so a run that differs only with it is finding 1 ([HALIDE-KNOWN-BUG]).
   */
  readonly storageAtCompute?: boolean;
}

/** The Python program; throws BridgeRefusal when the case has no faithful Halide statement. */
export function halideProgram(p: Pipeline, steps: readonly ScheduleStep[], input: Input, opts: ProgramOptions = {}): string {
  const params = new Set(p.params);
  const out: string[] = [
    '# Generated by refsem (spec/halide.md): the algorithm and schedule in Halide 14, realized over the',
    '# window; prints {"values": [...]} in refsem\'s point order (dimension 0 fastest).',
    'import json, halide as hl',
    JIT_TARGET_PY,
  ];
  const vars = new Set(p.funcs.flatMap((f) => f.vars));
  for (const v of vars) out.push(`${pyVar(v)} = hl.Var('${v}')`);
  for (const q of p.params) out.push(`${pyParam(q)} = hl.Param(hl.Int(64), '${q}', ${toBig(input.params.get(q) ?? 0)})`);
  for (const f of p.funcs) out.push(`${pyFunc(f.name)} = hl.Func('${f.name}')`);
  for (const f of p.funcs) defineFunc(f, params, out, opts.types);
  // An identity func is realized, so the output's own updates may write outside the window: implements [HALIDE-OUTPUT].
  const outF = p.funcs.find((f) => f.name === p.output)!;
  const outRead = `${pyFunc(outF.name)}[${outF.vars.map(pyVar).join(', ')}]`;
  out.push(`OUT = hl.Func('refsem_out')`, `OUT[${outF.vars.map(pyVar).join(', ')}] = ${opts.types === undefined ? outRead : `hl.i64(${outRead})`}`);
  const decl: string[] = [];
  const loops = new LoopVars(p, decl);
  const placed = new Map<string, string>();
  const stored = new Set<string>();
  const sched: string[] = [];
  const outer: Scope = { vars: new Set(), rvars: new Map(), params, window: new Map(steps[0]?.before.window.flatMap((w, i) => [[w.min, toBig(input.window[i]![0])], [w.len, toBig(input.window[i]![1])]]) ?? []) };
  for (const st of steps) {
    const lines = scheduleCall(p, st, loops, outer, placed, stored);
    sched.push(...(opts.storageAtCompute && st.call.directive.name === 'store-at' ? [] : lines));
  }
  out.push(...decl, ...sched);
  // Every func not placed is computed at the root, a placed one without store-at stored at the root: implements [HALIDE-ROOT].
  for (const f of p.funcs) {
    if (!placed.has(f.name)) out.push(`${pyFunc(f.name)}.compute_root()`);
    else if (!stored.has(f.name) && placed.get(f.name) !== INLINED && !opts.storageAtCompute) out.push(`${pyFunc(f.name)}.store_root()`);
  }
  const mins = input.window.map(([m]) => toBig(m));
  const lens = input.window.map(([, l]) => toBig(l));
  for (const x of [...mins, ...lens, ...mins.map((m, i) => m + lens[i]!)]) {
    if (x > 2n ** 31n - 1n || x < -(2n ** 31n)) throw new BridgeRefusal(`[HALIDE-TYPES] the window reaches ${x}, outside Halide's index range (Int(32))`);
  }
  if (lens.some((l) => l <= 0n)) {
    out.push('print(json.dumps({"values": []}))');
    return `${out.join('\n')}\n`;
  }
  out.push(
    `buf = hl.Buffer(hl.Int(64), [${lens.join(', ')}])`,
    `buf.set_min([${mins.join(', ')}])`,
    'OUT.realize(buf)',
  );
  // The first realization compiled the pipeline: the timed ones measure its code alone.
  if (opts.timedRuns !== undefined) {
    out.push('import time', 'best = None', `for _ in range(${opts.timedRuns}):`, '    t0 = time.perf_counter()', '    OUT.realize(buf)', '    t = (time.perf_counter() - t0) * 1000', '    best = t if best is None else min(best, t)');
  }
  const extra = [
    ...(opts.expected === undefined ? [] : [`"expected": ${JSON.stringify(opts.expected)}, "equal": values == ${JSON.stringify(opts.expected)}`]),
    ...(opts.timedRuns === undefined ? [] : ['"ms": best']),
  ];
  out.push(`values = [${pointList(mins, lens)}]`, `print(json.dumps({"values": values${extra.map((e) => `, ${e}`).join('')}}))`);
  return `${out.join('\n')}\n`;
}

/** A Python list comprehension over the window, dimension 0 fastest. */
function pointList(mins: readonly bigint[], lens: readonly bigint[]): string {
  const names = mins.map((_, i) => `c${i}`);
  const loopsText = [...names].reverse().map((n, j) => {
    const i = names.length - 1 - j;
    return `for ${n} in range(${mins[i]}, ${mins[i]! + lens[i]!})`;
  });
  return `str(buf[${names.join(', ')}]) ${loopsText.join(' ')}`;
}

// implements [HALIDE-NARROW]
/**
 * The narrowest Halide type holding a func's value range (refsem's [C-NARROW] ranges): unsigned
 * or signed 8, 16 or 32 bits; Int(64) when the range is unbounded or wider; Int(32), the narrow
 * arithmetic's own type, for a func no statement stores (Halide inlines it).
 */
export function narrowType(range: Interval | undefined): string {
  if (range === undefined) return 'Int(32)';
  const lo = range.lo === null ? undefined : constOf(range.lo);
  const hi = range.hi === null ? undefined : constOf(range.hi);
  if (lo === undefined || hi === undefined) return 'Int(64)';
  const fits = (a: bigint, b: bigint) => BigInt(lo) >= a && BigInt(hi) <= b;
  if (fits(0n, 255n)) return 'UInt(8)';
  if (fits(-128n, 127n)) return 'Int(8)';
  if (fits(0n, 65535n)) return 'UInt(16)';
  if (fits(-32768n, 32767n)) return 'Int(16)';
  return fits(-(2n ** 31n), 2n ** 31n - 1n) ? 'Int(32)' : 'Int(64)';
}
