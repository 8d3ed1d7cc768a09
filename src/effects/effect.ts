// Effects of target programs (thesis §3.5, after Exo): effect expressions (def. 3.3), effects
// (def. 3.6) and their extraction from the statements of fig. 2.7 (§3.13). refsem's target language
// has no mutable control state — `let` binds an immutable value and loop variables are bound by
// their loops — so the global dataflow of §3.5.3 is the identity and `Lift` substitutes lets
// (spec/effects.md, [EFF-LIFT]).
import { type Expr, type Hole, type OpName, holeKey, listEquals } from '../expr/ast.js';
import { isError, toBig } from '../expr/value.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { parseLoopName } from '../target-semantics/loop-name.js';
import type { StmtPath } from '../target-semantics/walk.js';

/**
 * [EFF-COVER]: the labels after which `func` counts as computed: its computation, and each of its
 * stages (`f.s1`, `f.s1.k2`), whose successors' reads of f the completion covers as well.
 */
const coversAfter = (label: string, func: string): boolean => label === func || (label.startsWith(`${func}.s`) && /^\d+(\.k\d+)?$/.test(label.slice(func.length + 2)));

/**
 * Effect expressions (def. 3.3): integers (truth values are 0 and 1, as in fig. 2.5b), variables,
 * the unknown ⊥ with why it is unknown, operators, and `fn`, a bounds hole seen as an unknown
 * function of the loops it may depend on ([EFF-HOLE]).
 */
export type EffExpr =
  | { readonly k: 'int'; readonly v: bigint }
  | { readonly k: 'var'; readonly name: string }
  | { readonly k: 'bot'; readonly why: string }
  | { readonly k: 'op'; readonly op: OpName; readonly args: readonly EffExpr[] }
  | { readonly k: 'fn'; readonly name: string; readonly args: readonly EffExpr[] }
  /** the value a buffer holds at a point, in a written value only ([EFF-VALUE]) */
  | { readonly k: 'load'; readonly buf: string; readonly args: readonly EffExpr[] };

/** Operators whose repeated application to one location may happen in any order. */
export const REDUCE_OPS: ReadonlySet<OpName> = new Set<OpName>(['+', '*', 'min', 'max']);

/** Effects (def. 3.6); refsem has no globals, so no GlobalRead/GlobalWrite. */
export type Effect =
  | { readonly k: 'seq'; readonly items: readonly Effect[] }
  | { readonly k: 'guard'; readonly cond: EffExpr; readonly body: Effect }
  | { readonly k: 'loop'; readonly v: string; readonly body: Effect }
  | { readonly k: 'read'; readonly buf: string; readonly idx: readonly EffExpr[] }
  /** `val`: the value written ([EFF-VALUE]) */
  | { readonly k: 'write'; readonly buf: string; readonly idx: readonly EffExpr[]; readonly val: EffExpr }
  | { readonly k: 'reduce'; readonly buf: string; readonly op: OpName; readonly idx: readonly EffExpr[] }
  | { readonly k: 'alloc'; readonly buf: string }
  /** implements [EFF-COVER]: the computation of a func writes every point of it that is read after it in its scope */
  | { readonly k: 'cover'; readonly buf: string };

export const NO_EFFECT: Effect = { k: 'seq', items: [] };

export const eInt = (v: number | bigint): EffExpr => ({ k: 'int', v: BigInt(v) });
export const eVar = (name: string): EffExpr => ({ k: 'var', name });
export const eOp = (op: OpName, ...args: EffExpr[]): EffExpr => ({ k: 'op', op, args });

/** What `Lift` needs of the statements around the one analysed. */
export interface Scope {
  /** let-bound variables, already lifted */
  readonly lets: ReadonlyMap<string, EffExpr>;
  /** the enclosing loop variables, outermost first */
  readonly loops: readonly string[];
  /** a func whose computation is taken to cover the reads after it ([EFF-COVER]) */
  readonly cover?: string;
}

export const EMPTY_SCOPE: Scope = { lets: new Map(), loops: [] };

/** The func a loop variable belongs to (lemma 2.4's naming), if it is named so. */
const loopFunc = (v: string): string | undefined => parseLoopName(v)?.func;

/**
 * implements [EFF-HOLE]: a hole is an unknown integer that the bounds engine fills later with an expression over
 * the parameters and the loops enclosing the func's computation — never the func's own loops, whose
 * bounds it gives. So it is lifted as an uninterpreted function of the enclosing loops of other funcs.
 */
export function liftHole(h: Hole, scope: Scope): EffExpr {
  return { k: 'fn', name: holeKey(h), args: scope.loops.filter((v) => loopFunc(v) !== h.func).map(eVar) };
}

/**
 * implements [EFF-LIFT]: Lift (def. 3.20): an expression as an effect expression; a buffer read is ⊥,
 * or with `loads` the value the buffer holds there (for [EFF-VALUE]).
 */
export function lift(e: Expr, scope: Scope, loads = false): EffExpr {
  switch (e.k) {
    case 'const':
      return isError(e.value) ? { k: 'bot', why: 'an error value' } : { k: 'int', v: toBig(e.value) };
    case 'var':
      return scope.lets.get(e.name) ?? eVar(e.name);
    case 'hole':
      return liftHole(e.hole, scope);
    case 'access':
      return loads ? { k: 'load', buf: e.func, args: e.args.map((a) => lift(a, scope, loads)) } : { k: 'bot', why: `the value of ${e.func}[…] (data-dependent)` };
    case 'op':
      return { k: 'op', op: e.op, args: e.args.map((a) => lift(a, scope, loads)) };
  }
}

