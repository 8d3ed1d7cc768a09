// The reference-counted heap semantics ⟼r of λ1 (fig. 4.7, as reconstructed in
// spec/perceus.md, "The heap machine"), run as an abstract machine on compiled code (heap-compile.ts). Each rule
// of the semantics is one method of the machine, named in its comment; `run` is the loop that
// picks the rule for the current redex. Per-step checks (checks.ts) are a hook the fast path never
// calls.
import type { Loc } from '../diag.js';
import { Cell, Code, type Compiled, FREED, type LamCode, NULL_TOKEN, Op, RESERVED, type RV, STATIC, showCell } from './heap-code.js';
import { type Stats, emptyStats } from './stats.js';
import { printExpr } from './print.js';
import type { ConInfo, Expr } from './syntax.js';

/** Why a run stopped without a value. */
export type Stop =
  | { readonly kind: 'stuck'; readonly reason: string; readonly step: number; readonly loc?: Loc }
  | { readonly kind: 'budget'; readonly step: number; readonly loc?: Loc }
  | { readonly kind: 'violation'; readonly check: string; readonly step: number; readonly rule: string; readonly message: string; readonly loc?: Loc };

export interface TraceLine {
  readonly step: number;
  readonly rule: string;
  readonly text: string;
}

/** The redex of a step in one short line, for traces. */
function head(e: Expr): string {
  const s = (() => {
    switch (e.k) {
      case 'val':
        return `val ${e.name} = ${head(e.bound)}`;
      case 'match':
        return `match ${printExpr(e.scrut)}`;
      case 'if':
        return `if ${printExpr(e.cond)}`;
      case 'dup':
      case 'drop':
        return `${e.k} ${e.name}`;
      case 'dropreuse':
        return `val ${e.token} = drop-reuse ${e.name}`;
      case 'dropspec':
        return printExpr({ ...e, body: { k: 'lit', value: 0 } }).replace(/;\s*0$/, '');
      default:
        return printExpr(e);
    }
  })().replace(/\s+/g, ' ');
  return s.length > 72 ? s.slice(0, 69) + '...' : s;
}

/** The view of a machine state the per-step checks read. */
export interface StateView {
  readonly code: Code | null;
  readonly env: RV[];
  readonly fcode: (Code | null)[];
  readonly fenv: RV[][];
  readonly fslot: number[];
  readonly fsp: number;
  readonly pend: RV[];
  readonly pn: number;
  readonly live: ReadonlySet<Cell>;
  /** The value being returned to the innermost frame (between a value and [BIND-R]). */
  readonly ret: RV | undefined;
}

/** Per-step hook; returns a violation message with its check name, or nothing. */
export type StepCheck = (s: StateView, step: number, rule: string) => { check: string; message: string } | undefined;

export interface RunOptions {
  readonly maxSteps?: number;
  readonly check?: StepCheck;
  readonly trace?: TraceLine[];
  /** Verify kept fields at C@ru under reuse specialization (part of the `counts` check). */
  readonly verifyKeep?: boolean;
}

export interface RunResult {
  readonly stop?: Stop;
  /** The result, before it is dropped. */
  readonly value?: RV;
  readonly stats: Stats;
  /** Cells still holding memory after the result was dropped (listed when checks track cells). */
  readonly leaked: Cell[];
  /** How many cells still hold memory after the result was dropped (0 for a leak-free run). */
  readonly liveAtEnd: number;
  /** Set when the result was read back before being dropped. */
  readback?: Expr;
}

class Violation extends Error {
  constructor(
    readonly check: string,
    readonly msg: string,
  ) {
    super(msg);
  }
}

/** The redex of a step for traces: code, a queued drop of a value, or a return to a frame. */
function describe(at: Code | RV | null | undefined): string {
  if (at instanceof Code) return at.op === Op.DUP || at.op === Op.DROP ? `${at.op === Op.DUP ? 'dup' : 'drop'} ${at.name}` : head(at.src);
  if (at === null || at === undefined) return 'return to the enclosing val';
  if (!(at instanceof Cell)) return `drop ${at}`;
  return at.rc === STATIC ? `drop ${at.con?.name ?? 'NULL'}` : `drop #${at.id} ${at.lam ? 'closure' : at.con!.name}`;
}

