// λ1 (fig. 4.4) with the documented extensions of spec/perceus.md: data type declarations,
// top-level recursive functions, unboxed integers with primitive operations, `if`. The same tree
// carries the reference-counting instructions of fig. 4.4 (dup, drop) and those of the
// optimizations (§4.2.3–4.2.5: drop-reuse, specialized drops, C@ru).
import type { Loc } from '../diag.js';
import type { OpName } from '../expr/ast.js';
import type { Int } from '../expr/value.js';

/** One reference-counting instruction inside a specialized drop (§4.2.3). */
export interface RcOp {
  readonly op: 'dup' | 'drop';
  readonly name: string;
}

/**
 * A sub-pattern of a nested pattern (spec/perceus.md, [NESTED-PATTERN]): a name (a variable, `_`,
 * or a nullary constructor), an integer, or a constructor with sub-patterns. Only the parser makes
 * them; resolution turns them into nested flat matches.
 */
export type Pattern =
  | { readonly k: 'name'; readonly name: string }
  | { readonly k: 'lit'; readonly value: Int }
  | { readonly k: 'con'; readonly con: string; readonly args: readonly Pattern[] };

export interface Branch {
  readonly con: string;
  /** The sub-patterns of a nested pattern, before resolution; `binders` then holds placeholders. */
  readonly pats?: readonly Pattern[];
  /** Pattern binders; wildcards are given fresh names by the normalizer (spec: "Wildcards"). */
  readonly binders: readonly string[];
  readonly body: Expr;
  /** Reuse token bound in this branch by reuse analysis (§4.2.4). */
  readonly token?: string;
  readonly loc?: Loc;
}

export type Expr =
  | { readonly k: 'var'; readonly name: string; readonly loc?: Loc }
  | { readonly k: 'lit'; readonly value: Int; readonly loc?: Loc }
  | { readonly k: 'lam'; readonly param: string; readonly body: Expr; readonly loc?: Loc }
  | { readonly k: 'app'; readonly fn: Expr; readonly arg: Expr; readonly loc?: Loc }
  | { readonly k: 'call'; readonly fn: string; readonly args: readonly Expr[]; readonly loc?: Loc }
  | {
      readonly k: 'con';
      readonly con: string;
      readonly args: readonly Expr[];
      /** C@ru: the reuse token (§4.2.4). */
      readonly reuse?: string;
      /** Reuse specialization (§4.2.5): fields that already hold the right value in place. */
      readonly keep?: readonly boolean[];
      readonly loc?: Loc;
    }
  | { readonly k: 'prim'; readonly op: OpName; readonly args: readonly Expr[]; readonly loc?: Loc }
  | { readonly k: 'val'; readonly name: string; readonly bound: Expr; readonly body: Expr; readonly loc?: Loc }
  | {
      readonly k: 'match';
      readonly scrut: Expr;
      readonly branches: readonly Branch[];
      /** Elaborated form (footnote 4): the branches carry their own dup/drop of fields and scrutinee. */
      readonly elab?: boolean;
      readonly loc?: Loc;
    }
  | { readonly k: 'if'; readonly cond: Expr; readonly then: Expr; readonly else: Expr; readonly loc?: Loc }
  | { readonly k: 'dup'; readonly name: string; readonly body: Expr; readonly loc?: Loc }
  | { readonly k: 'drop'; readonly name: string; readonly body: Expr; readonly loc?: Loc }
  /** `val token = drop-reuse name; body` (§4.2.4). */
  | { readonly k: 'dropreuse'; readonly name: string; readonly token: string; readonly body: Expr; readonly loc?: Loc }
  /**
   * A specialized `drop name` (or `drop-reuse`, when `token` is set), §4.2.3 and §4.2.5:
   * `if is-unique(name) then { unique; free | &name } else { shared; decref | NULL }; body`.
   * `pushed` are the dups moved in by fusion: the node means `dup pushed; drop name` formally.
   */
  | {
      readonly k: 'dropspec';
      readonly name: string;
      readonly unique: readonly RcOp[];
      readonly shared: readonly RcOp[];
      readonly pushed: readonly string[];
      readonly token?: string;
      readonly body: Expr;
      readonly loc?: Loc;
    };

export interface ConInfo {
  readonly name: string;
  readonly type: string;
  readonly arity: number;
  /** the field names the declaration gives (printing only: fields are positional) */
  readonly fields?: readonly string[];
  /** Position within its type (the runtime tag). */
  readonly index: number;
  readonly loc?: Loc;
}

export interface TypeDecl {
  readonly name: string;
  readonly cons: readonly ConInfo[];
  readonly loc?: Loc;
}

export interface FunDecl {
  readonly name: string;
  readonly params: readonly string[];
  readonly body: Expr;
  readonly loc?: Loc;
}

export interface Program {
  readonly file: string;
  readonly types: readonly TypeDecl[];
  readonly cons: ReadonlyMap<string, ConInfo>;
  readonly funs: readonly FunDecl[];
}

export const ENTRY = 'main';

export function funMap(p: Program): Map<string, FunDecl> {
  return new Map(p.funs.map((f) => [f.name, f]));
}

/**
 * fv(e) of §4.3.1, counting the names in reference-counting instructions too (they are
 * references the heap machine must keep alive). `erased` gives fv([e]): dup, drop and the
 * reuse machinery removed.
 */