/** implements [EFF-EXPR]: Eff_e (def. 3.22): the reads an expression makes, in no particular order. */
export function exprEffect(e: Expr, scope: Scope, out: Effect[] = []): Effect[] {
  if (e.k === 'access') {
    for (const a of e.args) exprEffect(a, scope, out);
    out.push({ k: 'read', buf: e.func, idx: e.args.map((a) => lift(a, scope)) });
  } else if (e.k === 'op') {
    for (const a of e.args) exprEffect(a, scope, out);
  }
  return out;
}

const seq = (items: Effect[]): Effect => (items.length === 1 ? items[0]! : { k: 'seq', items });

/** Is `e` a read of exactly the point `f[idx]` stores to? */
export function samePoint(e: Expr, f: string, idx: readonly Expr[]): boolean {
  return e.k === 'access' && e.func === f && listEquals(e.args, idx);
}

/**
 * implements [EFF-REDUCE]: a store `f[i] <- f[i] ⊕ e` (or `e ⊕ f[i]`) with ⊕ one of +, ·, min, max — commutative
 * and associative on every value, error values included ([VAL-ERROR]) — is a reduction of f[i] by ⊕
 * with operand e: the operator and the operand, or undefined when the store is a plain write.
 */
export function reductionOf(s: Extract<Stmt, { k: 'store' }>): { op: OpName; operand: Expr } | undefined {
  const v = s.value;
  if (v.k !== 'op' || !REDUCE_OPS.has(v.op)) return undefined;
  const [a, b] = v.args as [Expr, Expr];
  if (samePoint(a, s.func, s.idx)) return { op: v.op, operand: b };
  if (samePoint(b, s.func, s.idx)) return { op: v.op, operand: a };
  return undefined;
}

/** implements [EFF-STMT]: Eff (def. 3.23) of a statement in a scope. */
export function stmtEffect(s: Stmt, scope: Scope): Effect {
  switch (s.k) {
    case 'nop':
      return NO_EFFECT;
    case 'assert':
      // A failed assertion is an allowed outcome (def. 2.3), so an assertion only reads.
      return seq(exprEffect(s.cond, scope));
    case 'seq':
      return seq(s.body.map((b) => stmtEffect(b, scope)));
    case 'label':
      return scope.cover !== undefined && coversAfter(s.name, scope.cover) ? seq([stmtEffect(s.body, scope), { k: 'cover', buf: scope.cover }]) : stmtEffect(s.body, scope);
    case 'let':
      return seq([...exprEffect(s.value, scope), stmtEffect(s.body, { ...scope, lets: new Map(scope.lets).set(s.var, lift(s.value, scope)) })]);
    case 'allocate': {
      const reads: Effect[] = [];
      for (const d of s.dims) exprEffect(d.min, scope, reads), exprEffect(d.len, scope, reads);
      return seq([...reads, { k: 'alloc', buf: s.func }]);
    }
    case 'store': {
      const idx = s.idx.map((i) => lift(i, scope));
      const reads: Effect[] = [];
      for (const i of s.idx) exprEffect(i, scope, reads);
      const red = reductionOf(s);
      if (red) return seq([...exprEffect(red.operand, scope, reads), { k: 'reduce', buf: s.func, op: red.op, idx }]);
      return seq([...exprEffect(s.value, scope, reads), { k: 'write', buf: s.func, idx, val: lift(s.value, scope, true) }]);
    }
    case 'if': {
      const c = lift(s.cond, scope);
      const branches: Effect[] = [{ k: 'guard', cond: c, body: stmtEffect(s.then, scope) }];
      const other = stmtEffect(s.else, scope);
      if (!isEmptyEffect(other)) branches.push({ k: 'guard', cond: eOp('not', c), body: other });
      return seq([...exprEffect(s.cond, scope), ...branches]);
    }
    case 'for': {
      const inner: Scope = { ...scope, loops: [...scope.loops, s.var] };
      return seq([...exprEffect(s.min, scope), ...exprEffect(s.len, scope),
        { k: 'loop', v: s.var, body: { k: 'guard', cond: loopBounds(s.var, lift(s.min, scope), lift(s.len, scope)), body: stmtEffect(s.body, inner) } }]);
    }
  }
}

/** Bd(x) of §3.5.8 for `for x in (min, len)`: min ≤ x < min + len. */
export function loopBounds(v: string, min: EffExpr, len: EffExpr): EffExpr {
  const x = eVar(v);
  return eOp('and', eOp('not', eOp('<', x, min)), eOp('<', x, eOp('+', min, len)));
}

export function isEmptyEffect(a: Effect): boolean {
  return a.k === 'seq' && a.items.every(isEmptyEffect);
}

/** The scope of the statement at `path` in `t`: the lets and loops around it, and the guards it runs under. */
export function scopeAt(t: TgtProgram, path: StmtPath): { scope: Scope; ctrl: EffExpr[] } {
  let scope = EMPTY_SCOPE;
  const ctrl: EffExpr[] = [];
  let s: Stmt = t.body;
  for (const step of path) {
    switch (s.k) {
      case 'seq':
        s = s.body[step as number]!;
        break;
      case 'if': {
        const c = lift(s.cond, scope);
        ctrl.push(step === 'then' ? c : eOp('not', c));
        s = step === 'then' ? s.then : s.else;
        break;
      }
      case 'for':
        ctrl.push(loopBounds(s.var, lift(s.min, scope), lift(s.len, scope)));
        scope = { ...scope, loops: [...scope.loops, s.var] };
        s = s.body;
        break;
      case 'let':
        scope = { ...scope, lets: new Map(scope.lets).set(s.var, lift(s.value, scope)) };
        s = s.body;
        break;
      case 'label':
        s = s.body;
        break;
      default:
        throw new Error(`internal: path step ${String(step)} into a ${s.k}`);
    }
  }
  return { scope, ctrl };
}
