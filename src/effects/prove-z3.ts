// Safety conditions as Z3 queries (spec/effects.md, "Safety conditions"). Each obligation is
// turned into a *violation*: a formula that holds at some parameter values, hole values and
// iteration points exactly when the condition fails there. The ternary logic of §3.5.1 enters
// through polarity (implements [EFF-TERNARY]): D ("definitely") and M ("maybe") distribute over ∧, ∨, ∃, ∀
// and swap under ¬, so they are pushed down to the atoms, where an atom that mentions ⊥ is false
// under D and true under M — the encoding of §3.10 with the pairs resolved at the leaves. The
// violation read under M is unsatisfiable: proved; read under D it is satisfiable: refuted with
// the model as witness; otherwise unknown. Only commands reach this module (it starts Z3).
import { type FuncDecl, type Model, type Sort } from 'z3-solver';
import { printStmt } from '../target-semantics/print.js';
import { printExpr } from '../expr/print.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { type ForStmt, type StmtPath, isInside, replaceAt, stmtAt as stmtAtPath } from '../target-semantics/walk.js';
import { type BoolE, type Ctx, type IntE, intOp, withZ3 } from '../expr/smt.js';
import { lift } from './effect.js';
import { type EffExpr, type Effect, type Scope, eOp, exprEffect, loopBounds, scopeAt, stmtEffect } from './effect.js';
import { type DerivedSets, type LocSet, buffersOf, derivedSets, reduceOps, reduces } from './locset.js';
import type { Answer, Obligation } from './obligation.js';

type Pol = 'M' | 'D';
const flip = (p: Pol): Pol => (p === 'M' ? 'D' : 'M');
type Env = ReadonlyMap<string, IntE>;

/** Z3 terms for one query: the free constants it made (for the witness) and the ⊥s it met. */
class Enc {
  readonly consts = new Map<string, IntE>();
  readonly fns = new Map<string, FuncDecl<'refsem', Sort<'refsem'>[], Sort<'refsem'>>>();
  readonly bots = new Set<string>();
  /** some location may be written by both statements compared (writesDiffer met a shared buffer) */
  sharedWrites = false;
  /** implements [EFF-EXTENT]: what is known of every value: window lengths and extent holes are non-negative */
  readonly facts: BoolE[] = [];
  private fresh = 0;

  constructor(readonly c: Ctx, readonly writes: WriteMode, private readonly extents: ReadonlySet<string> = new Set()) {}