/**
 * The machine's state and its rules, one method per rule of the heap semantics. Evaluation
 * contexts `val x = E; e` are an explicit stack of frames (so deep recursion never touches the JS
 * stack) and the cascade of drops that [DCON-R] and [DLAM-R] insert is an explicit work list.
 */
class HeapMachine {
  readonly stats: Stats = emptyStats();
  readonly live = new Set<Cell>();
  /** whether per-step checks run (they need the set of live cells) */
  private readonly tracking: boolean;
  private nextId = 1;
  liveN = 0;
  steps = 0;
  /** the rule the last transition applied */
  rule = '';
  /** queued drops: the fields of cells freed by [DCON-R], [DLAM-R] and specialized drops */
  readonly pend: RV[] = [];
  pn = 0;
  /** frames `val x = □; e`: the code after the hole, its environment and x's slot */
  readonly fcode: (Code | null)[] = [];
  readonly fenv: RV[][] = [];
  readonly fslot: number[] = [];
  fsp = 0;
  code: Code | null;
  env: RV[];
  /** a value on its way back to the innermost frame */
  ret: RV | undefined;

  constructor(
    prog: Compiled,
    tracking: boolean,
    private readonly verifyKeep: boolean,
  ) {
    this.tracking = tracking;
    this.code = prog.main.body!;
    this.env = new Array(prog.main.nslots);
  }

  view(): StateView {
    return { code: this.code, env: this.env, fcode: this.fcode, fenv: this.fenv, fslot: this.fslot, fsp: this.fsp, pend: this.pend, pn: this.pn, live: this.live, ret: this.ret };
  }

  private alloc(con: ConInfo | null, fields: RV[], lam: LamCode | null): Cell {
    const c = new Cell(1, con, fields, lam, this.nextId++);
    this.stats.allocs++;
    this.stats.fieldWrites += fields.length;
    if (++this.liveN > this.stats.peakLive) this.stats.peakLive = this.liveN;
    if (this.tracking) this.live.add(c);
    return c;
  }

  private release(c: Cell): void {
    c.rc = FREED;
    this.liveN--;
    this.stats.frees++;
    if (this.tracking) this.live.delete(c);
  }

  private queueFields(c: Cell): void {
    const fs = c.fields;
    for (let i = 0; i < fs.length; i++) this.pend[this.pn++] = fs[i]!;
  }

  /** One drop: [DROP-R], or [DCON-R]/[DLAM-R] which free and queue the fields' drops. */
  drop(v: RV): void {
    if (typeof v !== 'object') {
      this.rule = 'DROP-R';
      return;
    }
    const n = v.rc;
    if (n > 1) {
      v.rc = n - 1;
      this.stats.drops++;
      this.rule = 'DROP-R';
    } else if (n === 1) {
      this.stats.drops++;
      this.rule = v.lam ? 'DLAM-R' : 'DCON-R';
      this.release(v);
      this.queueFields(v);
    } else if (n === RESERVED) {
      this.rule = 'DROP-TOKEN-R';
      this.release(v);
    } else if (n === FREED) dangling(v, 'drop');
    else this.rule = 'DROP-R';
  }

  /** [DUP-R] on one value. */
  private dup(v: RV): void {
    if (typeof v !== 'object') return;
    if (v.rc > 0) {
      v.rc++;
      this.stats.dups++;
    } else if (v.rc === FREED) dangling(v, 'dup');
    else if (v.rc === RESERVED) throw new Violation('counts', `dup of reuse token ${showCell(v)}: tokens are linear`);
  }

  private atom(c: Code, i: number): RV {
    const s = c.aslots[i]!;
    return s >= 0 ? this.env[s]! : c.consts[i]!;
  }

  /** Value-producing nodes: atoms, primitives ([PRIM-R]), closures ([LAM-R]), constructors ([CON-R], [CONRU-R]); a string says why it is stuck. */
  value(c: Code): RV | string {
    switch (c.op) {
      case Op.ATOM:
        this.rule = 'BIND-R';
        return this.atom(c, 0);
      case Op.PRIM:
        return this.prim(c);
      case Op.LAM:
        return this.lam(c);
      default:
        return this.con(c);
    }
  }

