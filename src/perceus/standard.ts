// The standard strict semantics of λ1 (fig. 4.6): a substitution-based small-step evaluator that
// follows the rules one by one and can print its trace. It is the reference the heap machine is
// checked against (theorem 4.1). Slow by design; the context E is an explicit stack of
// `val x = □; e` frames so deep recursion does not touch the JS stack.
import type { Loc } from '../diag.js';
import { INT_OPS } from '../expr/ops.js';
import type { Int } from '../expr/value.js';
import { printExpr } from './print.js';
import { ENTRY, type Expr, type FunDecl, type Program, children, foldExpr, funMap } from './syntax.js';

/**
 * Values built by evaluation (closed): substitution never descends into them, so a value bound to
 * a name is one object wherever the name is substituted — the sharing the heap machine has.
 */
const VALUES = new WeakSet<Expr>();
/**
 * Nodes of the program text. Substitution always copies them, so every instantiation of a body
 * builds its own constructors and closures (one per [CON-R] and [LAM-R] of the heap machine), even
 * a closed `Cons(1, Nil)` that evaluation has already seen as a value.
 */
const CODE = new WeakSet<Expr>();

/** Is `e`, a term in evaluation position (closed), a value? Marks it as one. */
function isValue(e: Expr): boolean {
  if (e.k === 'lit' || VALUES.has(e)) return true;
  if (e.k === 'lam' && !CODE.has(e)) {
    VALUES.add(e);
    return true;
  }
  if (e.k !== 'con' || CODE.has(e)) return false;
  for (const a of e.args) if (!isValue(a)) return false;
  VALUES.add(e);
  return true;
}

/** e[x := v, …] for closed values v (so no capture can occur). */
export function subst(e: Expr, s: ReadonlyMap<string, Expr>): Expr {
  if (e.k === 'lit' || VALUES.has(e) || (s.size === 0 && !CODE.has(e))) return e;
  const go = (x: Expr) => subst(x, s);
  const under = (names: readonly string[], x: Expr) => {
    if (!names.some((n) => s.has(n))) return go(x);
    const t = new Map(s);
    for (const n of names) t.delete(n);
    return subst(x, t);
  };
  switch (e.k) {
    case 'var':
      return s.get(e.name) ?? e;
    case 'lam':
      return { ...e, body: under([e.param], e.body) };
    case 'app':
      return { ...e, fn: go(e.fn), arg: go(e.arg) };
    case 'call':
    case 'prim':
    case 'con':
      return { ...e, args: e.args.map(go) };
    case 'val':
      return { ...e, bound: go(e.bound), body: under([e.name], e.body) };
    case 'match':
      return { ...e, scrut: go(e.scrut), branches: e.branches.map((b) => ({ ...b, body: under(b.binders, b.body) })) };
    case 'if':
      return { ...e, cond: go(e.cond), then: go(e.then), else: go(e.else) };
    case 'dup':
    case 'drop':
    case 'dropreuse':
    case 'dropspec':
      // The standard semantics runs erased programs only.
      throw new Error(`internal: the standard semantics met '${e.k}'`);
  }
}

export type StdOutcome =
  /** `peakReachable`, when measured: the most cells ever reachable (see countReachable). */
  | { readonly kind: 'value'; readonly value: Expr; readonly steps: number; readonly peakReachable?: number }
  | { readonly kind: 'stuck'; readonly reason: string; readonly steps: number; readonly loc?: Loc }
  | { readonly kind: 'budget'; readonly steps: number; readonly loc?: Loc };

export interface StdTraceLine {
  readonly step: number;
  readonly rule: string;
  readonly text: string;
}

const line = (e: Expr) => {
  const s = printExpr(e).replace(/\s+/g, ' ');
  return s.length > 72 ? s.slice(0, 69) + '...' : s;
};

function bindAll(names: readonly string[], vals: readonly Expr[]): Map<string, Expr> {
  return new Map(names.map((n, i) => [n, vals[i]!]));
}

/**
 * The cells a state of the standard semantics holds: the distinct values with fields and the
 * closures reachable from the expression and the pending frames. By theorem 4.4 a garbage-free
 * heap holds no more cells than this at any step that allocates (spec/perceus.md, [PEAK-LIVE]).
 */
function countReachable(cur: Expr, frames: readonly { body: Expr }[]): number {
  const seen = new Set<Expr>();
  // The bound expression in evaluation position is closed: a closure there is already a cell.
  if (cur.k === 'val') isValue(cur.bound);
  const todo: Expr[] = [cur, ...frames.map((f) => f.body)];
  while (todo.length > 0) {
    const e = todo.pop()!;
    // A constructor whose fields are all values is closed, wherever it stands; a closure is a
    // cell once it has been evaluated.
    if ((e.k === 'con' && isValue(e)) || (e.k === 'lam' && VALUES.has(e))) {
      if (seen.has(e) || (e.k === 'con' && e.args.length === 0)) continue;
      seen.add(e);
    }
    for (const c of children(e)) todo.push(c);
  }
  return seen.size;
}