export function freeVars(e: Expr, erased = false): ReadonlySet<string> {
  // Compositional and memoized per node (expressions are immutable): the derivation checks ask
  // for fv of every subterm, which walking each subterm afresh makes quadratic. The set lists
  // names in order of first free occurrence, as a left-to-right walk would (closure captures and
  // dup order follow it).
  const memo = erased ? FV_ERASED : FV;
  const known = memo.get(e);
  if (known) return known;
  const out = new Set<string>();
  const add = (n: string) => out.add(n);
  const addFree = (x: Expr, bound: readonly string[] = []) => {
    for (const n of freeVars(x, erased)) if (!bound.includes(n)) out.add(n);
  };
  switch (e.k) {
    case 'var':
      add(e.name);
      break;
    case 'lit':
      break;
    case 'lam':
      addFree(e.body, [e.param]);
      break;
    case 'app':
      addFree(e.fn);
      addFree(e.arg);
      break;
    case 'call':
    case 'prim':
      for (const a of e.args) addFree(a);
      break;
    case 'con':
      for (const a of e.args) addFree(a);
      if (e.reuse !== undefined && !erased) add(e.reuse);
      break;
    case 'val':
      addFree(e.bound);
      addFree(e.body, [e.name]);
      break;
    case 'match':
      addFree(e.scrut);
      for (const b of e.branches) addFree(b.body, b.token === undefined ? b.binders : [...b.binders, b.token]);
      break;
    case 'if':
      addFree(e.cond);
      addFree(e.then);
      addFree(e.else);
      break;
    case 'dup':
    case 'drop':
      if (!erased) add(e.name);
      addFree(e.body);
      break;
    case 'dropreuse':
      if (!erased) add(e.name);
      addFree(e.body, [e.token]);
      break;
    case 'dropspec':
      if (!erased) {
        add(e.name);
        for (const o of [...e.unique, ...e.shared]) add(o.name);
      }
      addFree(e.body, e.token === undefined ? [] : [e.token]);
      break;
  }
  memo.set(e, out);
  return out;
}

const FV = new WeakMap<Expr, ReadonlySet<string>>();
const FV_ERASED = new WeakMap<Expr, ReadonlySet<string>>();

// A generic walk over λ1 expressions. Every pass of ch. 4 (elaboration, drop specialization,
// fusion, reuse specialization, erasure, …) rewrites a few node kinds and leaves the rest alone;
// `mapChildren` rebuilds a node from its rewritten children, so a pass spells out only the kinds
// it changes, as Halide's IRMutator does for its IR.

/** The node with `f` applied to each direct sub-expression (and nothing else changed). */
export function mapChildren(e: Expr, f: (child: Expr) => Expr): Expr {
  switch (e.k) {
    case 'var':
    case 'lit':
      return e;
    case 'lam':
      return { ...e, body: f(e.body) };
    case 'app':
      return { ...e, fn: f(e.fn), arg: f(e.arg) };
    case 'call':
    case 'prim':
    case 'con':
      return { ...e, args: e.args.map(f) } as Expr;
    case 'val':
      return { ...e, bound: f(e.bound), body: f(e.body) };
    case 'match':
      return { ...e, scrut: f(e.scrut), branches: e.branches.map((b) => ({ ...b, body: f(b.body) })) };
    case 'if':
      return { ...e, cond: f(e.cond), then: f(e.then), else: f(e.else) };
    case 'dup':
    case 'drop':
    case 'dropreuse':
    case 'dropspec':
      return { ...e, body: f(e.body) };
  }
}

/** The direct sub-expressions of a node, in evaluation order. */
export function children(e: Expr): readonly Expr[] {
  const out: Expr[] = [];
  mapChildren(e, (c) => (out.push(c), c));
  return out;
}

/** Folds `f` over every node of `e`, parents before children. */
export function foldExpr<A>(e: Expr, acc: A, f: (acc: A, node: Expr) => A): A {
  let a = f(acc, e);
  for (const c of children(e)) a = foldExpr(c, a, f);
  return a;
}

/** [e]: the expression with every reference-counting instruction removed (§4.3.2). */
export function erase(e: Expr): Expr {
  switch (e.k) {
    case 'con': {
      const { reuse: _r, keep: _k, ...rest } = e;
      return { ...rest, args: e.args.map(erase) };
    }
    case 'match': {
      const { elab: _e, ...rest } = e;
      return {
        ...rest,
        scrut: erase(e.scrut),
        branches: e.branches.map(({ token: _t, ...b }) => ({ ...b, body: erase(b.body) })),
      };
    }
    case 'dup':
    case 'drop':
    case 'dropreuse':
    case 'dropspec':
      return erase(e.body);
    default:
      return mapChildren(e, erase);
  }
}

export function eraseProgram(p: Program): Program {
  return { ...p, funs: p.funs.map((f) => ({ ...f, body: erase(f.body) })) };
}

/** An atom of the A-normal core: a variable, a literal or a nullary constructor. */
export function isAtom(e: Expr): boolean {
  return e.k === 'var' || e.k === 'lit' || (e.k === 'con' && e.args.length === 0);
}

/** Wraps `body` in one instruction per name, first name outermost. */
export function wrapRc(kind: 'dup' | 'drop', names: Iterable<string>, body: Expr): Expr {
  const ns = [...names];
  let out = body;
  for (let i = ns.length - 1; i >= 0; i--) out = { k: kind, name: ns[i]!, body: out };
  return out;
}

/** Applies `f` to every function body. */
export function mapBodies(p: Program, f: (body: Expr, fun: FunDecl) => Expr): Program {
  return { ...p, funs: p.funs.map((d) => ({ ...d, body: f(d.body, d) })) };
}