  /** [PRIM-R]: an operator on integers. */
  private prim(c: Code): RV | string {
    const n = c.aslots.length;
    const a0 = this.atom(c, 0);
    const a1 = n > 1 ? this.atom(c, 1) : 0;
    if (typeof a0 === 'object' || typeof a1 === 'object') return `primitive '${(c.src as { op: string }).op}' applied to a heap value`;
    this.rule = 'PRIM-R';
    return n > 1 ? c.prim!(a0, a1) : c.prim!(a0);
  }

  /** [LAM-R]: a closure capturing its free variables. */
  private lam(c: Code): RV {
    const l = c.lam!;
    const fs = new Array<RV>(l.capSlots.length);
    for (let i = 0; i < fs.length; i++) fs[i] = this.env[l.capSlots[i]!]!;
    this.rule = 'LAM-R';
    return this.alloc(null, fs, l);
  }

  /** [CON-R], or [CONRU-R] in place through a reuse token (§4.2.4–4.2.5). */
  private con(c: Code): RV {
    const n = c.aslots.length;
    if (c.token >= 0) {
      const tok = this.env[c.token] as Cell;
      if (tok !== NULL_TOKEN) {
        if (tok.rc !== RESERVED) throw new Violation('counts', `C@ru with ${showCell(tok)}, which is not a reserved reuse cell`);
        if (tok.fields.length !== n) throw new Violation('counts', `reuse token ${showCell(tok)} has ${tok.fields.length} fields, ${c.con!.name} needs ${n}`);
        const keep = c.keep;
        for (let i = 0; i < n; i++) {
          if (keep !== null && keep[i]) {
            if (this.verifyKeep && tok.fields[i] !== this.atom(c, i)) throw new Violation('counts', `reuse specialization kept field ${i} of ${showCell(tok)}, but it does not hold the constructor's argument`);
            continue;
          }
          tok.fields[i] = this.atom(c, i);
          this.stats.fieldWrites++;
        }
        tok.con = c.con;
        tok.rc = 1;
        this.stats.reuses++;
        this.rule = 'CONRU-R';
        return tok;
      }
    }
    const fs = new Array<RV>(n);
    for (let i = 0; i < n; i++) fs[i] = this.atom(c, i);
    this.rule = c.token >= 0 ? 'CONRU-R' : 'CON-R';
    return this.alloc(c.con, fs, null);
  }

  /** [BIND-R] for a value returned to the innermost frame `val x = □; e`. */
  returnToFrame(): void {
    this.fsp--;
    const fsp = this.fsp;
    this.env = this.fenv[fsp]!;
    this.env[this.fslot[fsp]!] = this.ret!;
    this.code = this.fcode[fsp]!;
    this.fcode[fsp] = null;
    this.ret = undefined;
    this.rule = 'BIND-R';
  }

  /** Focus on a bound expression that is not a value: E = val x = □; e (no transition). */
  pushFrame(c: Code): void {
    const fsp = this.fsp;
    this.fcode[fsp] = c.next;
    this.fenv[fsp] = this.env;
    this.fslot[fsp] = c.slot;
    this.fsp++;
    this.code = c.bound;
  }

  /** [CALL-R]: a top-level function's body in a fresh environment of its arguments. */
  call(c: Code): void {
    const f = c.fun!;
    const ne = new Array<RV>(f.nslots);
    for (let i = 0; i < c.aslots.length; i++) ne[i] = this.atom(c, i);
    this.env = ne;
    this.code = f.body;
    this.rule = 'CALL-R';
  }

  /** [APP-R]: a closure's body with its captures and the argument. */
  app(c: Code): string | undefined {
    const f = this.atom(c, 0);
    if (typeof f !== 'object' || f.lam === null) return 'application of a value that is not a function';
    if (f.rc <= 0) dangling(f, 'application');
    const l = f.lam;
    const ne = new Array<RV>(l.nslots);
    ne[0] = f;
    const fs = f.fields;
    for (let i = 0; i < fs.length; i++) ne[1 + i] = fs[i]!;
    ne[l.paramSlot] = this.atom(c, 1);
    this.env = ne;
    this.code = l.body;
    this.rule = 'APP-R';
    return undefined;
  }

