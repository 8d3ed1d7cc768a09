// The small-step machine of fig. 2.8, followed literally: a configuration ⟨s | Σ | σ⟩, one rule
// application per step, found by decomposing the term into an evaluation context E and a redex
// ([REDUCE]). Slow by design: it is the reference the fast executor (exec.ts) is tested against
// and the source of `refsem step` traces. Stuck states are named outcomes (outcome.ts).
import type { Input } from '../alg-semantics/ast.js';
import { type InputLike, inputOf } from '../alg-semantics/input.js';
import type { Expr } from '../expr/ast.js';
import { add, applyOp, sub } from '../expr/ops.js';
import { printExpr } from '../expr/print.js';
import { type Int, type Value, isError, showValue } from '../expr/value.js';
import type { Stmt, TgtProgram } from './ast.js';
import { bindInput, checkTgt } from './check.js';
import type { Outcome, Stuck } from './outcome.js';
import { RaceDetector, done, permutation } from './parallel.js';
import { type Rng, seededRng } from '../rng.js';
import { Buf, allocate, checkedOffset, programSite, siteOf } from './store.js';

export type RuleId =
  | 'TGT-REALIZE' | 'END' | 'TGT-VAR' | 'EVAL' | 'READ' | 'NOP' | 'ASSERT-TRUE' | 'LET' | 'LABEL'
  | 'FOR-ITER' | 'FOR-STOP' | 'IF-T' | 'IF-F' | 'ASSN' | 'ALLOC';

/** One rule application: its number, its rule, whether it fired inside a context ([REDUCE]), what changed. */
export interface StepEvent {
  readonly step: number;
  readonly rule: RuleId;
  readonly reduce: boolean;
  /** How many frames the evaluation context had (0: the rule fired at the top). */
  readonly frames: number;
  readonly redex: string;
  readonly result: string;
  /** The memory the step touched: the cell [READ] read or [ASSN] wrote, or the buffer [ALLOC] made. */
  readonly mem?: MemEvent;
  /**
   * The program's statement the step works in (the redex's statement, or the statement whose
   * expression holds it); none for [TGT-REALIZE], [END] and the sequencing of a finished statement.
   */
  readonly stmt?: Stmt;
}

/** A step's effect on σ, for views of the store (spec/report.md, [REPORT-MEMORY]). */
export type MemEvent =
  | { readonly kind: 'read' | 'write'; readonly func: string; readonly point: readonly Value[]; readonly value: Value }
  | { readonly kind: 'alloc'; readonly func: string; readonly bounds: readonly (readonly [Int, Int])[] };

export interface MachineOptions {
  readonly maxSteps?: number;
  readonly seed?: number;
  readonly onStep?: (ev: StepEvent) => void;
}

/** The machine's default step budget. */
export const MACHINE_MAX_STEPS = 10_000_000;

/**
 * Statement terms. Expression positions hold partly evaluated expressions (constants are values);
 * `o` is the source statement, for stuck sites. Nested statements of if/for/let/label stay source
 * statements until the rule that enters them fires.
 */
export type Term =
  | { readonly k: 'nop' }
  | { readonly k: 'seq'; readonly body: readonly Term[] } // two or more
  | { readonly k: 'assert'; readonly cond: Expr; readonly o: Stmt & { k: 'assert' } }
  | { readonly k: 'allocate'; readonly bounds: readonly Expr[]; readonly o: Stmt & { k: 'allocate' } }
  | { readonly k: 'store'; readonly value: Expr; readonly idx: readonly Expr[]; readonly o: Stmt & { k: 'store' } }
  | { readonly k: 'if'; readonly cond: Expr; readonly o: Stmt & { k: 'if' } }
  | { readonly k: 'for'; readonly min: Expr; readonly len: Expr; readonly o: Stmt & { k: 'for' } }
  /** A parallel loop under way: its iteration order and the next position in it. */
  | { readonly k: 'par'; readonly order: readonly Int[]; readonly pos: number; readonly o: Stmt & { k: 'for' } }
  | { readonly k: 'let'; readonly value: Expr; readonly o: Stmt & { k: 'let' } }
  | { readonly k: 'label'; readonly o: Stmt & { k: 'label' } };

