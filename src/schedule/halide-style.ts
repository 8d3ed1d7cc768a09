// Halide-style schedules (spec/halide-schedules.md): the chains of calls read by
// halide-syntax.ts become a refsem schedule for a given program. Halide lets a user write the
// calls in any order and fills in what is left unsaid; refsem's schedules are explicit and in
// phase order. The translation makes the difference explicit: it sorts the calls into phases,
// places consumers before their producers, spells out Halide's defaults (inline what is not
// placed, store where computed), and names Halide's loops by refsem's. It applies each directive as
// it goes, so that names it invents are fresh and errors point at the Halide call that caused them.
import { type Loc, UserError, showLoc } from '../diag.js';
import { type Expr, cst, op, vr, walkExpr } from '../expr/ast.js';
import { normBig } from '../expr/value.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { loopVarName, stageLabel } from '../target-semantics/loop-name.js';
import { loopsOf, someStmt } from '../target-semantics/walk.js';
import { ownExprs } from '../target-semantics/holes.js';
import { applyCall } from './apply.js';
import { builtinRegistry } from './builtins.js';
import { type HalideArg, type HalideCall, type HalideChain, parseHalideSchedule } from './halide-syntax.js';
import { parseSchedule } from './parse.js';
import { computeSites, funcsOf, inventName, isPure, labelOf, nestedLoop, stageCount } from './loops.js';
import type { Args, DirectiveCall, DirectiveRegistry, Schedule } from './plugin.js';

const LOOP_CALLS = ['split', 'tile', 'fuse', 'reorder', 'parallel', 'serial', 'vectorize', 'unroll'];
const COMPUTE_CALLS = ['compute_root', 'compute_at', 'compute_inline'];
const STORE_CALLS = ['store_root', 'store_at'];
const BOUNDS_CALLS = ['bound', 'bound_extent', 'align_bounds'];
const SUPPORTED = [...LOOP_CALLS, ...COMPUTE_CALLS, ...STORE_CALLS, ...BOUNDS_CALLS, 'update'];

/** Halide calls with no refsem counterpart, and the nearest thing refsem offers. */
const NEAREST: Readonly<Record<string, string>> = {
  gpu_tile: 'tile(…) and parallel(…) state the same loop structure on the CPU',
  gpu_blocks: 'parallel(…)',
  gpu_threads: 'parallel(…) or vectorize(…)',
  gpu_single_thread: 'drop it: refsem runs on the CPU',
  compute_with: 'compute_at(…) of one func inside the other\'s loops; refsem does not fuse the loops of two funcs',
  rfactor: 'none: rfactor rewrites the algorithm; write the factored reduction in the .alg file',
  reorder_storage: 'none: refsem stores a func in its dimension order; drop it (values do not depend on it)',
  store_in: 'drop it: refsem has one kind of memory',
  memoize: 'compute_root() (refsem computes each func once there)',
  async: 'drop it: refsem runs producers and consumers in sequence',
  prefetch: 'drop it: it changes no value',
  fold_storage: 'store_at(…) at the loop that bounds the live part',
  align_storage: 'drop it: refsem has no storage alignment',
  specialize: 'a refsem .sched file with `specialize FUNC when COND`',
  set_estimate: 'bound(…), which fixes the bounds instead of estimating them',
  estimate: 'bound(…), which fixes the bounds instead of estimating them',
  trace_stores: 'refsem exec --trace',
  trace_loads: 'refsem exec --trace',
  trace_realizations: 'refsem exec --trace',
  atomic: 'none: refsem runs a reduction in parallel only where its iterations are disjoint',
  hexagon: 'drop it: refsem runs on the CPU',
};

const TAILS: Readonly<Record<string, 'guard' | 'shift' | 'round'>> = { GuardWithIf: 'guard', ShiftInwards: 'shift', RoundUp: 'round' };

/** Where a func is computed (or stored): Halide's LoopLevel. */
type Level =
  | { readonly k: 'root' }
  | { readonly k: 'inline' }
  | { readonly k: 'at'; readonly func: string; readonly v: string; readonly stage?: number }
  /** Halide's placement of an unscheduled func with update stages */
  | { readonly k: 'innermost' };

