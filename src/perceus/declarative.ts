// The declarative linear resource calculus of fig. 4.5 as a decision procedure: is an annotated
// program derivable, Δ | Γ ⊢ [e′] ⇝ e′, from its erasure? Theorem 4.3 says Perceus output always
// is (docs/proofs/perceus.md). The rules are non-deterministic only in how [APP], [BIND] and [CON]
// split Γ; for a given e′ the split is forced, because each part must own exactly what its
// sub-derivation consumes (`consumes`, below), so checking is syntax-directed too.
import type { Loc } from '../diag.js';
import { printExpr } from './print.js';
import { type Expr, type FunDecl, type Program, erase, freeVars } from './syntax.js';

/** A multiset of names (counts may go negative while a dup borrows; derivable ones never do). */
export type Bag = Map<string, number>;

function bag(names: Iterable<string> = []): Bag {
  const b: Bag = new Map();
  for (const n of names) bump(b, n, 1);
  return b;
}
function bump(b: Bag, n: string, d: number): Bag {
  const v = (b.get(n) ?? 0) + d;
  if (v === 0) b.delete(n);
  else b.set(n, v);
  return b;
}
function plus(a: Bag, b: Bag): Bag {
  const out = new Map(a);
  for (const [n, v] of b) bump(out, n, v);
  return out;
}
function without(a: Bag, names: Iterable<string>): Bag {
  const out = new Map(a);
  for (const n of names) out.delete(n);
  return out;
}
function sameBag(a: Bag, b: Bag): boolean {
  if (a.size !== b.size) return false;
  for (const [n, v] of a) if (b.get(n) !== v) return false;
  return true;
}
export function showBag(b: Bag): string {
  return `{${[...b].sort(([x], [y]) => (x < y ? -1 : 1)).flatMap(([n, v]) => Array(Math.max(v, 1)).fill(v < 0 ? `${n}^${v}` : n)).join(', ')}}`;
}

/**
 * The owned resources an annotated expression consumes: one per consuming occurrence, a
 * closure consumes what it captures, `drop x` consumes x and `dup x` provides one. This is the Γ
 * any derivation of e′ must have.
 */
export function consumes(e: Expr): Bag {
  switch (e.k) {
    case 'var':
      return bag([e.name]);
    case 'lit':
      return bag();
    case 'con':
    case 'call':
    case 'prim': {
      const b = e.args.reduce((acc, a) => plus(acc, consumes(a)), bag());
      return e.k === 'con' && e.reuse !== undefined ? bump(b, e.reuse, 1) : b;
    }
    case 'app':
      return plus(consumes(e.fn), consumes(e.arg));
    case 'lam':
      return bag(freeVars(erase(e)));
    case 'val':
      return plus(consumes(e.bound), without(consumes(e.body), [e.name]));
    case 'match':
      return bump(without(consumes(e.branches[0]!.body), [...e.branches[0]!.binders, ...(e.branches[0]!.token ? [e.branches[0]!.token] : [])]), (e.scrut as { name: string }).name, 1);
    case 'if':
      return bump(consumes(e.then), (e.cond as { name: string }).name, 1);
    case 'dup':
      return bump(consumes(e.body), e.name, -1);
    case 'drop':
      return bump(consumes(e.body), e.name, 1);
    case 'dropreuse':
      return bump(without(consumes(e.body), [e.token]), e.name, 1);
    case 'dropspec': {
      const b = bump(without(consumes(e.body), e.token === undefined ? [] : [e.token]), e.name, 1);
      for (const p of e.pushed) bump(b, p, -1);
      return b;
    }
  }
}

export interface NotDerivable {
  readonly fun: string;
  readonly rule: string;
  readonly message: string;
  readonly loc?: Loc;
}

class Fail extends Error {
  constructor(
    readonly rule: string,
    readonly why: string,
    readonly loc: Loc | undefined,
  ) {
    super(why);
  }
}

const short = (e: Expr) => {
  const s = printExpr(e).replace(/\s+/g, ' ');
  return s.length > 60 ? s.slice(0, 57) + '...' : s;
};

/** The rule of fig. 4.5 (or its extensions) whose conclusion has the shape of e. */
const RULE: Readonly<Record<Expr['k'], string>> = {
  var: 'LIN-VAR', lit: 'LIN-LIT', con: 'LIN-CON', call: 'LIN-CALL', prim: 'LIN-PRIM', app: 'LIN-APP', lam: 'LIN-LAM',
  val: 'LIN-BIND', match: 'LIN-MATCH', if: 'LIN-IF', dup: 'LIN-DUP', drop: 'LIN-DROP', dropreuse: 'LIN-DROP', dropspec: 'LIN-DROP',
};

