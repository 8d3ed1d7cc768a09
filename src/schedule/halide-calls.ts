// The loops-phase calls of Halide-style schedules (spec/halide-schedules.md) as refsem directives,
// and the translation state they share with halide-style.ts: the program so far, Halide's loop
// names mapped to refsem's, and the choices Halide's automatic tail strategy made. Each directive
// is applied as it is made, so that invented names are fresh and a refusal points at the Halide
// call that caused it.
import { type Loc, UserError, showLoc } from '../diag.js';
import { type Expr, cst, op, vr } from '../expr/ast.js';
import { normBig } from '../expr/value.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { loopVarName, stageLabel } from '../target-semantics/loop-name.js';
import { loopsOf } from '../target-semantics/walk.js';
import { applyCall } from './apply.js';
import type { HalideArg, HalideCall } from './halide-syntax.js';
import { inventName, isPure, nestedLoop } from './loops.js';
import type { Args, DirectiveCall, DirectiveRegistry, Schedule } from './plugin.js';

export const LOOP_CALLS = ['split', 'tile', 'fuse', 'reorder', 'parallel', 'serial', 'vectorize', 'unroll'];
const COMPUTE_CALLS = ['compute_root', 'compute_at', 'compute_inline'];
const STORE_CALLS = ['store_root', 'store_at'];
const BOUNDS_CALLS = ['bound', 'bound_extent', 'align_bounds'];
export const SUPPORTED = [...LOOP_CALLS, ...COMPUTE_CALLS, ...STORE_CALLS, ...BOUNDS_CALLS, 'update', 'rfactor'];

/**
 * Halide calls that change no value, with the reason (spec/halide.md, "Halide 14's scheduling
 * API"): the translation skips them and says so in a note, never silently.
 */
const DEVICE = 'it chooses a device; refsem runs every loop on one CPU with one memory, and the values are the same';
const GPU_LOOPS = 'it maps loops to GPU blocks or threads, which run their iterations as a parallel loop does; refsem checks the loop nest without it (state the CPU form with tile(…) / parallel(…) to have it checked)';
const TRACE = 'tracing reports what Halide computes and changes none of it; refsem step shows refsem\'s own trace';
export const IGNORED: Readonly<Record<string, string>> = {
  reorder_storage: 'it changes the order of a buffer\'s dimensions in memory; values do not depend on the layout',
  align_storage: 'it pads a buffer\'s rows in memory; values do not depend on the layout',
  store_in: 'it chooses a kind of memory; refsem has one',
  hoist_storage: 'it moves an allocation outwards; refsem allocates the whole region, and what is stored and read is the same',
  memoize: 'it caches a func across realizations of the pipeline; refsem realizes once, and a cached value is the value computed',
  async: 'it runs a producer concurrently with its consumers, synchronized so that each read waits for its value; refsem runs them in sequence, with the same values',
  async_: 'it runs a producer concurrently with its consumers, synchronized so that each read waits for its value; refsem runs them in sequence, with the same values',
  fold_storage: 'it keeps only a window of a dimension in memory, and Halide checks, when it compiles or runs the pipeline, that every value read is still in the window (halide_error_fold_factor_too_small otherwise); a run that completes reads the values refsem stores in the whole region',
  prefetch: 'it is a hint to the memory system and computes nothing',
  set_estimate: 'estimates guide the autoscheduler and constrain nothing (bound(…) fixes a region and is checked)',
  set_estimates: 'estimates guide the autoscheduler and constrain nothing (bound(…) fixes a region and is checked)',
  estimate: 'estimates guide the autoscheduler and constrain nothing (bound(…) fixes a region and is checked)',
  trace_loads: TRACE,
  trace_stores: TRACE,
  trace_realizations: TRACE,
  add_trace_tag: TRACE,
  gpu: GPU_LOOPS,
  gpu_tile: GPU_LOOPS,
  gpu_blocks: GPU_LOOPS,
  gpu_threads: GPU_LOOPS,
  gpu_lanes: GPU_LOOPS,
  gpu_single_thread: DEVICE,
  hexagon: DEVICE,
};

/** A call that changes no value, as the note that says it is ignored and why. */
export function ignoredNote(c: HalideCall): string | undefined {
  // implements [HALIDE-STYLE-IGNORED]
  const why = IGNORED[c.name];
  return why === undefined ? undefined : `${showLoc(c.loc)}: note: ${c.text}: [HALIDE-STYLE-IGNORED] ignored, it changes no value: ${why}\n`;
}

/** Halide calls with no refsem counterpart, and the nearest thing refsem offers. */
const NEAREST: Readonly<Record<string, string>> = {
  specialize: 'a refsem .sched file with `specialize FUNC when COND`',
  atomic: 'none: refsem runs a reduction in parallel only where its iterations are disjoint',
};

const TAILS: Readonly<Record<string, 'guard' | 'shift' | 'round'>> = { GuardWithIf: 'guard', ShiftInwards: 'shift', RoundUp: 'round' };