  /** [MATCH-E] (elaborated) or [MATCH-R] (formal): the branch of the constructor, its binders bound. */
  match(c: Code): string | undefined {
    const v = this.env[c.slot]!;
    if (typeof v !== 'object' || v.con === null || v.con.type !== c.type) return `match on a value that is not of type '${c.type}'`;
    if (v.rc === FREED || v.rc === RESERVED) dangling(v, 'match');
    const i = v.con.index;
    const bs = c.binders[i]!;
    const fs = v.fields;
    for (let j = 0; j < bs.length; j++) this.env[bs[j]!] = fs[j]!;
    this.code = c.kids[i]!;
    this.rule = c.formal ? 'MATCH-R' : 'MATCH-E';
    return undefined;
  }

  /** [IF-R]: the branch of the condition. */
  branch(c: Code): string | undefined {
    const v = this.env[c.slot]!;
    if (typeof v === 'object') return 'if on a value that is not an integer';
    this.code = v !== 0 ? c.kids[0]! : c.kids[1]!;
    this.rule = 'IF-R';
    return undefined;
  }

  /** [DUP-R] as an instruction. */
  dupInstr(c: Code): void {
    this.dup(this.env[c.slot]!);
    this.code = c.next;
    this.rule = 'DUP-R';
  }

  /** [DROP-R] and its cascade as an instruction. */
  dropInstr(c: Code): void {
    this.drop(this.env[c.slot]!);
    this.code = c.next;
  }

  /** [DROPREUSE-R]: unique → drop the fields, keep the memory as the token; else decref. */
  dropReuse(c: Code): void {
    const v = this.env[c.slot] as Cell;
    if (typeof v !== 'object' || v.rc === STATIC) this.env[c.token] = NULL_TOKEN;
    else if (v.rc === 1) {
      v.rc = RESERVED;
      this.stats.drops++;
      this.queueFields(v);
      this.env[c.token] = v;
    } else if (v.rc > 1) {
      v.rc--;
      this.stats.drops++;
      this.env[c.token] = NULL_TOKEN;
    } else dangling(v, 'drop-reuse');
    this.code = c.next;
    this.rule = 'DROPREUSE-R';
  }

  /** [DROPSPEC-R]: the specialized drop of §4.2.3 (and drop-reuse of §4.2.5). */
  dropSpec(c: Code): void {
    const v = this.env[c.slot] as Cell;
    if (typeof v !== 'object' || v.rc <= 0) {
      if (typeof v === 'object' && v.rc !== STATIC) dangling(v, 'specialized drop');
      if (c.token >= 0) this.env[c.token] = NULL_TOKEN;
    } else {
      this.stats.uniqueTests++;
      const uniq = v.rc === 1;
      const ops = uniq ? c.unique : c.shared;
      // The operations of the chosen path are ordinary dups and drops, counted as such.
      for (let i = 0; i < ops.length; i++) {
        const o = ops[i]!;
        const x = this.env[o >> 1]!;
        if (o & 1) this.drop(x);
        else this.dup(x);
      }
      if (uniq) {
        if (c.token >= 0) {
          v.rc = RESERVED;
          this.env[c.token] = v;
        } else this.release(v);
      } else {
        v.rc--;
        this.stats.decrefs++;
        if (c.token >= 0) this.env[c.token] = NULL_TOKEN;
      }
    }
    this.code = c.next;
    this.rule = 'DROPSPEC-R';
  }
}

function dangling(c: Cell, what: string): never {
  throw new Violation('soundness', `${what} of ${showCell(c)}: the entry is no longer in the heap`);
}

/**
 * Runs `main` to a value, then drops the value (so a leak-free run ends with an empty heap).
 * `readback` converts the value to a term before it is dropped (for soundness checks).
 */
