// The reference-counted heap semantics ⟼r (fig. 4.7 as reconstructed in
// design/perceus-heap-semantics.md), run as an abstract machine. Substitution e[x := z] is
// realized by environments of slots; evaluation contexts `val x = E; e` by an explicit stack of
// frames, so deep recursion never touches the JS stack; the cascade of drops that [DCON-R] and
// [DLAM-R] insert is an explicit work list. Per-step checks (checks.ts) are a hook the fast path
// never calls.
import type { Loc } from '../diag.js';
import type { OpName } from '../expr/ast.js';
import { INT_OPS } from '../expr/ops.js';
import type { Int } from '../expr/value.js';
import { type Stats, emptyStats } from './stats.js';
import { printExpr } from './print.js';
import { type ConInfo, ENTRY, type Expr, type Program, erase, freeVars } from './syntax.js';

/** A heap cell: a constructor `C y1 … yk` or a closure `λ^ys x. e` (its fields are ys). */
export class Cell {
  constructor(
    /** n ≥ 1 for a live entry; FREED, STATIC or RESERVED otherwise. */
    public rc: number,
    public con: ConInfo | null,
    public fields: RV[],
    public lam: LamCode | null,
    public id: number,
  ) {}
}
export type RV = Int | Cell;

export const FREED = 0;
export const STATIC = -1;
export const RESERVED = -2;

/** The null reuse token of §4.2.4: C@ru with it allocates fresh. */
export const NULL_TOKEN = new Cell(STATIC, null, [], null, 0);

export const enum Op {
  ATOM, CON, LAM, APP, CALL, PRIM, VAL, MATCH, IF, DUP, DROP, DROPREUSE, DROPSPEC,
}

/** A compiled expression node; slots index the activation's environment. */
export class Code {
  slot = -1;
  token = -1;
  /** Atom arguments: a slot, or -1 with the value in `consts`. */
  aslots: number[] = [];
  consts: RV[] = [];
  next: Code | null = null;
  bound: Code | null = null;
  kids: Code[] = [];
  binders: number[][] = [];
  con: ConInfo | null = null;
  type = '';
  lam: LamCode | null = null;
  fun: FunCode | null = null;
  prim: ((...a: Int[]) => Int) | null = null;
  /** DROPSPEC: slot·2 + (1 for drop, 0 for dup). */
  unique: number[] = [];
  shared: number[] = [];
  keep: boolean[] | null = null;
  formal = false;
  simple = false;
  /** DUP/DROP: the name, for traces (the node may stand for a run-time inserted instruction). */
  name = '';
  /** Static facts the checks need: consumed slots with multiplicity, fv, fv of the erasure. */
  own: Map<number, number> = new Map();
  fv: Set<number> = new Set();
  fvErased: Set<number> = new Set();
  constructor(
    readonly op: Op,
    readonly src: Expr,
  ) {}
}

export interface LamCode {
  readonly src: Extract<Expr, { k: 'lam' }>;
  nslots: number;
  body: Code;
  /** Creator-environment slots of the captured variables ys, in order. */
  capSlots: number[];
  paramSlot: number;
}

export interface FunCode {
  readonly name: string;
  nslots: number;
  body: Code | null;
  readonly nparams: number;
  readonly loc?: Loc;
}

export interface Compiled {
  readonly main: FunCode;
  readonly funs: ReadonlyMap<string, FunCode>;
  /** Static cells for the nullary constructors (unboxed, never counted). */
  readonly nullary: ReadonlyMap<string, Cell>;
}

class Scope {
  readonly slots = new Map<string, number>();
  n = 0;
  add(x: string): number {
    const s = this.n++;
    this.slots.set(x, s);
    return s;
  }
  get(x: string): number {
    const s = this.slots.get(x);
    if (s === undefined) throw new Error(`internal: unbound ${x} at compile time`);
    return s;
  }
}