/** The rule that checks a whole function. */
export const LIN_FUN = 'LIN-FUN';

/** The rule of fig. 4.5 that checks a node of this kind (rule coverage, rules-fired.ts). */
export function linRuleOf(e: Expr): string {
  return RULE[e.k];
}

function check(delta: ReadonlySet<string>, gamma: Bag, e: Expr): void {
  const rule = RULE[e.k];
  const need = consumes(e);
  for (const [n, v] of need) if (v < 0) throw new Fail(rule, `'dup ${n}' has nothing to duplicate into: ${n} is never consumed in ${short(e)}`, e.loc);
  if (!sameBag(need, gamma)) throw new Fail(rule, `owned environment ${showBag(gamma)} but ${short(e)} consumes ${showBag(need)}`, e.loc);
  const bor = (extra: Bag) => new Set([...delta, ...extra.keys()]);
  switch (e.k) {
    case 'var':
    case 'lit':
      return;
    case 'con':
    case 'call':
    case 'prim': {
      let later: Bag = e.k === 'con' && e.reuse !== undefined ? bag([e.reuse]) : bag();
      for (let i = e.args.length - 1; i >= 0; i--) {
        const gi = consumes(e.args[i]!);
        check(bor(later), gi, e.args[i]!);
        later = plus(later, gi);
      }
      return;
    }
    case 'app':
      check(bor(consumes(e.arg)), consumes(e.fn), e.fn);
      return check(delta, consumes(e.arg), e.arg);
    case 'lam':
      // [LIN-LAM]: exactly the free variables are owned (the closure), the body is derived alone.
      return check(new Set(), bump(new Map(gamma), e.param, 1), e.body);
    case 'val': {
      const g2 = without(consumes(e.body), [e.name]);
      check(bor(g2), consumes(e.bound), e.bound);
      if ((consumes(e.body).get(e.name) ?? 0) !== 1) throw new Fail(rule, `${e.name} must be consumed exactly once in the body of its binding`, e.loc);
      return check(delta, bump(g2, e.name, 1), e.body);
    }
    case 'match':
    case 'if': {
      const x = (e.k === 'match' ? e.scrut : e.cond) as { name: string };
      const rest = bump(new Map(gamma), x.name, -1);
      const arms =
        e.k === 'match'
          ? e.branches.map((b) => ({ what: `${b.con} branch`, bound: b.token ? [...b.binders, b.token] : [...b.binders], body: b.body, loc: b.loc }))
          : [{ what: 'then branch', bound: [], body: e.then, loc: e.then.loc }, { what: 'else branch', bound: [], body: e.else, loc: e.else.loc }];
      for (const a of arms) {
        const owned = plus(rest, bag(a.bound));
        const need = consumes(a.body);
        if (!sameBag(owned, need)) throw new Fail(rule, `the ${a.what} owns ${showBag(owned)} but consumes ${showBag(need)}`, a.loc ?? e.loc);
        check(delta, owned, a.body);
      }
      return;
    }
    case 'dup':
      if (!delta.has(e.name) && !gamma.has(e.name)) throw new Fail(rule, `dup ${e.name}: ${e.name} is neither owned nor borrowed here`, e.loc);
      return check(delta, bump(new Map(gamma), e.name, 1), e.body);
    case 'drop':
      return check(delta, bump(new Map(gamma), e.name, -1), e.body);
    case 'dropreuse':
    case 'dropspec':
      throw new Fail(rule, `'${e.k}' is an optimization instruction outside the calculus of fig. 4.5`, e.loc);
  }
}

/** [LIN-FUN]: ∅ | params ⊢ body ⇝ body′. */
export function checkFun(f: FunDecl): NotDerivable | undefined {
  try {
    const need = consumes(f.body);
    if (!sameBag(need, bag(f.params))) throw new Fail(LIN_FUN, `a function owns its parameters ${showBag(bag(f.params))} but its body consumes ${showBag(need)}`, f.loc);
    check(new Set(), bag(f.params), f.body);
    return undefined;
  } catch (e) {
    if (e instanceof Fail) return { fun: f.name, rule: e.rule, message: e.why, ...(e.loc ? { loc: e.loc } : f.loc ? { loc: f.loc } : {}) };
    throw e;
  }
}

/** The first function whose annotated body is not derivable from its erasure, if any. */
export function checkDerivable(p: Program): NotDerivable | undefined {
  for (const f of p.funs) {
    const r = checkFun(f);
    if (r) return r;
  }
  return undefined;
}