interface Placement {
  readonly level: Level;
  /** the call that chose it (absent for Halide's default) */
  readonly call?: HalideCall;
}

const near = (a: string, b: string): number => {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length]!;
};

/** A call refsem does not translate, named with the nearest supported form. */
function unsupported(c: HalideCall): never {
  // implements [HALIDE-STYLE-UNSUPPORTED]
  const closest = [...SUPPORTED].sort((a, b) => near(c.name, a) - near(c.name, b))[0]!;
  const hint = NEAREST[c.name] ?? (near(c.name, closest) <= 3 ? `did you mean ${closest}(…)?` : `the supported calls are ${SUPPORTED.join(', ')}`);
  throw new UserError(`${c.text}: [HALIDE-STYLE-UNSUPPORTED] refsem does not translate the Halide call '${c.name}'`, c.loc, `nearest supported form: ${hint}`);
}

class Translation {
  private t: TgtProgram;
  private readonly calls: DirectiveCall[] = [];
  /** Halide's name of a loop of a stage (`f.s0.x`) ↦ refsem's variable for it, where they differ. */
  private readonly renamed = new Map<string, string>();
  /** Per stage label, the first split whose tail Halide's Auto chose, with the choice (for hints). */
  readonly autoTail = new Map<string, { readonly call: HalideCall; readonly tail: string }>();
  /** The stage label the loops-phase call being translated belongs to. */
  stage: string | undefined;

  constructor(t0: TgtProgram, private readonly file: string, private readonly registry: DirectiveRegistry) {
    this.t = t0;
  }

  schedule(): Schedule {
    return { file: this.file, calls: [...this.calls], registry: this.registry };
  }

  /**
   * Applies one refsem directive made for Halide call `h`, or for one of Halide's defaults (`h` is
   * then what the default is, said in words); refsem's rejection is reported there.
   */
  emit(h: HalideCall | string, name: string, args: Args, at?: Loc): void {
    const loc = typeof h === 'string' ? at ?? { file: this.file, line: 1, col: 1 } : h.loc;
    const call: DirectiveCall = { directive: this.registry.get(name)!, args, loc };
    try {
      this.t = applyCall(this.t, call, this.registry, this.calls);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      // A split's tail, or a parallel loop over overlapping tails, may be Halide's Auto choice.
      const auto = (name === 'split' || name === 'traverse') && this.stage !== undefined ? this.autoTail.get(this.stage) : undefined;
      const note = auto ? `; Halide's TailStrategy::Auto made ${auto.call.text} (${showLoc(auto.call.loc)}) ${auto.tail}: give it TailStrategy.GuardWithIf to choose otherwise` : '';
      throw new UserError(`${typeof h === 'string' ? h : h.text} → ${e.message}`, loc, `${e.hint ?? 'see spec/schedule.md for the rule'}${note}`);
    }
    this.calls.push(call);
  }

  get program(): TgtProgram {
    return this.t;
  }

  /** refsem's full loop name for Halide's loop `v` of stage `stage` of `f`. */
  loop(f: string, stage: number, v: string): string {
    const key = loopVarName(f, stage, v);
    return loopVarName(f, stage, this.renamed.get(key) ?? v);
  }

  /**
   * A new loop Halide calls `v`: refsem's name is `v` unless that is taken (Halide lets a split
   * reuse the old name for the outer loop, `split(x, x, xi, 8)`), then a fresh one derived from it.
   */
  fresh(f: string, stage: number, v: string, taken: readonly string[] = []): string {
    const like = { func: f, stage, spec: 0, v };
    const mine = inventName(this.t, like, v, new Set(taken.map((x) => loopVarName(f, stage, x))));
    if (mine === v) this.renamed.delete(loopVarName(f, stage, v));
    else this.renamed.set(loopVarName(f, stage, v), mine);
    return mine;
  }
}

const argError = (c: HalideCall, a: HalideArg | undefined, what: string): never => {
  throw new UserError(`${c.text}: expected ${what}`, a?.loc ?? c.loc, `see spec/halide-schedules.md for the forms refsem reads`);
};