function bagAdd(b: Map<number, number>, s: number, d: number): void {
  const v = (b.get(s) ?? 0) + d;
  if (v === 0) b.delete(s);
  else b.set(s, v);
}
function bagUnion(a: Map<number, number>, b: Map<number, number>, drop: readonly number[] = []): Map<number, number> {
  const out = new Map(a);
  for (const [s, v] of b) if (!drop.includes(s)) bagAdd(out, s, v);
  return out;
}
const setOf = (...xs: Iterable<number>[]) => {
  const s = new Set<number>();
  for (const x of xs) for (const v of x) s.add(v);
  return s;
};
const setMinus = (a: Set<number>, drop: readonly number[]) => new Set([...a].filter((x) => !drop.includes(x)));

/**
 * Compiles an annotated program. `formal` selects the formal [MATCH-R] (fields duplicated and the
 * scrutinee dropped at run time) for matches not already in elaborated form.
 */
export function compile(p: Program, formal: boolean): Compiled {
  const nullary = new Map<string, Cell>();
  for (const k of p.cons.values()) if (k.arity === 0) nullary.set(k.name, new Cell(STATIC, k, [], null, 0));
  const funs = new Map<string, FunCode>();
  for (const f of p.funs) funs.set(f.name, { name: f.name, nslots: 0, body: null, nparams: f.params.length, ...(f.loc ? { loc: f.loc } : {}) });

  const atom = (c: Code, e: Expr, sc: Scope) => {
    if (e.k === 'var') {
      c.aslots.push(sc.get(e.name));
      c.consts.push(0);
      bagAdd(c.own, sc.get(e.name), 1);
      c.fv.add(sc.get(e.name));
      c.fvErased.add(sc.get(e.name));
    } else if (e.k === 'lit') {
      c.aslots.push(-1);
      c.consts.push(e.value);
    } else if (e.k === 'con' && e.args.length === 0) {
      c.aslots.push(-1);
      c.consts.push(nullary.get(e.con)!);
    } else throw new Error(`internal: not an atom: ${e.k}`);
  };

  const prefix = (kind: Op.DUP | Op.DROP, slot: number, src: Expr, next: Code, name: string): Code => {
    const c = new Code(kind, src);
    c.slot = slot;
    c.name = name;
    c.next = next;
    c.own = new Map(next.own);
    bagAdd(c.own, slot, kind === Op.DUP ? -1 : 1);
    c.fv = setOf(next.fv, [slot]);
    c.fvErased = next.fvErased;
    return c;
  };

  /**
   * [SVAR-DUP] can leave `dup x; x` in an argument position; the machine runs those dups just
   * before the node (nothing is evaluated in between, arguments being atoms).
   */
  const hoisted = (args: readonly Expr[]): [string[], Expr[]] => {
    const names: string[] = [];
    const out = args.map((a) => {
      let x = a;
      while (x.k === 'dup') {
        names.push(x.name);
        x = x.body;
      }
      return x;
    });
    return [names, out];
  };
  const withDups = (names: string[], src: Expr, c: Code, sc: Scope): Code => {
    let out = c;
    for (let i = names.length - 1; i >= 0; i--) out = prefix(Op.DUP, sc.get(names[i]!), src, out, names[i]!);
    return out;
  };

  const go = (e: Expr, sc: Scope): Code => {
    if ((e.k === 'con' || e.k === 'call' || e.k === 'prim') && e.args.some((a) => a.k === 'dup')) {
      const [names, args] = hoisted(e.args);
      return withDups(names, e, go({ ...e, args } as Expr, sc), sc);
    }
    if (e.k === 'app' && (e.fn.k === 'dup' || e.arg.k === 'dup')) {
      const [names, [fn, arg]] = hoisted([e.fn, e.arg]);
      return withDups(names, e, go({ ...e, fn: fn!, arg: arg! }, sc), sc);
    }
    switch (e.k) {
      case 'var':
      case 'lit': {
        const c = new Code(Op.ATOM, e);
        atom(c, e, sc);
        c.simple = true;
        return c;
      }
      case 'con': {
        if (e.args.length === 0 && e.reuse === undefined) {
          const c = new Code(Op.ATOM, e);
          atom(c, e, sc);
          c.simple = true;
          return c;
        }
        const c = new Code(Op.CON, e);
        c.con = p.cons.get(e.con)!;
        for (const a of e.args) atom(c, a, sc);
        if (e.reuse !== undefined) {
          c.token = sc.get(e.reuse);
          bagAdd(c.own, c.token, 1);
          c.fv.add(c.token);
          c.keep = e.keep ? [...e.keep] : null;
        }
        c.simple = true;
        return c;
      }
      case 'prim': {
        const c = new Code(Op.PRIM, e);
        c.prim = INT_OPS[e.op as OpName];
        for (const a of e.args) atom(c, a, sc);
        c.simple = true;
        return c;
      }
      case 'call': {
        const c = new Code(Op.CALL, e);
        c.fun = funs.get(e.fn)!;
        for (const a of e.args) atom(c, a, sc);
        return c;
      }
      case 'app': {
        const c = new Code(Op.APP, e);
        atom(c, e.fn, sc);
        atom(c, e.arg, sc);
        return c;
      }
      case 'lam': {
        const c = new Code(Op.LAM, e);
        const caps = [...freeVars(erase(e))];
        const inner = new Scope();
        const self = inner.add(`λself`);
        const capIn = caps.map((y) => inner.add(y));
        const param = inner.add(e.param);
        // [APP-R] runs `dup ys; drop f` before the body: compiled as its prefix.
        let body = go(e.body, inner);
        body = prefix(Op.DROP, self, e, body, 'f');
        for (let i = capIn.length - 1; i >= 0; i--) body = prefix(Op.DUP, capIn[i]!, e, body, caps[i]!);
        c.lam = { src: e, nslots: 0, body, capSlots: caps.map((y) => sc.get(y)), paramSlot: param };
        c.lam.nslots = inner.n;
        for (const s of c.lam.capSlots) {
          bagAdd(c.own, s, 1);
          c.fv.add(s);
          c.fvErased.add(s);
        }
        c.simple = true;
        return c;
      }
      case 'val': {
        const c = new Code(Op.VAL, e);
        c.bound = go(e.bound, sc);
        c.slot = sc.add(e.name);
        c.next = go(e.body, sc);
        c.own = bagUnion(c.bound.own, c.next.own, [c.slot]);
        c.fv = setOf(c.bound.fv, setMinus(c.next.fv, [c.slot]));
        c.fvErased = setOf(c.bound.fvErased, setMinus(c.next.fvErased, [c.slot]));
        return c;
      }
      case 'match': {
        const c = new Code(Op.MATCH, e);
        c.slot = sc.get((e.scrut as { name: string }).name);
        const first = p.cons.get(e.branches[0]!.con)!;
        c.type = first.type;
        c.formal = formal && !e.elab;
        const ncons = p.types.find((t) => t.name === first.type)!.cons.length;
        c.kids = new Array(ncons);
        c.binders = new Array(ncons);
        c.fv.add(c.slot);
        c.fvErased.add(c.slot);
        e.branches.forEach((b, i) => {
          const k = p.cons.get(b.con)!;
          const bs = b.binders.map((x) => sc.add(x));
          const tok = b.token === undefined ? [] : [sc.add(b.token)];
          let body = go(b.body, sc);
          if (c.formal) {
            // [MATCH-R]: dup ys; drop x; ei[xs := ys]
            body = prefix(Op.DROP, c.slot, e, body, (e.scrut as { name: string }).name);
            for (let j = bs.length - 1; j >= 0; j--) body = prefix(Op.DUP, bs[j]!, e, body, b.binders[j]!);
          }
          c.kids[k.index] = body;
          c.binders[k.index] = bs;
          const drop = [...bs, ...tok];
          if (i === 0) c.own = bagUnion(new Map(), body.own, drop);
          for (const s of setMinus(body.fv, drop)) c.fv.add(s);
          for (const s of setMinus(body.fvErased, drop)) c.fvErased.add(s);
        });
        return c;
      }
      case 'if': {
        const c = new Code(Op.IF, e);
        c.slot = sc.get((e.cond as { name: string }).name);
        c.kids = [go(e.then, sc), go(e.else, sc)];
        c.own = new Map(c.kids[0]!.own);
        bagAdd(c.own, c.slot, 1);
        c.fv = setOf([c.slot], c.kids[0]!.fv, c.kids[1]!.fv);
        c.fvErased = setOf([c.slot], c.kids[0]!.fvErased, c.kids[1]!.fvErased);
        return c;
      }
      case 'dup':
      case 'drop':
        return prefix(e.k === 'dup' ? Op.DUP : Op.DROP, sc.get(e.name), e, go(e.body, sc), e.name);
      case 'dropreuse': {
        const c = new Code(Op.DROPREUSE, e);
        c.slot = sc.get(e.name);
        c.token = sc.add(e.token);
        c.next = go(e.body, sc);
        c.own = bagUnion(new Map([[c.slot, 1]]), c.next.own, [c.token]);
        c.fv = setOf([c.slot], setMinus(c.next.fv, [c.token]));
        c.fvErased = setMinus(c.next.fvErased, [c.token]);
        return c;
      }
      case 'dropspec': {
        const c = new Code(Op.DROPSPEC, e);
        c.slot = sc.get(e.name);
        const enc = (o: { op: string; name: string }) => sc.get(o.name) * 2 + (o.op === 'drop' ? 1 : 0);
        c.unique = e.unique.map(enc);
        c.shared = e.shared.map(enc);
        if (e.token !== undefined) c.token = sc.add(e.token);
        c.next = go(e.body, sc);
        c.own = bagUnion(new Map([[c.slot, 1]]), c.next.own, c.token >= 0 ? [c.token] : []);
        for (const x of e.pushed) bagAdd(c.own, sc.get(x), -1);
        c.fv = setOf([c.slot], [...e.unique, ...e.shared].map((o) => sc.get(o.name)), setMinus(c.next.fv, c.token >= 0 ? [c.token] : []));
        c.fvErased = setMinus(c.next.fvErased, c.token >= 0 ? [c.token] : []);
        return c;
      }
    }
  };

  for (const f of p.funs) {
    const sc = new Scope();
    for (const x of f.params) sc.add(x);
    const fc = funs.get(f.name)!;
    fc.body = go(f.body, sc);
    fc.nslots = sc.n;
  }
  return { main: funs.get(ENTRY)!, funs, nullary };
}

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