/** The edit distance of two names (for suggesting the closest supported call). */
const editDistance = (a: string, b: string): number => {
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
export function unsupported(c: HalideCall): never {
  // implements [HALIDE-STYLE-UNSUPPORTED]
  const closest = [...SUPPORTED].sort((a, b) => editDistance(c.name, a) - editDistance(c.name, b))[0]!;
  const hint = NEAREST[c.name] ?? (editDistance(c.name, closest) <= 3 ? `did you mean ${closest}(…)?` : `the supported calls are ${SUPPORTED.join(', ')}`);
  throw new UserError(`${c.text}: [HALIDE-STYLE-UNSUPPORTED] refsem does not translate the Halide call '${c.name}'`, c.loc, `nearest supported form: ${hint}`);
}

export class Translation {
  private t: TgtProgram;
  private readonly calls: DirectiveCall[] = [];
  /** Halide's name of a loop of a stage (`f.s0.x`) ↦ refsem's variable for it, where they differ. */
  private readonly renamed = new Map<string, string>();
  /** Per stage label, the first split whose tail Halide's Auto chose, with the choice (for hints). */
  readonly autoTail = new Map<string, { readonly call: HalideCall; readonly tail: string }>();
  /** The stage label the loops-phase call being translated belongs to. */
  stage: string | undefined;
  /** The funcs the translation has inlined. */
  readonly inlined = new Set<string>();
  /** Per stage label factored by rfactor, the call and the reduction loops it moved into Halide's intermediate func. */
  private readonly factored = new Map<string, { readonly call: HalideCall; readonly moved: ReadonlySet<string> }>();

  constructor(t0: TgtProgram, private readonly file: string, private readonly registry: DirectiveRegistry) {
    this.t = t0;
  }

  /** The notes of calls skipped because they change no value ([HALIDE-STYLE-IGNORED]). */
  readonly notes: string[] = [];

  schedule(): Schedule {
    return { file: this.file, calls: [...this.calls], registry: this.registry, ...(this.notes.length > 0 ? { notes: [...this.notes] } : {}) };
  }

  /**
   * Applies one refsem directive made for Halide call `h`, or for one of Halide's defaults (`h` is
   * then what the default is, said in words); refsem's rejection is reported there.
   */
  emit(h: HalideCall | string, name: string, args: Args, at?: Loc): void {
    // A default Halide applies to a func the schedule never names has no line of its own.
    const loc = typeof h === 'string' ? at : h.loc;
    const call: DirectiveCall = { directive: this.registry.get(name)!, args, ...(loc ? { loc } : {}) };
    try {
      this.t = applyCall(this.t, call, this.registry, this.calls);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      // A split's tail, or a parallel loop over overlapping tails, may be Halide's Auto choice.
      // Only a refusal about tails or overlaps is one another tail would avoid (not, say, a factor of 0).
      const aboutTails = !/\[SPLIT-FACTOR\]/.test(e.message);
      const auto = (name === 'split' || name === 'traverse') && aboutTails && this.stage !== undefined ? this.autoTail.get(this.stage) : undefined;
      const note = auto ? `; Halide's TailStrategy::Auto made ${auto.call.text} (${showLoc(auto.call.loc)}) ${auto.tail}: give it TailStrategy.GuardWithIf to choose otherwise` : '';
      throw new UserError(`${typeof h === 'string' ? h : h.text} → ${e.message}`, loc ?? { file: this.file, line: 1, col: 1 }, `${e.hint ?? 'see spec/schedule.md for the rule'}${note}`);
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

  /** Records rfactor call `c` on a stage: its reduction loops `moved` now belong to Halide's intermediate func. */
  factor(label: string, c: HalideCall, moved: ReadonlySet<string>): void {
    if (this.factored.has(label)) {
      const first = this.factored.get(label)!.call;
      throw new UserError(`${c.text}: [HALIDE-STYLE-RFACTOR] ${label} is already factored by ${first.text} (${showLoc(first.loc)})`, c.loc, 'factor the intermediate instead, in Halide; refsem checks one rfactor per update');
    }
    this.factored.set(label, { call: c, moved });
  }

  /** The loop a loops-phase call names, refused when an earlier rfactor moved it into the intermediate func. */
  stageLoop(f: string, stage: number, v: string, c: HalideCall): string {
    const loop = this.loop(f, stage, v);
    const fact = this.factored.get(stageLabel(f, stage));
    if (fact?.moved.has(loop)) {
      throw new UserError(`${c.text}: [HALIDE-STYLE-RFACTOR] ${v} belongs to the intermediate func of ${fact.call.text} (${showLoc(fact.call.loc)}), no longer to ${stageLabel(f, stage)}`, c.loc, `schedule it on the intermediate: ….${fact.call.text}.update(0).${c.text}`);
    }
    return loop;
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

export const argError = (c: HalideCall, a: HalideArg | undefined, what: string): never => {
  throw new UserError(`${c.text}: expected ${what}`, a?.loc ?? c.loc, `see spec/halide-schedules.md for the forms refsem reads`);
};

/** A plain name argument (a Var, an RVar or a func). */
export function nameArg(c: HalideCall, a: HalideArg | undefined, what: string): string {
  if (a?.k === 'name' && a.parts.length === 1) return a.parts[0]!;
  if (a?.k === 'name') argError(c, a, `${what} as a plain name, not '${a.parts.join('.')}' (name a reduction variable as the algorithm does, e.g. r)`);
  return argError(c, a, what);
}

/** An integer expression argument: integers, parameters, + − ×. */
export function exprArg(c: HalideCall, a: HalideArg | undefined, what: string): Expr {
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

export const arity = (c: HalideCall, ...counts: number[]) => {
  if (!counts.includes(c.args.length)) argError(c, undefined, `${counts.join(' or ')} argument${counts.length === 1 && counts[0] === 1 ? '' : 's'}, not ${c.args.length}`);
};

/** The refsem directives of one loops-phase call. */
export function loopCall(tr: Translation, f: string, c: HalideCall): void {
  // implements [HALIDE-STYLE-CALLS]
  const s = c.stage;
  tr.stage = stageLabel(f, s);
  const L = (v: string) => tr.stageLoop(f, s, v, c);
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