/** A plain name argument (a Var, an RVar or a func). */
function nameArg(c: HalideCall, a: HalideArg | undefined, what: string): string {
  if (a?.k === 'name' && a.parts.length === 1) return a.parts[0]!;
  if (a?.k === 'name') argError(c, a, `${what} as a plain name, not '${a.parts.join('.')}' (name a reduction variable as the algorithm does, e.g. r)`);
  return argError(c, a, what);
}

/** An integer expression argument: integers, parameters, + − ×. */
function exprArg(c: HalideCall, a: HalideArg | undefined, what: string): Expr {
  switch (a?.k) {
    case 'int':
      return cst(normBig(a.value));
    case 'name':
      return a.parts.length === 1 ? vr(a.parts[0]!) : argError(c, a, `${what}: an integer expression over parameters`);
    case 'op':
      return op(a.op, exprArg(c, a.args[0], what), exprArg(c, a.args[1], what));
    default:
      return argError(c, a, `${what}: an integer expression over parameters`);
  }
}

function tailArg(tr: Translation, c: HalideCall, a: HalideArg | undefined, isReduction: boolean): 'guard' | 'shift' | 'round' {
  if (a === undefined || (a.k === 'name' && a.parts[a.parts.length - 1] === 'Auto')) {
    // Halide 14's TailStrategy::Auto, checked on its lowered code: ShiftInwards in a pure
    // definition, RoundUp for a pure variable of an update, GuardWithIf for a reduction variable:
    // implements [HALIDE-STYLE-TAIL].
    const tail = c.stage === 0 ? 'shift' : isReduction ? 'guard' : 'round';
    if (tail !== 'guard' && !tr.autoTail.has(tr.stage!)) tr.autoTail.set(tr.stage!, { call: c, tail: tail === 'shift' ? 'ShiftInwards' : 'RoundUp' });
    return tail;
  }
  const last = a.k === 'name' ? a.parts[a.parts.length - 1]! : '';
  return TAILS[last] ?? argError(c, a, `a tail strategy: TailStrategy.${Object.keys(TAILS).join(', TailStrategy.')} or TailStrategy.Auto`);
}

const arity = (c: HalideCall, ...counts: number[]) => {
  if (!counts.includes(c.args.length)) argError(c, undefined, `${counts.join(' or ')} argument${counts.length === 1 && counts[0] === 1 ? '' : 's'}, not ${c.args.length}`);
};