export function run(prog: Compiled, opts: RunOptions = {}, readback?: (v: RV) => Expr): RunResult {
  const maxSteps = opts.maxSteps ?? 50_000_000;
  const chk = opts.check ?? null;
  const trace = opts.trace ?? null;
  const m = new HeapMachine(prog, chk !== null, opts.verifyKeep ?? false);
  const stats = m.stats;
  const stuck = (reason: string, at: Code): RunResult => ({
    stop: { kind: 'stuck', reason, step: m.steps, ...(at.src.loc ? { loc: at.src.loc } : {}) },
    stats,
    leaked: [],
    liveAtEnd: m.liveN,
  });
  let result: RV | undefined;
  try {
    for (;;) {
      if (m.steps >= maxSteps) {
        const at = m.code ?? m.fcode[m.fsp - 1];
        return { stop: { kind: 'budget', step: m.steps, ...(at?.src.loc ? { loc: at.src.loc } : {}) }, stats, leaked: [], liveAtEnd: m.liveN };
      }
      const at = m.pn > 0 ? m.pend[m.pn - 1] : m.code;
      if (m.pn > 0) m.drop(m.pend[--m.pn]!);
      else if (m.code === null) {
        if (m.fsp === 0) {
          result = m.ret;
          break;
        }
        m.returnToFrame();
      } else {
        const c: Code = m.code;
        switch (c.op) {
          case Op.VAL: {
            const b = c.bound!;
            if (!b.simple) {
              m.pushFrame(c);
              continue;
            }
            const v = m.value(b);
            if (typeof v === 'string') return stuck(v, b);
            m.env[c.slot] = v;
            m.code = c.next;
            if (b.op !== Op.ATOM) {
              m.steps++;
              if (trace) trace.push({ step: m.steps, rule: m.rule, text: head(b.src) });
              m.rule = 'BIND-R';
            }
            break;
          }
          case Op.ATOM:
          case Op.PRIM:
          case Op.LAM:
          case Op.CON: {
            const v = m.value(c);
            if (typeof v === 'string') return stuck(v, c);
            m.ret = v;
            m.code = null;
            if (c.op === Op.ATOM) continue;
            break;
          }
          case Op.CALL:
            m.call(c);
            break;
          case Op.APP: {
            const why = m.app(c);
            if (why !== undefined) return stuck(why, c);
            break;
          }
          case Op.MATCH: {
            const why = m.match(c);
            if (why !== undefined) return stuck(why, c);
            break;
          }
          case Op.IF: {
            const why = m.branch(c);
            if (why !== undefined) return stuck(why, c);
            break;
          }
          case Op.DUP:
            m.dupInstr(c);
            break;
          case Op.DROP:
            m.dropInstr(c);
            break;
          case Op.DROPREUSE:
            m.dropReuse(c);
            break;
          case Op.DROPSPEC:
            m.dropSpec(c);
            break;
        }
      }
      m.steps++;
      if (trace) trace.push({ step: m.steps, rule: m.rule, text: describe(at) });
      if (chk) {
        const bad = chk(m.view(), m.steps, m.rule);
        if (bad) return { stop: { kind: 'violation', check: bad.check, step: m.steps, rule: m.rule, message: bad.message }, stats, leaked: [], liveAtEnd: m.liveN };
      }
    }
    const out: RunResult = { value: result!, stats, leaked: [], liveAtEnd: 0 };
    if (readback) out.readback = readback(result!);
    // The program's result is dropped, so a leak-free run ends with an empty heap.
    m.drop(result!);
    m.steps++;
    while (m.pn > 0) {
      m.drop(m.pend[--m.pn]!);
      m.steps++;
    }
    stats.steps = m.steps;
    if (m.liveN !== 0) return { ...out, leaked: chk !== null ? [...m.live] : [], liveAtEnd: m.liveN };
    return out;
  } catch (e) {
    stats.steps = m.steps;
    if (e instanceof Violation) return { stop: { kind: 'violation', check: e.check, step: m.steps, rule: m.rule, message: e.msg }, stats, leaked: [], liveAtEnd: m.liveN };
    throw e;
  } finally {
    stats.steps = m.steps;
  }
}