/** Evaluates `main` of an erased program: main ⟼* v (fig. 4.6); `measure` records peakReachable. */
export function evalStandard(p: Program, maxSteps = 10_000_000, trace?: StdTraceLine[], measure = false): StdOutcome {
  const funs: Map<string, FunDecl> = funMap(p);
  for (const f of p.funs) foldExpr(f.body, CODE, (code, e) => code.add(e));
  const frames: { name: string; body: Expr }[] = [];
  let cur: Expr = subst(funs.get(ENTRY)!.body, new Map());
  let steps = 0;
  let peak = 0;
  const stuck = (reason: string, at: Expr): StdOutcome => ({ kind: 'stuck', reason, steps, ...(at.loc ? { loc: at.loc } : {}) });
  for (;;) {
    if (steps >= maxSteps) return { kind: 'budget', steps, ...(cur.loc ? { loc: cur.loc } : {}) };
    let rule: string;
    const before = cur;
    if (isValue(cur)) {
      const f = frames.pop();
      if (!f) return { kind: 'value', value: cur, steps, ...(measure ? { peakReachable: peak } : {}) };
      // (bind): val x = v; e ⟶ e[x := v], the frame being the context.
      cur = subst(f.body, new Map([[f.name, cur]]));
      rule = 'STD-BIND';
    } else {
      switch (cur.k) {
        case 'val':
          if (!isValue(cur.bound)) {
            // [STD-EVAL]: E ::= val x = E; e — focus on the bound expression.
            frames.push({ name: cur.name, body: cur.body });
            if (trace) trace.push({ step: steps, rule: 'STD-EVAL', text: `val ${cur.name} = □; …` });
            cur = cur.bound;
            continue;
          }
          cur = subst(cur.body, new Map([[cur.name, cur.bound]]));
          rule = 'STD-BIND';
          break;
        case 'app': {
          // (app): (λx. e) v ⟶ e[x := v]
          const f = cur.fn;
          if (f.k !== 'lam' || !isValue(cur.arg)) return stuck('application of a value that is not a function', cur);
          cur = subst(f.body, new Map([[f.param, cur.arg]]));
          rule = 'STD-APP';
          break;
        }
        case 'call': {
          const f = funs.get(cur.fn)!;
          cur = subst(f.body, bindAll(f.params, cur.args));
          rule = 'STD-CALL';
          break;
        }
        case 'prim': {
          const args = cur.args;
          if (!args.every((a) => a.k === 'lit')) return stuck(`primitive '${cur.op}' applied to a value that is not an integer`, cur);
          const r = INT_OPS[cur.op](...args.map((a) => (a as { value: Int }).value));
          cur = { k: 'lit', value: r, ...(cur.loc ? { loc: cur.loc } : {}) };
          rule = 'STD-PRIM';
          break;
        }
        case 'match': {
          // (match): match (C v1 … vn) {pi ↦ ei} ⟶ ei[x1 := v1, …] with pi = C x1 … xn
          const v = cur.scrut;
          const b = v.k === 'con' ? cur.branches.find((br) => br.con === v.con) : undefined;
          if (!b || v.k !== 'con') return stuck('match on a value that is not a constructor of the matched type', cur);
          cur = subst(b.body, bindAll(b.binders, v.args));
          rule = 'STD-MATCH';
          break;
        }
        case 'if': {
          const c = cur.cond;
          if (c.k !== 'lit') return stuck('if on a value that is not an integer', cur);
          cur = c.value !== 0 ? cur.then : cur.else;
          rule = 'STD-IF';
          break;
        }
        default:
          return stuck(`cannot evaluate '${cur.k}' here`, cur);
      }
    }
    steps++;
    if (measure) peak = Math.max(peak, countReachable(cur, frames));
    if (trace) trace.push({ step: steps, rule, text: line(before) });
  }
}

/** Structural equality of result values; functions are equal to functions (not observable). */
export function valueEquals(a: Expr, b: Expr): boolean {
  const todo: [Expr, Expr][] = [[a, b]];
  while (todo.length > 0) {
    const [x, y] = todo.pop()!;
    if (x.k === 'lit' && y.k === 'lit') {
      if (x.value !== y.value) return false;
    } else if (x.k === 'con' && y.k === 'con') {
      if (x.con !== y.con || x.args.length !== y.args.length) return false;
      x.args.forEach((xa, i) => todo.push([xa, y.args[i]!]));
    } else if (!(x.k === 'lam' && y.k === 'lam')) return false;
  }
  return true;
}

/** Prints a value, eliding beyond `budget` characters. */
export function printValue(v: Expr, budget = 400): string {
  let out = '';
  const todo: (Expr | string)[] = [v];
  while (todo.length > 0) {
    if (out.length > budget) return out + '…';
    const x = todo.pop()!;
    if (typeof x === 'string') out += x;
    else if (x.k === 'lit') out += x.value.toString();
    else if (x.k === 'lam') out += '<fun>';
    else if (x.k === 'con') {
      out += x.con;
      if (x.args.length > 0) {
        const parts: (Expr | string)[] = ['('];
        x.args.forEach((a, i) => parts.push(...(i ? [', ', a] : [a])));
        parts.push(')');
        for (let i = parts.length - 1; i >= 0; i--) todo.push(parts[i]!);
      }
    } else out += '?';
  }
  return out;
}