const NOP: Term = { k: 'nop' };

/** The term of a source statement. `{}` is nop and `{s}` is s, so sequencing needs no extra steps. */
export function term(s: Stmt): Term {
  switch (s.k) {
    case 'nop':
      return NOP;
    case 'seq':
      return seq(s.body.map(term));
    case 'assert':
      return { k: 'assert', cond: s.cond, o: s };
    case 'allocate':
      return { k: 'allocate', bounds: s.dims.flatMap((d) => [d.min, d.len]), o: s };
    case 'store':
      return { k: 'store', value: s.value, idx: s.idx, o: s };
    case 'if':
      return { k: 'if', cond: s.cond, o: s };
    case 'for':
      return { k: 'for', min: s.min, len: s.len, o: s };
    case 'let':
      return { k: 'let', value: s.value, o: s };
    case 'label':
      return { k: 'label', o: s };
  }
}

function seq(body: readonly Term[]): Term {
  if (body.length === 0) return NOP;
  if (body.length === 1) return body[0]!;
  return { k: 'seq', body };
}

const isVal = (e: Expr): e is Expr & { k: 'const' } => e.k === 'const';
const val = (v: Value): Expr => ({ k: 'const', value: v });
const show = (e: Expr) => printExpr(e, 'tgt');
const values = (es: readonly Expr[]): Value[] => es.map((e) => (e as { value: Value }).value);

/** Index of the first argument that is not yet a value: where the evaluation context's hole is. */
const firstOpen = (es: readonly Expr[]) => es.findIndex((e) => !isVal(e));

/**
 * One frame of an evaluation context E (fig. 2.8); a context is a list of frames, outermost first.
 * `seq` is `E; s`; `stmt` is a statement whose `slot`-th expression position (in evaluation order,
 * see `slots`) holds E; `arg` is `op(c̄, E, ē)` or `f[c̄, E, ē]`. The top frame
 * `pipeline f(p̄) : E` is the run loop itself.
 */
export type Frame =
  | { readonly k: 'seq'; readonly rest: readonly Term[] }
  | { readonly k: 'stmt'; readonly term: Term; readonly slot: number }
  | { readonly k: 'arg'; readonly expr: Expr & { k: 'op' | 'access' }; readonly i: number };

type Redex = { readonly k: 'stmt'; readonly t: Term } | { readonly k: 'expr'; readonly e: Expr; readonly site: Stmt };

/**
 * The expression positions of a statement in the order its contexts evaluate them:
 * `assert E`, `if E then …`, `let x = E in …`, allocation bounds left to right with min before
 * len, loop bounds `(E, e)` then `(c, E)`, and an update's value (`a ← E`) before its indices
 * (`E ← c`).
 */
function slots(t: Term): readonly Expr[] {
  switch (t.k) {
    case 'assert':
    case 'if':
      return [t.cond];
    case 'let':
      return [t.value];
    case 'allocate':
      return t.bounds;
    case 'store':
      return [t.value, ...t.idx];
    case 'for':
      return [t.min, t.len];
    default:
      return [];
  }
}

function withSlot(t: Term, i: number, e: Expr): Term {
  const put = (es: readonly Expr[], j: number) => es.map((x, k) => (k === j ? e : x));
  switch (t.k) {
    case 'assert':
    case 'if':
      return { ...t, cond: e };
    case 'let':
      return { ...t, value: e };
    case 'allocate':
      return { ...t, bounds: put(t.bounds, i) };
    case 'store':
      return i === 0 ? { ...t, value: e } : { ...t, idx: put(t.idx, i - 1) };
    case 'for':
      return i === 0 ? { ...t, min: e } : { ...t, len: e };
    default:
      throw new Error(`unreachable: ${t.k} has no expression positions`);
  }
}