/** Names a cell for messages: `#id` plus its shape. */
export function showCell(c: Cell): string {
  const shape = c.con ? c.con.name : 'closure';
  const state = c.rc === FREED ? 'freed' : c.rc === RESERVED ? 'reserved' : `rc=${c.rc}`;
  return `#${c.id} ${shape} (${state})`;
}

/**
 * Runs `main` to a value, then drops the value (so a leak-free run ends with an empty heap).
 * `readback` converts the value to a term before it is dropped (for soundness checks).
 */
export function run(prog: Compiled, opts: RunOptions = {}, readback?: (v: RV) => Expr): RunResult {
  const stats = emptyStats();
  const maxSteps = opts.maxSteps ?? 50_000_000;
  const chk = opts.check ?? null;
  const trace = opts.trace ?? null;
  const verifyKeep = opts.verifyKeep ?? false;
  const live = new Set<Cell>();
  const tracking = chk !== null;
  let nextId = 1;
  let liveN = 0;
  let steps = 0;
  let rule = '';
  const pend: RV[] = [];
  let pn = 0;
  const fcode: (Code | null)[] = [];
  const fenv: RV[][] = [];
  const fslot: number[] = [];
  let fsp = 0;
  let code: Code | null = prog.main.body!;
  let env: RV[] = new Array(prog.main.nslots);
  let ret: RV | undefined;
  let result: RV | undefined;

  const alloc = (con: ConInfo | null, fields: RV[], lam: LamCode | null): Cell => {
    const c = new Cell(1, con, fields, lam, nextId++);
    stats.allocs++;
    stats.fieldWrites += fields.length;
    if (++liveN > stats.peakLive) stats.peakLive = liveN;
    if (tracking) live.add(c);
    return c;
  };
  const release = (c: Cell) => {
    c.rc = FREED;
    liveN--;
    stats.frees++;
    if (tracking) live.delete(c);
  };
  const dangling = (c: Cell, what: string): never => {
    throw new Violation('soundness', `${what} of ${showCell(c)}: the entry is no longer in the heap`);
  };
  /** One drop: [DROP-R], or [DCON-R]/[DLAM-R] which free and queue the fields' drops. */
  const drop1 = (v: RV): void => {
    if (typeof v !== 'object') {
      rule = 'DROP-R';
      return;
    }
    const n = v.rc;
    if (n > 1) {
      v.rc = n - 1;
      stats.drops++;
      rule = 'DROP-R';
    } else if (n === 1) {
      stats.drops++;
      rule = v.lam ? 'DLAM-R' : 'DCON-R';
      release(v);
      const fs = v.fields;
      for (let i = 0; i < fs.length; i++) pend[pn++] = fs[i]!;
    } else if (n === RESERVED) {
      rule = 'DROP-TOKEN-R';
      release(v);
    } else if (n === FREED) dangling(v, 'drop');
    else rule = 'DROP-R';
  };
  const dup1 = (v: RV): void => {
    if (typeof v !== 'object') return;
    if (v.rc > 0) {
      v.rc++;
      stats.dups++;
    } else if (v.rc === FREED) dangling(v, 'dup');
    else if (v.rc === RESERVED) throw new Violation('counts', `dup of reuse token ${showCell(v)}: tokens are linear`);
  };
  const atomv = (c: Code, i: number): RV => {
    const s = c.aslots[i]!;
    return s >= 0 ? env[s]! : c.consts[i]!;
  };
  const stuck = (reason: string, at: Code): RunResult => ({
    stop: { kind: 'stuck', reason, step: steps, ...(at.src.loc ? { loc: at.src.loc } : {}) },
    stats,
    leaked: [],
    liveAtEnd: liveN,
  });
  /** Value-producing nodes: [CON-R], [LAM-R], primitives, atoms. */
  const value = (c: Code): RV | string => {
    switch (c.op) {
      case Op.ATOM:
        rule = 'BIND-R';
        return atomv(c, 0);
      case Op.PRIM: {
        const n = c.aslots.length;
        const a0 = atomv(c, 0);
        const a1 = n > 1 ? atomv(c, 1) : 0;
        if (typeof a0 === 'object' || typeof a1 === 'object') return `primitive '${(c.src as { op: string }).op}' applied to a heap value`;
        rule = 'PRIM-R';
        return n > 1 ? c.prim!(a0, a1) : c.prim!(a0);
      }
      case Op.LAM: {
        const l = c.lam!;
        const fs = new Array<RV>(l.capSlots.length);
        for (let i = 0; i < fs.length; i++) fs[i] = env[l.capSlots[i]!]!;
        rule = 'LAM-R';
        return alloc(null, fs, l);
      }
      default: {
        // Op.CON: fresh, or in place through a token ([CONRU-R], §4.2.4–4.2.5).
        const n = c.aslots.length;
        if (c.token >= 0) {
          const tok = env[c.token] as Cell;
          if (tok !== NULL_TOKEN) {
            if (tok.rc !== RESERVED) throw new Violation('counts', `C@ru with ${showCell(tok)}, which is not a reserved reuse cell`);
            if (tok.fields.length !== n) throw new Violation('counts', `reuse token ${showCell(tok)} has ${tok.fields.length} fields, ${c.con!.name} needs ${n}`);
            const keep = c.keep;
            for (let i = 0; i < n; i++) {
              if (keep !== null && keep[i]) {
                if (verifyKeep && tok.fields[i] !== atomv(c, i)) throw new Violation('counts', `reuse specialization kept field ${i} of ${showCell(tok)}, but it does not hold the constructor's argument`);
                continue;
              }
              tok.fields[i] = atomv(c, i);
              stats.fieldWrites++;
            }
            tok.con = c.con;
            tok.rc = 1;
            stats.reuses++;
            rule = 'CONRU-R';
            return tok;
          }
        }
        const fs = new Array<RV>(n);
        for (let i = 0; i < n; i++) fs[i] = atomv(c, i);
        rule = c.token >= 0 ? 'CONRU-R' : 'CON-R';
        return alloc(c.con, fs, null);
      }
    }
  };

  const view = (): StateView => ({ code, env, fcode, fenv, fslot, fsp, pend, pn, live, ret });

  try {
    for (;;) {
      if (steps >= maxSteps) {
        const at = code ?? fcode[fsp - 1];
        return { stop: { kind: 'budget', step: steps, ...(at?.src.loc ? { loc: at.src.loc } : {}) }, stats, leaked: [], liveAtEnd: liveN };
      }
      const at = pn > 0 ? pend[pn - 1] : code;
      if (pn > 0) {
        drop1(pend[--pn]!);
      } else if (code === null) {
        // Returning `ret` to the innermost frame: [BIND-R] for `val x = v; e`.
        if (fsp === 0) {
          result = ret;
          break;
        }
        fsp--;
        env = fenv[fsp]!;
        env[fslot[fsp]!] = ret!;
        code = fcode[fsp]!;
        fcode[fsp] = null;
        ret = undefined;
        rule = 'BIND-R';
      } else {
        const c: Code = code;
        switch (c.op) {
          case Op.VAL: {
            const b = c.bound!;
            if (!b.simple) {
              // Focus on the bound expression: E = val x = □; e (no transition).
              fcode[fsp] = c.next;
              fenv[fsp] = env;
              fslot[fsp] = c.slot;
              fsp++;
              code = b;
              continue;
            }
            const v = value(b);
            if (typeof v === 'string') return stuck(v, b);
            env[c.slot] = v;
            code = c.next;
            if (b.op !== Op.ATOM) {
              steps++;
              if (trace) trace.push({ step: steps, rule, text: head(b.src) });
              rule = 'BIND-R';
            }
            break;
          }
          case Op.ATOM:
          case Op.PRIM:
          case Op.LAM:
          case Op.CON: {
            const v = value(c);
            if (typeof v === 'string') return stuck(v, c);
            ret = v;
            code = null;
            if (c.op === Op.ATOM) continue;
            break;
          }
          case Op.CALL: {
            const f = c.fun!;
            const ne = new Array<RV>(f.nslots);
            for (let i = 0; i < c.aslots.length; i++) ne[i] = atomv(c, i);
            env = ne;
            code = f.body;
            rule = 'CALL-R';
            break;
          }
          case Op.APP: {
            const f = atomv(c, 0);
            if (typeof f !== 'object' || f.lam === null) return stuck('application of a value that is not a function', c);
            if (f.rc <= 0) dangling(f, 'application');
            const l = f.lam;
            const ne = new Array<RV>(l.nslots);
            ne[0] = f;
            const fs = f.fields;
            for (let i = 0; i < fs.length; i++) ne[1 + i] = fs[i]!;
            ne[l.paramSlot] = atomv(c, 1);
            env = ne;
            code = l.body;
            rule = 'APP-R';
            break;
          }
          case Op.MATCH: {
            const v = env[c.slot]!;
            if (typeof v !== 'object' || v.con === null || v.con.type !== c.type) return stuck(`match on a value that is not of type '${c.type}'`, c);
            if (v.rc === FREED || v.rc === RESERVED) dangling(v, 'match');
            const i = v.con.index;
            const bs = c.binders[i]!;
            const fs = v.fields;
            for (let j = 0; j < bs.length; j++) env[bs[j]!] = fs[j]!;
            code = c.kids[i]!;
            rule = c.formal ? 'MATCH-R' : 'MATCH-E';
            break;
          }
          case Op.IF: {
            const v = env[c.slot]!;
            if (typeof v === 'object') return stuck('if on a value that is not an integer', c);
            code = v !== 0 ? c.kids[0]! : c.kids[1]!;
            rule = 'IF-R';
            break;
          }
          case Op.DUP:
            dup1(env[c.slot]!);
            code = c.next;
            rule = 'DUP-R';
            break;
          case Op.DROP:
            drop1(env[c.slot]!);
            code = c.next;
            break;
          case Op.DROPREUSE: {
            // [DROPREUSE-R]: unique → drop the fields, keep the memory as the token; else decref.
            const v = env[c.slot] as Cell;
            if (typeof v !== 'object' || v.rc === STATIC) env[c.token] = NULL_TOKEN;
            else if (v.rc === 1) {
              v.rc = RESERVED;
              stats.drops++;
              const fs = v.fields;
              for (let i = 0; i < fs.length; i++) pend[pn++] = fs[i]!;
              env[c.token] = v;
            } else if (v.rc > 1) {
              v.rc--;
              stats.drops++;
              env[c.token] = NULL_TOKEN;
            } else dangling(v, 'drop-reuse');
            code = c.next;
            rule = 'DROPREUSE-R';
            break;
          }
          case Op.DROPSPEC: {
            // [DROPSPEC-R]: the specialized drop of §4.2.3 (and drop-reuse of §4.2.5).
            const v = env[c.slot] as Cell;
            if (typeof v !== 'object' || v.rc <= 0) {
              if (typeof v === 'object' && v.rc !== STATIC) dangling(v, 'specialized drop');
              if (c.token >= 0) env[c.token] = NULL_TOKEN;
            } else {
              const uniq = v.rc === 1;
              const ops = uniq ? c.unique : c.shared;
              for (let i = 0; i < ops.length; i++) {
                const o = ops[i]!;
                const x = env[o >> 1]!;
                if (o & 1) {
                  if (typeof x === 'object' && x.rc === 1) {
                    stats.drops++;
                    release(x);
                    const fs = x.fields;
                    for (let j = 0; j < fs.length; j++) pend[pn++] = fs[j]!;
                  } else if (typeof x === 'object' && x.rc > 1) {
                    x.rc--;
                    stats.drops++;
                  } else if (typeof x === 'object' && x.rc === RESERVED) release(x);
                  else if (typeof x === 'object' && x.rc === FREED) dangling(x, 'drop');
                } else dup1(x);
              }
              if (uniq) {
                if (c.token >= 0) {
                  v.rc = RESERVED;
                  env[c.token] = v;
                } else release(v);
              } else {
                v.rc--;
                stats.drops++;
                if (c.token >= 0) env[c.token] = NULL_TOKEN;
              }
            }
            code = c.next;
            rule = 'DROPSPEC-R';
            break;
          }
        }
      }
      steps++;
      if (trace) trace.push({ step: steps, rule, text: describe(at) });
      if (chk) {
        const bad = chk(view(), steps, rule);
        if (bad) return { stop: { kind: 'violation', check: bad.check, step: steps, rule, message: bad.message }, stats, leaked: [], liveAtEnd: liveN };
      }
    }
    const out: RunResult = { value: result!, stats, leaked: [], liveAtEnd: 0 };
    if (readback) out.readback = readback(result!);
    // The program's result is dropped, so a leak-free run ends with an empty heap.
    drop1(result!);
    steps++;
    while (pn > 0) {
      drop1(pend[--pn]!);
      steps++;
    }
    stats.steps = steps;
    if (liveN !== 0) return { ...out, leaked: tracking ? [...live] : [], liveAtEnd: liveN };
    return out;
  } catch (e) {
    stats.steps = steps;
    if (e instanceof Violation) return { stop: { kind: 'violation', check: e.check, step: steps, rule, message: e.msg }, stats, leaked: [], liveAtEnd: liveN };
    throw e;
  } finally {
    stats.steps = steps;
  }
}