/** The refsem directives of one loops-phase call. */
function loopCall(tr: Translation, f: string, c: HalideCall): void {
  // implements [HALIDE-STYLE-CALLS]
  const s = c.stage;
  tr.stage = stageLabel(f, s);
  const L = (v: string) => tr.loop(f, s, v);
  const name = (i: number, what: string) => nameArg(c, c.args[i], what);
  switch (c.name) {
    case 'split': {
      arity(c, 4, 5);
      const [x, xo, xi] = [name(0, 'the loop to split'), name(1, 'the outer loop\'s name'), name(2, 'the inner loop\'s name')];
      const loop = L(x);
      const tail = tailArg(tr, c, c.args[4], !isPure(tr.program, L(x)));
      const o = tr.fresh(f, s, xo);
      tr.emit(c, 'split', { loop, names: [o, tr.fresh(f, s, xi, [o])], factor: exprArg(c, c.args[3], 'the split factor'), tail });
      return;
    }
    case 'tile': {
      // tile(x, y, xo, yo, xi, yi, fx, fy[, tail]) or tile(x, y, xi, yi, fx, fy[, tail]) (outer loops keep x, y).
      arity(c, 6, 7, 8, 9);
      const long = c.args.length >= 8;
      const [x, y] = [name(0, 'the first loop'), name(1, 'the second loop')];
      const [xo, yo] = long ? [name(2, 'a loop name'), name(3, 'a loop name')] : [x, y];
      const [xi, yi] = long ? [name(4, 'a loop name'), name(5, 'a loop name')] : [name(2, 'a loop name'), name(3, 'a loop name')];
      const k = long ? 6 : 4;
      const tail = (v: string) => tailArg(tr, c, c.args[k + 2], !isPure(tr.program, L(v)));
      const [tx, ty] = [tail(x), tail(y)];
      const [lx, ly] = [L(x), L(y)];
      const ox = tr.fresh(f, s, xo);
      tr.emit(c, 'split', { loop: lx, names: [ox, tr.fresh(f, s, xi, [ox])], factor: exprArg(c, c.args[k], 'the first factor'), tail: tx });
      const oy = tr.fresh(f, s, yo);
      tr.emit(c, 'split', { loop: ly, names: [oy, tr.fresh(f, s, yi, [oy])], factor: exprArg(c, c.args[k + 1], 'the second factor'), tail: ty });
      // Halide's tile leaves xi, yi, xo, yo innermost first; refsem lists outermost first.
      tr.emit(c, 'reorder', { loops: [L(yo), L(xo), L(yi), L(xi)] });
      return;
    }
    case 'fuse': {
      arity(c, 3);
      const [inner, outer, fused] = [name(0, 'the inner loop'), name(1, 'the outer loop'), name(2, 'the fused loop\'s name')];
      // refsem's fuse names the outer loop and takes the loop immediately inside it.
      const o = loopsOf(tr.program).find((l) => l.stmt.var === L(outer));
      const nested = o && nestedLoop(o.stmt)?.inner.var;
      if (o && nested !== L(inner)) argError(c, c.args[0], `the loop immediately inside ${outer} (${nested ?? 'there is none'}) as the first argument`);
      tr.emit(c, 'fuse', { loop: L(outer), name: tr.fresh(f, s, fused) });
      return;
    }
    case 'reorder': {
      if (c.args.length < 2) argError(c, undefined, 'at least two loops, innermost first');
      // Halide lists innermost first, refsem outermost first.
      tr.emit(c, 'reorder', { loops: c.args.map((a) => L(nameArg(c, a, 'a loop'))).reverse() });
      return;
    }
    case 'parallel':
    case 'vectorize':
    case 'unroll': {
      arity(c, 1, 2, 3);
      const x = name(0, 'a loop');
      let loop = L(x);
      if (c.args.length >= 2) {
        // f.vectorize(x, 8) is split(x, x, x_i, 8) then vectorize(x_i); the outer loop keeps x
        // (parallel(x, n) parallelizes the outer loop instead).
        const tail = tailArg(tr, c, c.args[2], !isPure(tr.program, L(x)));
        const o = tr.fresh(f, s, x);
        const i = tr.fresh(f, s, `${x}_${c.name === 'parallel' ? 'p' : c.name === 'vectorize' ? 'v' : 'u'}`, [o]);
        tr.emit(c, 'split', { loop, names: [o, i], factor: exprArg(c, c.args[1], 'the factor'), tail });
        loop = loopVarName(f, s, c.name === 'parallel' ? o : i);
      }
      tr.emit(c, c.name === 'parallel' ? 'traverse' : c.name, c.name === 'parallel' ? { loop, order: 'parallel' } : { loop });
      return;
    }
    case 'serial':
      arity(c, 1);
      tr.emit(c, 'traverse', { loop: L(name(0, 'a loop')), order: 'serial' });
      return;
  }
}

/** The level a compute_at / store_at call names: `(g, v)` or `(LoopLevel(g, v[, stage]))`. */
function levelArg(c: HalideCall): Level {
  const a = c.args;
  if (a.length === 1 && a[0]!.k === 'call' && a[0]!.parts[a[0]!.parts.length - 1] === 'LoopLevel') {
    const inner = { ...c, args: a[0]!.args };
    arity(inner, 2, 3);
    const stage = inner.args[2];
    if (stage && stage.k !== 'int') argError(c, stage, 'a stage index, an integer');
    return { k: 'at', func: nameArg(c, inner.args[0], 'a func'), v: nameArg(c, inner.args[1], 'a loop'), ...(stage?.k === 'int' ? { stage: Number(stage.value) } : {}) };
  }
  arity(c, 2);
  return { k: 'at', func: nameArg(c, a[0], 'the consumer func'), v: nameArg(c, a[1], 'a loop of the consumer') };
}