/** The source statement of a term with expression positions (for stuck sites). */
const origin = (t: Term): Stmt => (t as { o: Stmt }).o;

/** Splits a term into E[r]: the context and the redex that the next rule rewrites. */
export function decompose(t: Term): { ctx: Frame[]; redex: Redex } {
  const ctx: Frame[] = [];
  while (t.k === 'seq' && t.body[0]!.k !== 'nop') {
    ctx.push({ k: 'seq', rest: t.body.slice(1) });
    t = t.body[0]!;
  }
  const es = slots(t);
  const i = firstOpen(es);
  if (i < 0) return { ctx, redex: { k: 'stmt', t } };
  ctx.push({ k: 'stmt', term: t, slot: i });
  let e = es[i]!;
  for (;;) {
    if (e.k !== 'op' && e.k !== 'access') break;
    const j = firstOpen(e.args);
    if (j < 0) break;
    ctx.push({ k: 'arg', expr: e, i: j });
    e = e.args[j]!;
  }
  return { ctx, redex: { k: 'expr', e, site: origin(t) } };
}

/** E[x]: puts the contractum back into the context, innermost frame first. */
export function plug(ctx: readonly Frame[], x: Term | Expr): Term {
  let cur = x;
  for (let n = ctx.length - 1; n >= 0; n--) {
    const f = ctx[n]!;
    if (f.k === 'arg') cur = { ...f.expr, args: f.expr.args.map((a, k) => (k === f.i ? (cur as Expr) : a)) };
    else if (f.k === 'stmt') cur = withSlot(f.term, f.slot, cur as Expr);
    else cur = seq([cur as Term, ...f.rest]);
  }
  return cur as Term;
}

/** Raised inside a step: the configuration has no rule to apply. */
class Stuck_ {
  constructor(readonly stuck: Stuck) {}
}

export class Machine {
  /** Σ: loop variables and let bindings (fig. 2.8). */
  readonly env = new Map<string, Value>();
  /** σ: the store, one buffer per func. */
  readonly store = new Map<string, Buf>();
  private readonly races = new RaceDetector();
  private readonly rng: Rng;
  private rule: RuleId = 'NOP';
  private redex = '';
  private result = '';
  private mem: MemEvent | undefined;

  constructor(seed: number) {
    this.rng = seededRng(seed);
  }

  private fire(rule: RuleId, redex: string, result: string): void {
    this.rule = rule;
    this.redex = redex;
    this.result = result;
    this.mem = undefined;
  }

  /** [REDUCE]: one step is the decomposition E[r], one axiom r → r', and E[r']. */
  step(t: Term): { next: Term; frames: number; stmt?: Stmt } {
    const { ctx, redex } = decompose(t);
    const r = redex.k === 'stmt' ? this.contract(redex.t) : this.contractExpr(redex.e, redex.site);
    const stmt = redex.k === 'expr' ? redex.site : (redex.t as { o?: Stmt }).o;
    return { next: plug(ctx, r), frames: ctx.length, ...(stmt ? { stmt } : {}) };
  }

  /** The expression axioms [TGT-VAR], [EVAL], [READ]. */
  private contractExpr(e: Expr, site: Stmt): Expr {
    switch (e.k) {
      case 'var': {
        const v = this.env.get(e.name)!; // checkTgt guarantees the binding
        this.fire('TGT-VAR', e.name, showValue(v));
        return val(v);
      }
      case 'op': {
        const v = applyOp(e.op, values(e.args));
        this.fire('EVAL', show(e), showValue(v));
        return val(v);
      }
      case 'access': {
        const v = this.access(e.func, values(e.args), 'read', site);
        this.fire('READ', show(e), showValue(v));
        this.mem = { kind: 'read', func: e.func, point: values(e.args), value: v };
        return val(v);
      }
      default:
        throw new Error(`unreachable: ${e.k} is not a redex`);
    }
  }