  constant(name: string): IntE {
    let k = this.consts.get(name);
    if (!k) {
      this.consts.set(name, (k = this.c.Int.const(name)));
      if (this.extents.has(name) || /^\?(cpu|mem)\.len\(/.test(name)) this.facts.push(k.ge(0));
    }
    return k;
  }

  bound(name: string): IntE {
    return this.c.Int.const(`${name}!${this.fresh++}`);
  }

  term(e: EffExpr, env: Env): IntE {
    switch (e.k) {
      case 'int':
        return this.c.Int.val(e.v);
      case 'var':
        return env.get(e.name) ?? this.constant(e.name);
      case 'fn': {
        if (e.args.length === 0) return this.constant(e.name);
        const r = this.uf(e.name, e.args.map((a) => this.term(a, env)));
        if (/^\?(cpu|mem)\.len\(/.test(e.name)) this.facts.push(r.ge(0));
        return r;
      }
      case 'load':
        return this.uf(`${e.buf}[]`, e.args.map((a) => this.term(a, env)));
      case 'op':
        return intOp(this.c, e.op, e.args.map((a) => this.term(a, env)));
      case 'bot':
        throw new Error('internal: ⊥ reached the integer encoding');
    }
  }

  /** An uninterpreted function of integers applied. */
  private uf(name: string, args: IntE[]): IntE {
    let f = this.fns.get(`${name}/${args.length}`);
    if (!f) {
      f = this.c.Function.declare(name, ...(args.map(() => this.c.Int.sort()) as unknown as [Sort<'refsem'>]), this.c.Int.sort());
      this.fns.set(`${name}/${args.length}`, f);
    }
    return f.call(...args) as IntE;
  }

  /** D or M of the truth of an effect expression. */
  truth(p: Pol, e: EffExpr, env: Env): BoolE {
    if (e.k === 'op') {
      const [a, b] = e.args as [EffExpr, EffExpr];
      switch (e.op) {
        case 'and':
          return this.c.And(this.truth(p, a, env), this.truth(p, b, env));
        case 'or':
          return this.c.Or(this.truth(p, a, env), this.truth(p, b, env));
        case 'not':
          return this.c.Not(this.truth(flip(p), a, env));
        default:
          break;
      }
    }
    const bot = botIn(e);
    if (bot !== undefined) {
      this.bots.add(bot);
      return this.c.Bool.val(p === 'M');
    }
    if (e.k === 'op' && (e.op === '<' || e.op === '>' || e.op === '=')) {
      const [a, b] = e.args.map((x) => this.term(x, env)) as [IntE, IntE];
      return e.op === '<' ? a.lt(b) : e.op === '>' ? a.gt(b) : a.eq(b);
    }
    return this.term(e, env).neq(0);
  }

  /**
   * implements [EFF-MEMBER]: D or M of `loc ∈ L` (§3.12); with `written`, of `loc ∈ L` by a write of
   * the value `written.v` ([EFF-VALUE]).
   */
  member(p: Pol, buf: string, loc: readonly IntE[], l: LocSet, env: Env, written?: Written): BoolE {
    const c = this.c;
    switch (l.k) {
      case 'empty':
        return c.Bool.val(false);
      case 'pt': {
        if (l.buf !== buf) return c.Bool.val(false);
        const at = l.idx.map((i, k) => this.truth(p, eOp('=', i, { k: 'var', name: `\u0000loc${k}` }), new Map(env).set(`\u0000loc${k}`, loc[k]!)));
        return written ? c.And(...at, this.valueIs(p, l.val, env, written)) : c.And(...at);
      }
      case 'whole':
        return written ? c.Bool.val(l.buf === buf && p === 'M') : c.Bool.val(l.buf === buf);
      case 'union':
        return c.Or(...l.sets.map((s) => this.member(p, buf, loc, s, env, written)));
      case 'bigcup': {
        const v = this.bound(l.v);
        return c.Exists([v], this.member(p, buf, loc, l.set, new Map(env).set(l.v, v), written));
      }
      case 'minus':
        return c.And(this.member(p, buf, loc, l.a, env, written), c.Not(this.member(flip(p), buf, loc, l.b, env)));
      case 'filter':
        return c.And(this.truth(p, l.cond, env), this.member(p, buf, loc, l.set, env, written));
    }
  }

  /**
   * D or M of "the write of `val` writes `written.v`". A load is the buffer's value only where
   * neither compared statement modifies it, and an unknown value (⊥, a whole-buffer write) may be anything.
   */
  private valueIs(p: Pol, val: EffExpr | undefined, env: Env, written: Written): BoolE {
    const c = this.c;
    const why = val === undefined ? 'a value that is not known' : botIn(val);
    if (why !== undefined) {
      this.bots.add(why);
      return c.Bool.val(p === 'M');
    }
    const eq = this.term(val!, env).eq(written.v);
    const loads = loadsIn(val!);
    if (loads.length === 0) return eq;
    // D(no compared statement modifies a loaded point): no point of Mod may be it.
    const stable = c.And(...loads.map((l) => {
      const loc = l.args.map((a) => this.term(a, env));
      return c.And(...written.changed.map((m) => c.Not(this.member('M', l.buf, loc, m.set, m.env))));
    }));
    if (p === 'D') return c.And(stable, eq);
    this.bots.add(`the value of ${loads.map((l) => l.buf).join(', ')}[…], if the compared statements modify it`);
    return c.Or(c.Not(stable), eq);
  }

  /** A location of buffer `buf` (free constants, part of the witness). */
  location(buf: string, arity: number): IntE[] {
    return Array.from({ length: arity }, (_, k) => this.constant(`${buf}[${k}]`));
  }
}

/** A written value to compare, and what the compared instances modify (Mod, each in its environment). */
interface Written {
  readonly v: IntE;
  readonly changed: readonly { readonly set: LocSet; readonly env: Env }[];
}

const argsOf = (e: EffExpr): readonly EffExpr[] => (e.k === 'op' || e.k === 'fn' || e.k === 'load' ? e.args : []);

function mentions(e: EffExpr, v: string): boolean {
  if (e.k === 'var') return e.name === v;
  return argsOf(e).some((a) => mentions(a, v));
}

function botIn(e: EffExpr): string | undefined {
  if (e.k === 'bot') return e.why;
  for (const a of argsOf(e)) { const b = botIn(a); if (b !== undefined) return b; }
  return undefined;
}

/** The loads in a value, inner ones included. */
function loadsIn(e: EffExpr, out: Extract<EffExpr, { k: 'load' }>[] = []): Extract<EffExpr, { k: 'load' }>[] {
  if (e.k === 'load') out.push(e);
  for (const a of argsOf(e)) loadsIn(a, out);
  return out;
}

/** The number of coordinates of `buf` in a set (every access to a buffer has its dimensions). */
function arityIn(l: LocSet, buf: string): number | undefined {
  switch (l.k) {
    case 'pt':
      return l.buf === buf ? l.idx.length : undefined;
    case 'union':
      for (const s of l.sets) { const a = arityIn(s, buf); if (a !== undefined) return a; }
      return undefined;
    case 'bigcup':
    case 'filter':
      return arityIn(l.set, buf);
    case 'minus':
      return arityIn(l.a, buf);
    default:
      return undefined;
  }
}

/** A violation: given an encoder and a polarity, a formula true where the condition fails. */
type Violation = (enc: Enc, p: Pol) => BoolE;

/** One effect instance: its effect and the environment of its (renamed) variables. */
interface Inst {
  readonly a: Effect;
  readonly env: Env;
}

/** Some location is in both sets (under polarity p). */
function meet(enc: Enc, p: Pol, l1: LocSet, e1: Env, l2: LocSet, e2: Env, only?: string): BoolE {
  const c = enc.c;
  const b2 = buffersOf(l2);
  const bufs = [...buffersOf(l1)].filter((b) => b2.has(b) && (only === undefined || b === only));
  return c.Or(...bufs.map((b) => {
    const loc = enc.location(b, arityIn(l1, b)!);
    return c.And(enc.member(p, b, loc, l1, e1), enc.member(p, b, loc, l2, e2));
  }));
}

/**
 * How a query counts two writes of one location ([EFF-DECIDE]): every overlap (def. 3.8 as it
 * stands, a stronger violation), none, or overlaps whose values may differ ([EFF-VALUE]).
 */
type WriteMode = 'overlap' | 'none' | 'values';

/**
 * Some location both sets write, with values that differ (implements [EFF-VALUE]): a value's loads
 * are the points' contents where neither instance modifies them.
 */
function writesDiffer(enc: Enc, p: Pol, x: Inst, s1: DerivedSets, y: Inst, s2: DerivedSets): BoolE {
  const c = enc.c;
  const b2 = buffersOf(s2.Wr);
  const shared = [...buffersOf(s1.Wr)].filter((b) => b2.has(b));
  if (shared.length > 0) enc.sharedWrites = true;
  if (enc.writes === 'none') return c.Bool.val(false);
  if (enc.writes === 'overlap') return meet(enc, p, s1.Wr, x.env, s2.Wr, y.env);
  const changed = [{ set: s1.Mod, env: x.env }, { set: s2.Mod, env: y.env }];
  return c.Or(...shared.map((b) => {
    const loc = enc.location(b, arityIn(s1.Wr, b) ?? arityIn(s2.Wr, b) ?? 0);
    const [v1, v2] = [enc.bound('value'), enc.bound('value')];
    return c.And(enc.member(p, b, loc, s1.Wr, x.env, { v: v1, changed }), enc.member(p, b, loc, s2.Wr, y.env, { v: v2, changed }), v1.neq(v2));
  }));
}

/** Rd ∪ R+_H: what an effect touches other than by plain writes. */
const readOrReduced = (s: DerivedSets): LocSet => ({ k: 'union', sets: [s.Rd, s.RH] });

/**
 * ¬Commutes(a₁, a₂) (def. 3.8), with reductions by different operators conflicting and two writes
 * of one location conflicting only when their values may differ ([EFF-VALUE]).
 */
function notCommutes(enc: Enc, p: Pol, x: Inst, y: Inst): BoolE {
  const s1 = derivedSets(x.a);
  const s2 = derivedSets(y.a);
  const parts = [
    meet(enc, p, s1.Wr, x.env, readOrReduced(s2), y.env),
    meet(enc, p, s2.Wr, y.env, readOrReduced(s1), x.env),
    writesDiffer(enc, p, x, s1, y, s2),
    meet(enc, p, s1.RPlus, x.env, s2.Rd, y.env),
    meet(enc, p, s2.RPlus, y.env, s1.Rd, x.env),
  ];
  for (const o1 of reduceOps(x.a)) for (const o2 of reduceOps(y.a)) if (o1 !== o2) parts.push(meet(enc, p, reduces(x.a, o1), x.env, reduces(y.a, o2), y.env));
  return enc.c.Or(...parts);
}

/** ¬Shadows(a₁, a₂) (def. 3.9): a location a₁ may modify that a₂ may read or need not overwrite. */
function notShadows(enc: Enc, p: Pol, x: Inst, y: Inst): BoolE {
  const c = enc.c;
  const s1 = derivedSets(x.a);
  const s2 = derivedSets(y.a);
  return c.Or(...[...buffersOf(s1.Mod)].map((b) => {
    const loc = enc.location(b, arityIn(s1.Mod, b)!);
    return c.And(enc.member(p, b, loc, s1.Mod, x.env), c.Or(enc.member(p, b, loc, s2.Rd, y.env), c.Not(enc.member(flip(p), b, loc, s2.Wr, y.env))));
  }));
}

const all = (enc: Enc, p: Pol, conds: readonly EffExpr[], env: Env): BoolE => enc.c.And(...conds.map((h) => enc.truth(p, h, env)));

/** The statement at a path (which the obligation's maker took from the same program). */
const stmtAt = (t: TgtProgram, path: StmtPath): Stmt => stmtAtPath(t.body, path)!;

/** The effect of the statement at `path` with the guards it runs under; the statement at `without`, if inside it, left out. */
function effectAt(t: TgtProgram, path: StmtPath, without?: StmtPath): { a: Effect; ctrl: EffExpr[]; scope: Scope } {
  const { scope, ctrl } = scopeAt(t, path);
  const s = without && isInside(without, path) ? replaceAt(stmtAt(t, path), without.slice(path.length), () => ({ k: 'nop' })) : stmtAt(t, path);
  return { a: stmtEffect(s, scope), ctrl, scope };
}

/** A loop's body effect, its control (Bd of the loop last) and the renaming of its variable. */
function loopCopies(enc: Enc, t: TgtProgram, loop: StmtPath, vars: readonly string[]): { a: Effect; ctrl: EffExpr[]; env2: Map<string, IntE> } {
  const { a, ctrl } = effectAt(t, [...loop, 'body']);
  return { a, ctrl, env2: new Map(vars.map((v) => [v, enc.constant(`${v}'`)])) };
}

/** The path of the inner loop's body in `for x: W[for y: s]` (W: lets and guards). */
function innerBody(t: TgtProgram, loop: StmtPath): { path: StmtPath; inner: ForStmt } | undefined {
  let path: StmtPath = [...loop, 'body'];
  for (let s = stmtAt(t, path); ; s = stmtAt(t, path)) {
    if (s.k === 'for') return { path: [...path, 'body'], inner: s };
    if (s.k === 'let') path = [...path, 'body'];
    else if (s.k === 'if' && s.else.k === 'nop') path = [...path, 'then'];
    else return undefined;
  }
}

/** The rule of spec/effects.md that states each condition, printed with its answer. */
export const SAFETY_RULE: Readonly<Record<Obligation['k'], string>> = {
  commutes: 'SAFE-COMMUTES', shadows: 'SAFE-SHADOWS', reorder: 'SAFE-REORDER', fission: 'SAFE-FISSION', 'remove-loop': 'SAFE-REMOVE',
  parallel: 'SAFE-PARALLEL', independent: 'SAFE-INDEPENDENT', private: 'SAFE-PRIVATE', stable: 'SAFE-STABLE', 'split-exact': 'SAFE-SPLIT',
  'fuse-exact': 'SAFE-FUSE', reindex: 'SAFE-REINDEX', guard: 'SAFE-GUARD', confined: 'SAFE-CONFINED', serial: 'SAFE-SERIAL', copies: 'SAFE-COPIES', unchanged: 'SAFE-UNCHANGED', delegated: 'OBL-DELEGATED', unmodelled: 'SAFE-UNMODELLED',
};

/** The violation of each effect condition (undefined for the others). */
function violationOf(o: Obligation): Violation | string | Answer | undefined {
  switch (o.k) {
    case 'commutes':
    case 'shadows': {
      const x = effectAt(o.t, o.a);
      const y = effectAt(o.t, o.b, o.k === 'commutes' ? o.without : undefined);
      const empty = new Map<string, IntE>();
      const f = o.k === 'commutes' ? notCommutes : notShadows;
      return (enc, p) => enc.c.And(all(enc, p, [...x.ctrl, ...y.ctrl], empty), f(enc, p, { a: x.a, env: empty }, { a: y.a, env: empty }));
    }
    case 'parallel':
    case 'independent': {
      const v = (stmtAt(o.t, o.loop) as ForStmt).var;
      return (enc, p) => {
        const { a, ctrl, env2 } = loopCopies(enc, o.t, o.loop, [v]);
        const none = new Map<string, IntE>();
        const x = enc.constant(v);
        const hyp = enc.c.And(all(enc, p, ctrl, none), all(enc, p, ctrl, env2), x.neq(env2.get(v)!));
        if (o.k === 'parallel') {
          // Two iterations writing one point with one value is no race ([PAR-OVERLAP]).
          const s1 = derivedSets(a);
          return enc.c.And(hyp, enc.c.Or(meet(enc, p, s1.Mod, none, readOrReduced(s1), env2), writesDiffer(enc, p, { a, env: none }, s1, { a, env: env2 }, s1)));
        }
        return enc.c.Or(enc.c.And(hyp, notCommutes(enc, p, { a, env: none }, { a, env: env2 })),
          enc.c.And(all(enc, p, ctrl, none), notShadows(enc, p, { a, env: none }, { a, env: none })));
      };
    }
    case 'private': {
      const loop = stmtAt(o.t, o.loop) as ForStmt;
      return (enc, p) => {
        const v = loop.var;
        const { scope, ctrl } = scopeAt(o.t, [...o.loop, 'body']);
        const a = stmtEffect(loop.body, { ...scope, cover: o.buf });
        const env2 = new Map([[v, enc.constant(`${v}'`)]]);
        const none = new Map<string, IntE>();
        const s = derivedSets(a);
        return enc.c.And(all(enc, p, ctrl, none), all(enc, p, ctrl, env2), enc.constant(v).lt(env2.get(v)!), meet(enc, p, s.Mod, none, s.Rd, env2, o.buf));
      };
    }
    case 'reorder': {
      const outer = stmtAt(o.t, o.loop) as ForStmt;
      const nest = innerBody(o.t, o.loop);
      if (!nest) return `no loop immediately inside ${outer.var}`;
      const inScope = scopeAt(o.t, nest.path).scope;
      const escapes = [nest.inner.min, nest.inner.len].some((e) => mentions(lift(e, inScope), outer.var));
      if (escapes) return { k: 'refuted', witness: {}, why: `the bounds of ${nest.inner.var} depend on ${outer.var}, which is not bound above it after the reorder` };
      return (enc, p) => {
        const [x, y] = [outer.var, nest.inner.var];
        const { scope, ctrl } = scopeAt(o.t, nest.path);
        const a = stmtEffect(stmtAt(o.t, nest.path), scope);
        const env2 = new Map([[x, enc.constant(`${x}'`)], [y, enc.constant(`${y}'`)]]);
        const none = new Map<string, IntE>();
        const bounds: Effect = { k: 'seq', items: exprEffect(nest.inner.min, scopeAt(o.t, [...o.loop, 'body']).scope, exprEffect(nest.inner.len, scopeAt(o.t, [...o.loop, 'body']).scope)) };
        const c = enc.c;
        return c.Or(
          c.And(all(enc, p, ctrl, none), notCommutes(enc, p, { a: bounds, env: none }, { a, env: none })),
          c.And(all(enc, p, ctrl, none), all(enc, p, ctrl, env2), enc.constant(x).lt(env2.get(x)!), env2.get(y)!.lt(enc.constant(y)),
            notCommutes(enc, p, { a, env: none }, { a, env: env2 })),
        );
      };
    }
    case 'fission': {
      const loop = stmtAt(o.t, o.loop) as ForStmt;
      if (loop.body.k !== 'seq') return `the body of ${loop.var} is not a block`;
      const body = loop.body;
      return (enc, p) => {
        const { scope, ctrl } = scopeAt(o.t, [...o.loop, 'body']);
        const a1 = stmtEffect({ k: 'seq', body: body.body.slice(0, o.at) }, scope);
        const a2 = stmtEffect({ k: 'seq', body: body.body.slice(o.at) }, scope);
        const env2 = new Map([[loop.var, enc.constant(`${loop.var}'`)]]);
        const none = new Map<string, IntE>();
        return enc.c.And(all(enc, p, ctrl, none), all(enc, p, ctrl, env2), env2.get(loop.var)!.lt(enc.constant(loop.var)),
          notCommutes(enc, p, { a: a1, env: none }, { a: a2, env: env2 }));
      };
    }
    case 'remove-loop': {
      const loop = stmtAt(o.t, o.loop) as ForStmt;
      return (enc, p) => {
        const { scope, ctrl } = scopeAt(o.t, [...o.loop, 'body']);
        const a = stmtEffect(loop.body, scope);
        const none = new Map<string, IntE>();
        const outer = ctrl.slice(0, -1);
        const bd = loopBounds(loop.var, lift(loop.min, scopeAt(o.t, o.loop).scope), lift(loop.len, scopeAt(o.t, o.loop).scope));
        const k = enc.bound(loop.var);
        const c = enc.c;
        // ∃x. D Bd(x) fails, or the body is not idempotent.
        return c.And(all(enc, p, outer, none), c.Or(c.ForAll([k], c.Not(enc.truth(flip(p), bd, new Map([[loop.var, k]])))),
          c.And(enc.truth(p, ctrl[ctrl.length - 1]!, none), notShadows(enc, p, { a, env: none }, { a, env: none }))));
      };
    }
    case 'stable': {
      const x = effectAt(o.t, o.stmt);
      const ys = o.by.map((b) => effectAt(o.t, b, o.without));
      return (enc, p) => {
        const none = new Map<string, IntE>();
        const sx = derivedSets(x.a);
        return enc.c.Or(...ys.map((y) => {
          const sy = derivedSets(y.a);
          return enc.c.And(all(enc, p, [...x.ctrl, ...y.ctrl], none), enc.c.Or(meet(enc, p, sy.Mod, none, sx.All, none)));
        }));
      };
    }
    case 'split-exact':
      // A factor that is not a constant makes the query non-linear; the rewrite asserts it positive
      // at the start of the program ([SPLIT]), and for any positive factor lemma S holds.
      if (o.factor.k !== 'const') return { k: 'proved', how: 'lemma S (docs/proofs/effects.md): the factor is asserted positive' };
      return splitViolation(o.t, o.loop, o.factor);
    case 'fuse-exact':
      return fuseViolation(o.t, o.loop);
    case 'reindex':
      return reindexViolation(o.t, o.loop, o.after, o.body, o.part);
    case 'confined': {
      // The whole program's accesses with the statement at `within` left out.
      const { a } = effectAt(o.t, [], o.within);
      const whole: LocSet = { k: 'whole', buf: o.buf };
      return (enc, p) => meet(enc, p, derivedSets(a).All, new Map(), whole, new Map(), o.buf);
    }
    case 'guard': {
      // Where c is false the statement must touch no location (a loop that runs zero times there).
      const { scope, ctrl } = scopeAt(o.t, o.at);
      const here = stmtAt(o.t, o.at);
      const s = here.k === 'if' && here.else.k === 'nop' && printExpr(here.cond, 'tgt') === printExpr(o.cond, 'tgt') ? here.then : here;
      const touched = derivedSets(stmtEffect(s, scope)).All;
      const cond = lift(o.cond, scope);
      return (enc, p) => {
        const none = new Map<string, IntE>();
        const some = [...buffersOf(touched)].map((b) => enc.member(p, b, enc.location(b, arityIn(touched, b)!), touched, none));
        return enc.c.And(all(enc, p, ctrl, none), enc.truth(p, eOp('not', cond), none), enc.c.Or(...some));
      };
    }
    default:
      return undefined;
  }
}

/**
 * The guard split `for x in (m, l)` by e visits x = m + xo·e + xi for xo in
 * [0, (l + e − 1) div e), xi in [0, e) with x < m + l: exactly the points of [m, m + l), in
 * increasing order (e > 0 is asserted at the program's start, [SPLIT]). Violated when a visited x
 * leaves the range, a point of the range has its (xo, xi) out of bounds, or two visits are out of order.
 */
function splitViolation(t: TgtProgram, loop: StmtPath, factor: import('../expr/ast.js').Expr): Violation {
  const l = stmtAt(t, loop) as ForStmt;
  const scope = scopeAt(t, loop);
  return (enc, p) => {
    const c = enc.c;
    const none = new Map<string, IntE>();
    const m = enc.term(lift(l.min, scope.scope), none);
    const len = enc.term(lift(l.len, scope.scope), none);
    const e = enc.term(lift(factor, scope.scope), none);
    const outer = intOp(c, 'div', [len.add(e).sub(1), e]);
    const [xo, xi, xo2, xi2, x] = ['xo', 'xi', "xo'", "xi'", l.var].map((n) => enc.constant(n)) as [IntE, IntE, IntE, IntE, IntE];
    const inB = (a: IntE, b: IntE) => c.And(a.ge(0), a.lt(outer), b.ge(0), b.lt(e), m.add(a.mul(e)).add(b).lt(m.add(len)));
    const pt = (a: IntE, b: IntE) => m.add(a.mul(e)).add(b);
    const ctx = all(enc, p, scope.ctrl, none);
    return c.And(ctx, e.gt(0), c.Or(
      c.And(inB(xo, xi), pt(xo, xi).lt(m)),
      c.And(x.ge(m), x.lt(m.add(len)), c.Not(inB(intOp(c, 'div', [x.sub(m), e]), intOp(c, 'mod', [x.sub(m), e])))),
      c.And(inB(xo, xi), inB(xo2, xi2), c.Or(xo.lt(xo2), c.And(xo.eq(xo2), xi.lt(xi2))), c.Not(pt(xo, xi).lt(pt(xo2, xi2)))),
    ));
  };
}

/**
 * `for a in (ma, la): W[for b in (mb, lb)]` fused visits a = ma + z div lb,
 * b = mb + z mod lb for z in [0, la·lb). For la ≥ 0 and lb ≥ 1 that is exactly the pairs in
 * lexicographic order (Euclidean division; docs/proofs/effects.md, lemma F), and for la ≤ 0 or
 * lb = 0 both loops are empty — unless la and lb are both negative, when la·lb > 0 iterations run
 * instead of none. The product makes the general statement non-linear, so the query asks only for
 * that case; inner bounds that depend on the outer loop refute it outright.
 */
function fuseViolation(t: TgtProgram, loop: StmtPath): Violation | string | Answer {
  const outer = stmtAt(t, loop) as ForStmt;
  const nest = innerBody(t, loop);
  if (!nest) return `no loop immediately inside ${outer.var}`;
  const inner = scopeAt(t, nest.path).scope;
  if ([nest.inner.min, nest.inner.len].some((e) => mentions(lift(e, inner), outer.var))) {
    return { k: 'refuted', witness: {}, why: `the bounds of ${nest.inner.var} depend on ${outer.var}` };
  }
  const scope = scopeAt(t, loop);
  return (enc, p) => {
    const none = new Map<string, IntE>();
    const la = enc.term(lift(outer.len, scope.scope), none);
    const lb = enc.term(lift(nest.inner.len, scope.scope), none);
    return enc.c.And(all(enc, p, scope.ctrl, none), la.lt(0), lb.lt(0));
  };
}

/**
 * `for x in (m, l): s` replaced by a nest (loops, lets, guards) around s
 * that binds x to X(ū) of its loop variables ū. `points`: some visited X(ū) lies outside
 * [m, m + l), or some point of [m, m + l) is visited by no ū. `order`: two visits ū <lex ū′ with
 * X(ū) ≥ X(ū′) (a point visited twice, or out of order).
 */
function reindexViolation(t: TgtProgram, loop: StmtPath, after: TgtProgram, body: StmtPath, part: 'points' | 'order'): Violation | string {
  const l = stmtAt(t, loop) as ForStmt;
  const outer = scopeAt(t, loop);
  const inner = scopeAt(after, body);
  const chain = inner.ctrl.slice(scopeAt(after, loop).ctrl.length);
  const vars: string[] = [];
  for (let n = loop.length; n < body.length; n++) {
    const s = stmtAtPath(after.body, body.slice(0, n));
    if (s?.k === 'for') vars.push(s.var);
  }
  const X = lift({ k: 'var', name: l.var }, inner.scope);
  if (botIn(X) !== undefined) return `the new index of ${l.var} depends on data`;
  if (X.k === 'var' && X.name === l.var) return `the nest does not bind ${l.var}`;
  return (enc, p) => {
    const c = enc.c;
    const none = new Map<string, IntE>();
    const m = enc.term(lift(l.min, outer.scope), none);
    const len = enc.term(lift(l.len, outer.scope), none);
    const copy = (tag: string) => new Map(vars.map((v) => [v, enc.constant(`${v}${tag}`)]));
    const u = copy('');
    const visited = (env: Env, q: Pol) => all(enc, q, chain, env);
    const ctx = all(enc, p, outer.ctrl, none);
    if (part === 'points') {
      const x = enc.constant(l.var);
      const xs = vars.map((v) => enc.bound(v));
      const env = new Map(vars.map((v, k) => [v, xs[k]!]));
      const at = enc.term(X, u);
      const missed = c.And(x.ge(m), x.lt(m.add(len)),
        xs.length ? c.Not(c.Exists(xs as [IntE, ...IntE[]], c.And(visited(env, flip(p)), enc.term(X, env).eq(x)))) : c.Bool.val(true));
      return c.And(ctx, c.Or(c.And(visited(u, p), c.Or(at.lt(m), at.ge(m.add(len)))), missed));
    }
    const u2 = copy("'");
    const lex = c.Or(...vars.map((v, k) => c.And(...vars.slice(0, k).map((w) => u.get(w)!.eq(u2.get(w)!)), u.get(v)!.lt(u2.get(v)!))));
    return c.And(ctx, visited(u, p), visited(u2, p), lex, c.Not(enc.term(X, u).lt(enc.term(X, u2))));
  };
}

/** The checks that need no solver: syntactic comparisons of the programs before and after. */
function syntactic(o: Obligation): Answer | undefined {
  switch (o.k) {
    case 'serial':
      return o.trav !== 'parallel' ? { k: 'proved', how: `${o.loop} runs ${o.trav}: one of the orders its iterations could already run in` }
        : { k: 'refuted', witness: {}, why: `${o.loop} runs in parallel` };
    case 'unchanged':
      return printStmt(withoutAssertions(o.before.body)) === printStmt(withoutAssertions(o.after.body)) ? { k: 'proved', how: 'the statements are unchanged but for assertions' }
        : { k: 'unknown', reason: 'the statements changed, and the analysis does not relate them' };
    case 'copies':
      return copiesAnswer(o.before, o.after, o.func);
    case 'delegated':
      return { k: 'delegated', to: o.what };
    case 'unmodelled':
      return { k: 'unknown', reason: o.why };
    default:
      return undefined;
  }
}

/** The program's statements without its leading assertions (whose failure is an allowed outcome, def. 2.3). */
function withoutAssertions(s: Stmt): Stmt {
  if (s.k !== 'seq') return s;
  let k = 0;
  while (s.body[k]?.k === 'assert') k++;
  return { ...s, body: s.body.slice(k) };
}

/** Every copy `s⟨j⟩` of a specialized func is `s⟨0⟩` with `.k<j>` added to its names (lemma 2.9). */
function copiesAnswer(before: TgtProgram, after: TgtProgram, func: string): Answer {
  const find = (t: TgtProgram): Stmt | undefined => {
    let hit: Stmt | undefined;
    const go = (s: Stmt): void => {
      if (hit) return;
      if (s.k === 'label' && s.name === func) hit = s;
      else if (s.k === 'seq') s.body.forEach(go);
      else if (s.k === 'if') (go(s.then), go(s.else));
      else if (s.k === 'for' || s.k === 'let' || s.k === 'label') go(s.body);
    };
    go(t.body);
    return hit;
  };
  const b = find(before);
  const a = find(after);
  if (!b || !a || a.k !== 'label') return { k: 'unknown', reason: `the computation of '${func}' is not found` };
  const orig = printStmt((b as Extract<Stmt, { k: 'label' }>).body);
  const branches: Stmt[] = [];
  let s: Stmt = a.body;
  while (s.k === 'if') (branches.push(s.then), (s = s.else));
  branches.push(s);
  const ok = branches.every((br) => printStmt(br).replace(/\.k[1-9]\d*\b/g, '').replace(/@k[1-9]\d*\[/g, '[') === orig);
  return ok ? { k: 'proved', how: `each branch is the computation of '${func}' with its names renamed` }
    : { k: 'unknown', reason: `a branch of '${func}' is not a renamed copy of its computation` };
}

export interface ProveOptions {
  /** per query, in milliseconds (default 5000) */
  readonly timeoutMs?: number;
}

/** The program an effect obligation is stated on. */
function programOf(o: Obligation): TgtProgram | undefined {
  return 't' in o ? o.t : undefined;
}

function witnessOf(enc: Enc, m: Model<'refsem'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, k] of enc.consts) {
    const v = m.eval(k, true);
    out[name] = enc.c.isIntVal(v) ? v.value().toString() : v.toString();
  }
  return out;
}

/** implements [EFF-DECIDE]: decides one obligation: proved, refuted with a witness, unknown with a reason. */
export async function prove(o: Obligation, opts: ProveOptions = {}): Promise<Answer> {
  const quick = syntactic(o);
  if (quick) return quick;
  const v = violationOf(o);
  if (v === undefined) return { k: 'unknown', reason: `no rule decides '${o.k}'` };
  if (typeof v === 'string') return { k: 'unknown', reason: v };
  if (typeof v === 'object') return v;
  return withZ3(async (c) => {
    const extents = new Set(programOf(o)?.window.map((w) => w.len) ?? []);
    const ask = async (p: Pol, writes: WriteMode) => {
      const enc = new Enc(c, writes, extents);
      const solver = new c.Solver();
      solver.set('timeout', opts.timeoutMs ?? 5000);
      solver.add(v(enc, p));
      for (const f of enc.facts) solver.add(f);
      const r = await solver.check();
      return { r, enc, model: r === 'sat' ? solver.model() : undefined, why: r === 'unknown' ? solver.reasonUnknown() : '' };
    };
    // Two writes of one location are first counted as a conflict whatever their values: that
    // stronger violation proves most conditions with a smaller query. Values are compared only
    // when it fails and the rest of the violation alone refutes nothing ([EFF-VALUE]).
    let may = await ask('M', 'overlap');
    if (may.r === 'unsat') return { k: 'proved' };
    const valued = may.enc.sharedWrites;
    if (valued) {
      const rest = await ask('D', 'none');
      if (rest.r === 'sat') return { k: 'refuted', witness: witnessOf(rest.enc, rest.model!), why: 'it fails at the witness' };
      may = await ask('M', 'values');
      if (may.r === 'unsat') return { k: 'proved' };
    }
    const mode: WriteMode = valued ? 'values' : 'overlap';
    if (may.r === 'sat' && may.enc.bots.size === 0) return { k: 'refuted', witness: witnessOf(may.enc, may.model!), why: 'it fails at the witness' };
    const def = may.enc.bots.size === 0 ? may : await ask('D', mode);
    if (def.r === 'sat') return { k: 'refuted', witness: witnessOf(def.enc, def.model!), why: 'it fails at the witness' };
    if (may.r === 'unknown' || def.r === 'unknown') return { k: 'unknown', reason: `the solver gave up (${may.why || def.why})` };
    return { k: 'unknown', reason: `it depends on data: ${[...may.enc.bots].join('; ')}` };
  });
}