/** Does stage i of g read f? (where Halide puts `compute_at(g, v)` when g has several stages) */
function stageReads(t: TgtProgram, g: string, i: number, f: string): boolean {
  const lab = labelOf(t, stageLabel(g, i))?.stmt;
  return lab !== undefined && someStmt(lab, (s) => ownExprs(s).some((e) => {
    let hit = false;
    walkExpr(e, (x) => void (x.k === 'access' && x.func === f && (hit = true)));
    return hit;
  }));
}

/**
 * refsem's loop for level (g, v): Halide's LoopLevel(g, v) without a stage is the loop v of the
 * stage of g that uses f (checked on Halide 14's loop nests), the final stage when none does.
 */
function levelLoop(tr: Translation, f: string, l: Extract<Level, { k: 'at' }>): string {
  // implements [HALIDE-STYLE-LEVEL]
  const t = tr.program;
  const n = stageCount(t, l.func);
  const stage = l.stage ?? Array.from({ length: n }, (_, i) => i).find((i) => stageReads(t, l.func, i, f)) ?? Math.max(0, n - 1);
  return tr.loop(l.func, stage, l.v);
}

/** The innermost loop around every read of f, where Halide computes an unscheduled func with updates. */
function innermostSite(t: TgtProgram, f: string): string | undefined {
  const depth = new Map(loopsOf(t).map((l) => [l.stmt.var, l.path.length]));
  const sites = computeSites(t).filter((s) => s.func === f).sort((a, b) => depth.get(b.loop)! - depth.get(a.loop)!);
  return sites[0]?.loop;
}