  /** InBounds and the race check for [READ] and [ASSN]; returns the value read. */
  private access(func: string, point: readonly Value[], kind: 'read' | 'write', s: Stmt, value?: Value): Value {
    const site = siteOf(s);
    const buf = this.store.get(func);
    const off = checkedOffset(buf, func, point, kind, site, this.races, value);
    if (typeof off !== 'number') throw new Stuck_(off);
    if (kind === 'write') buf!.data[off] = value!;
    return buf!.data[off]!;
  }

  /** The statement axioms; every expression position of `t` is a value. */
  private contract(t: Term): Term {
    switch (t.k) {
      case 'nop':
        throw new Error('unreachable: nop has no step');
      case 'seq':
        // decompose stops at a sequence only when its head is nop
        this.fire('NOP', 'nop; …', '…');
        return seq(t.body.slice(1));
      case 'assert': {
        const c = (t.cond as { value: Value }).value;
        if (isError(c)) throw new Stuck_({ kind: 'error-in-control', what: 'assert condition', value: c, site: siteOf(t.o) });
        if (c === 0) throw new Stuck_({ kind: 'assert-failed', cond: t.o.cond, site: siteOf(t.o) });
        this.fire('ASSERT-TRUE', `assert ${showValue(c)}`, 'nop');
        return NOP;
      }
      case 'allocate': {
        const r = allocate(t.o, values(t.bounds));
        if (!(r instanceof Buf)) throw new Stuck_(r);
        this.store.set(t.o.func, r);
        this.fire('ALLOC', `allocate ${t.o.func}(${r.bounds().map(([m, l]) => `(${m}, ${l})`).join(', ')})`, 'nop');
        this.mem = { kind: 'alloc', func: t.o.func, bounds: r.bounds() };
        return NOP;
      }
      case 'store': {
        const point = values(t.idx);
        const v = (t.value as { value: Value }).value;
        this.access(t.o.func, point, 'write', t.o, v);
        this.fire('ASSN', `${t.o.func}[${point.map(showValue).join(', ')}] <- ${showValue(v)}`, 'nop');
        this.mem = { kind: 'write', func: t.o.func, point, value: v };
        return NOP;
      }
      case 'if': {
        const c = (t.cond as { value: Value }).value;
        if (isError(c)) throw new Stuck_({ kind: 'error-in-control', what: 'if condition', value: c, site: siteOf(t.o) });
        const taken = c !== 0;
        this.fire(taken ? 'IF-T' : 'IF-F', `if ${showValue(c)} then … else …`, taken ? 'then branch' : 'else branch');
        return term(taken ? t.o.then : t.o.else);
      }
      case 'let': {
        const c = (t.value as { value: Value }).value;
        this.env.set(t.o.var, c);
        this.fire('LET', `let ${t.o.var} = ${showValue(c)} in …`, `Σ[${t.o.var} = ${showValue(c)}]`);
        return term(t.o.body);
      }
      case 'label':
        this.fire('LABEL', `label ${t.o.name}: …`, '…');
        return term(t.o.body);
      case 'for':
        return this.loop(t);
      case 'par':
        return this.parIter(t);
    }
  }

  /** [FOR-ITER] / [FOR-STOP] once both bounds are values. */
  private loop(t: Term & { k: 'for' }): Term {
    const x = t.o.var;
    const site = siteOf(t.o);
    const [min, len] = values([t.min, t.len]) as [Value, Value];
    if (isError(min)) throw new Stuck_({ kind: 'error-in-control', what: `loop min of ${x}`, value: min, site });
    if (isError(len)) throw new Stuck_({ kind: 'error-in-control', what: `loop extent of ${x}`, value: len, site });
    if (len < 0) throw new Stuck_({ kind: 'rdom-failure', var: x, min, len, site });
    const head = `for ${x} in (${showValue(min)}, ${showValue(len)})`;
    if (len === 0) {
      this.env.delete(x);
      this.fire('FOR-STOP', head, `nop, Σ \\ {${x}}`);
      return NOP;
    }
    if (t.o.trav === 'parallel') {
      // The iterations of a parallel loop run in a seeded order (spec/target.md, "Parallel loops").
      const order = permutation(this.rng, min, len, site);
      this.races.enter(x, order);
      return this.parIter({ k: 'par', order, pos: 0, o: t.o });
    }
    this.env.set(x, min);
    this.fire('FOR-ITER', head, `Σ[${x} = ${showValue(min)}]`);
    return seq([term(t.o.body), { ...t, min: val(add(min, 1)), len: val(sub(len, 1)) }]);
  }

  /** [FOR-ITER] / [FOR-STOP] for a parallel loop: the next iteration is the next in its order. */
  private parIter(t: Term & { k: 'par' }): Term {
    const x = t.o.var;
    if (t.pos === t.order.length) {
      this.races.leave();
      this.env.delete(x);
      this.fire('FOR-STOP', `for parallel ${x} (all ${t.order.length} iterations done)`, `nop, Σ \\ {${x}}`);
      return NOP;
    }
    const i = t.order[t.pos]!;
    this.races.iterate(t.pos);
    this.env.set(x, i);
    this.fire('FOR-ITER', `for parallel ${x} (iteration ${t.pos + 1} of ${t.order.length})`, `Σ[${x} = ${showValue(i)}]`);
    return seq([term(t.o.body), { ...t, pos: t.pos + 1 }]);
  }

  /** Runs the pipeline: [TGT-REALIZE], steps until nop, then [END]. */
  run(p: TgtProgram, bound: ReadonlyMap<string, Value>, opts: MachineOptions): Outcome {
    const max = opts.maxSteps ?? MACHINE_MAX_STEPS;
    let steps = 0;
    let t: Term | 'realize' = 'realize';
    for (;;) {
      let next: Term | Buf;
      let frames = 0;
      let stmt: Stmt | undefined;
      try {
        if (t === 'realize') {
          for (const [k, v] of bound) this.env.set(k, v);
          this.fire('TGT-REALIZE', `pipeline ${p.output}(…); realize(…)`, bound.size === 0 ? 'no parameters' : [...bound].map(([k, v]) => `${k} = ${showValue(v)}`).join(', '));
          next = term(p.body);
        } else if (t.k === 'nop') {
          const out = this.store.get(p.output);
          if (out === undefined) throw new Stuck_({ kind: 'unallocated', func: p.output, site: programSite(p) });
          this.fire('END', `pipeline ${p.output}(…) : nop`, `the buffer of ${p.output}`);
          next = out;
        } else ({ next, frames, stmt } = this.step(t));
      } catch (e) {
        if (e instanceof Stuck_) return { kind: 'stuck', stuck: e.stuck, steps };
        throw e;
      }
      if (steps >= max) return { kind: 'stuck', stuck: { kind: 'budget-exceeded', steps: max }, steps: max };
      steps++;
      opts.onStep?.({ step: steps, rule: this.rule, reduce: frames > 0, frames, redex: this.redex, result: this.result, ...(this.mem ? { mem: this.mem } : {}), ...(stmt ? { stmt } : {}) });
      if (next instanceof Buf) return done(next.toBuffer(), steps, this.races);
      t = next;
    }
  }
}

/** Runs a completed program on an input with the small-step machine. */
export function runMachine(p: TgtProgram, input: Input | InputLike, opts: MachineOptions = {}): Outcome {
  checkTgt(p);
  const bound = bindInput(p, inputOf(input));
  return new Machine(opts.seed ?? 0).run(p, bound, opts);
}

/** fig. 2.8's context rule. */
const REDUCE = 'REDUCE';

/**
 * One line of a trace: the step number, the rule (under [REDUCE] when it fired inside an
 * evaluation context), the redex and what it became.
 */
export function showStep(ev: StepEvent): string {
  const rule = ev.reduce ? `[${REDUCE}] [${ev.rule}]` : `[${ev.rule}]`;
  return `${String(ev.step).padStart(6)}  ${rule}  ${ev.redex}  ⟶  ${ev.result}`;
}