/** Translates the chains into a refsem schedule for program t0. */
export function translateHalideSchedule(chains: readonly HalideChain[], t0: TgtProgram, file: string, registry: DirectiveRegistry = builtinRegistry()): Schedule {
  // implements [HALIDE-STYLE-PHASES]
  const funcs = funcsOf(t0);
  const compute = new Map<string, Placement>();
  const store = new Map<string, Required<Placement>>();
  const loopCalls: { f: string; c: HalideCall }[] = [];
  const boundCalls: { f: string; c: HalideCall }[] = [];
  for (const ch of chains) {
    if (!funcs.includes(ch.func)) {
      throw new UserError(`there is no func '${ch.func}' in the program`, ch.loc, `the funcs are: ${funcs.join(', ')}`);
    }
    for (const c of ch.calls) {
      if (!SUPPORTED.includes(c.name)) unsupported(c);
      const updates = stageCount(t0, ch.func) - 1;
      if (c.stage > updates) {
        throw new UserError(`${c.text}: '${ch.func}' has no update ${c.stage - 1}; it has ${updates} update definition${updates === 1 ? '' : 's'}`, c.loc, updates > 0 ? `the updates are numbered 0 to ${updates - 1}` : `only ${ch.func}'s pure definition has loops`);
      }
      if (LOOP_CALLS.includes(c.name)) {
        loopCalls.push({ f: ch.func, c });
        continue;
      }
      if (c.stage > 0) {
        throw new UserError(`${c.text}: ${c.name} schedules the whole func, not an update stage`, c.loc, `call it on the func: ${ch.func}.${c.text}`);
      }
      // Halide keeps the last compute level and the last store level a func is given.
      if (c.name === 'compute_root') (arity(c, 0), compute.set(ch.func, { level: { k: 'root' }, call: c }));
      else if (c.name === 'compute_inline') (arity(c, 0), compute.set(ch.func, { level: { k: 'inline' }, call: c }));
      else if (c.name === 'compute_at') compute.set(ch.func, { level: levelArg(c), call: c });
      else if (c.name === 'store_root') (arity(c, 0), store.set(ch.func, { level: { k: 'root' }, call: c }));
      else if (c.name === 'store_at') store.set(ch.func, { level: levelArg(c), call: c });
      else boundCalls.push({ f: ch.func, c });
    }
  }
  const tr = new Translation(t0, file, registry);
  // Loops phase, in the order written: calls on one stage build on each other, and calls on
  // distinct stages touch distinct loops.
  for (const { f, c } of loopCalls) loopCall(tr, f, c);
  tr.stage = undefined;

  // Compute phase. Halide's defaults: the output at the root; a func with update stages inside
  // the innermost loop around its reads; any other func inlined: implements [HALIDE-STYLE-DEFAULT].
  const levelOf = (f: string): Placement => compute.get(f) ?? {
    level: f === t0.output ? { k: 'root' } : stageCount(t0, f) > 1 ? { k: 'innermost' } : { k: 'inline' },
  };
  const firstLoopCall = (f: string) => loopCalls.find((x) => x.f === f)?.c;
  const consumersFirst = [...funcs].reverse();
  for (const f of consumersFirst) {
    const p = levelOf(f);
    if (p.level.k !== 'inline') continue;
    if (!p.call && firstLoopCall(f)) {
      const c = firstLoopCall(f)!;
      throw new UserError(`${c.text}: [HALIDE-STYLE-DEFAULT] '${f}' has no compute_root() or compute_at(), so Halide inlines it, and an inlined func has no loops to schedule`, c.loc,
        `add ${f}.compute_root() or ${f}.compute_at(consumer, loop)`);
    }
    tr.emit(p.call ?? `Halide's default for '${f}', inline`, 'inline', { func: f }, chains.find((ch) => ch.func === f)?.loc);
  }
  const computedAt = new Map<string, string>();
  for (const f of consumersFirst) {
    const p = levelOf(f);
    if (p.level.k !== 'at' && p.level.k !== 'innermost') continue;
    const loop = p.level.k === 'at' ? levelLoop(tr, f, p.level) : innermostSite(tr.program, f);
    if (loop === undefined) continue;
    tr.emit(p.call ?? `Halide's default for '${f}', which has update stages, compute_at the innermost loop around its reads`, 'compute-at', { func: f, loop }, chains.find((ch) => ch.func === f)?.loc);
    computedAt.set(f, loop);
  }
  // Storage phase: Halide stores a func where it is computed unless told otherwise; refsem's
  // allocation stays at the top unless moved, which is store_root.
  for (const f of consumersFirst) {
    const s = store.get(f);
    if (s?.level.k === 'at') tr.emit(s.call, 'store-at', { func: f, loop: levelLoop(tr, f, s.level) });
    else if (!s && computedAt.has(f)) tr.emit(compute.get(f)?.call ?? `Halide's default for '${f}', stored where computed`, 'store-at', { func: f, loop: computedAt.get(f)! }, chains.find((ch) => ch.func === f)?.loc);
  }
  // Bounds phase, in the order written.
  for (const { f, c } of boundCalls) {
    const dim = `${f}.${nameArg(c, c.args[0], 'a dimension of the func')}`;
    if (c.name === 'bound') (arity(c, 3), tr.emit(c, 'bound', { dim, min: exprArg(c, c.args[1], 'the min'), len: exprArg(c, c.args[2], 'the extent') }));
    else if (c.name === 'bound_extent') (arity(c, 2), tr.emit(c, 'bound-extent', { dim, len: exprArg(c, c.args[1], 'the extent') }));
    else {
      arity(c, 2, 3);
      tr.emit(c, 'align-bounds', { dim, modulus: exprArg(c, c.args[1], 'the modulus'), ...(c.args[2] ? { remainder: exprArg(c, c.args[2], 'the remainder') } : {}) });
    }
  }
  return tr.schedule();
}

/** A `.halide` file's text as a refsem schedule for program t0. */
export function halideSchedule(text: string, file: string, t0: TgtProgram, registry: DirectiveRegistry = builtinRegistry()): Schedule {
  return translateHalideSchedule(parseHalideSchedule(text, file), t0, file, registry);
}

/**
 * A schedule file's text, by its extension: a Halide-style `.halide` file translated for the
 * program T0 that `program` gives (only then is it computed), anything else in refsem's syntax.
 */
export function readSchedule(text: string, file: string, program: (() => TgtProgram) | undefined, registry: DirectiveRegistry = builtinRegistry()): Schedule {
  if (!file.endsWith('.halide')) return parseSchedule(text, file, registry);
  if (!program) throw new UserError('a Halide-style schedule is translated for a program, and there is none here', { file, line: 1, col: 1 }, 'write the schedule as a refsem .sched file');
  return halideSchedule(text, file, program(), registry);
}
