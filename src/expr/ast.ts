// The expression language shared by algorithms and target programs (fig. 2.5b), extended with
// the target-only forms of fig. 2.7: labelled func references and labelled bounds holes.
import type { Loc } from '../diag.js';
import type { Value } from './value.js';

/** Operators of fig. 2.5b. `<=`, `>=`, `!=` and unary minus are sugar removed by the parser. */
export type OpName =
  | '+' | '-' | '*' | 'div' | 'mod'
  | 'or' | 'and' | 'not' | '<' | '>' | '='
  | 'select' | 'min' | 'max';

export const OP_ARITY: Readonly<Record<OpName, number>> = {
  '+': 2, '-': 2, '*': 2, div: 2, mod: 2,
  or: 2, and: 2, not: 1, '<': 2, '>': 2, '=': 2,
  select: 3, min: 2, max: 2,
};

/**
 * Label of a func reference in Tgt? (§2.6, def. 2.14): the stage whose values the reference
 * observes and the specialization it sits in. `stage` absent means the func's final stage, whose
 * compute hole is shared by all specializations; a final-stage *store* inside specialization j ≥ 1
 * still records j (printed `f@k<j>[…]`), because the stage before it is specialization j's
 * (§2.8.1, spec/schedule.md [SPECIALIZE]).
 */
export interface RefLabel {
  readonly stage?: number;
  readonly spec?: number;
}

/** A bounds hole (def. 2.14). Allocation holes carry neither stage nor specialization. */
export interface Hole {
  readonly kind: 'mem' | 'cpu';
  readonly end: 'min' | 'len';
  readonly func: string;
  readonly dim: string;
  readonly stage?: number;
  readonly spec?: number;
}

export type Expr =
  | { readonly k: 'const'; readonly value: Value; readonly loc?: Loc }
  | { readonly k: 'var'; readonly name: string; readonly loc?: Loc }
  | {
      readonly k: 'access';
      readonly func: string;
      readonly args: readonly Expr[];
      readonly ref?: RefLabel;
      readonly loc?: Loc;
    }
  | { readonly k: 'op'; readonly op: OpName; readonly args: readonly Expr[]; readonly loc?: Loc }
  | { readonly k: 'hole'; readonly hole: Hole; readonly loc?: Loc };

export const cst = (value: Value): Expr => ({ k: 'const', value });
export const vr = (name: string): Expr => ({ k: 'var', name });
export const op = (o: OpName, ...args: Expr[]): Expr => ({ k: 'op', op: o, args });
export const access = (func: string, args: readonly Expr[], ref?: RefLabel): Expr =>
  ref ? { k: 'access', func, args, ref } : { k: 'access', func, args };
export const hole = (h: Hole): Expr => ({ k: 'hole', hole: h });

/** Canonical text of a hole; also its identity (two holes are the same iff their keys are). */
export function holeKey(h: Hole): string {
  const tag = h.stage === undefined ? '' : `@s${h.stage}${h.spec ? `.k${h.spec}` : ''}`;
  return `?${h.kind}.${h.end}(${h.func}.${h.dim}${tag})`;
}

/** Canonical text of a reference label (empty for the final stage). */
export function refKey(r: RefLabel | undefined): string {
  if (!r) return '';
  if (r.stage === undefined) return r.spec ? `@k${r.spec}` : '';
  return `@s${r.stage}${r.spec ? `.k${r.spec}` : ''}`;
}

/** Structural equality that ignores source locations. */
export function exprEquals(a: Expr, b: Expr): boolean {
  if (a.k !== b.k) return false;
  switch (a.k) {
    case 'const':
      return a.value === (b as typeof a).value;
    case 'var':
      return a.name === (b as typeof a).name;
    case 'hole':
      return holeKey(a.hole) === holeKey((b as typeof a).hole);
    case 'access': {
      const bb = b as typeof a;
      return a.func === bb.func && refKey(a.ref) === refKey(bb.ref) && listEquals(a.args, bb.args);
    }
    case 'op': {
      const bb = b as typeof a;
      return a.op === bb.op && listEquals(a.args, bb.args);
    }
  }
}

/** Element-wise {@link exprEquals}. */
export function listEquals(a: readonly Expr[], b: readonly Expr[]): boolean {
  return a.length === b.length && a.every((e, i) => exprEquals(e, b[i]!));
}

/** Removes source locations, for comparing trees and for printing tests. */
export function stripExprLocs(e: Expr): Expr {
  switch (e.k) {
    case 'const':
      return { k: 'const', value: e.value };
    case 'var':
      return { k: 'var', name: e.name };
    case 'hole':
      return { k: 'hole', hole: e.hole };
    case 'access':
      return access(e.func, e.args.map(stripExprLocs), e.ref);
    case 'op':
      return { k: 'op', op: e.op, args: e.args.map(stripExprLocs) };
  }
}

/** Free variables of an expression (variables only, not funcs or holes). */
export function freeVars(e: Expr, out: Set<string> = new Set()): Set<string> {
  switch (e.k) {
    case 'var':
      out.add(e.name);
      break;
    case 'access':
    case 'op':
      for (const a of e.args) freeVars(a, out);
      break;
    default:
      break;
  }
  return out;
}

/** Capture-free substitution of expressions for variables (expressions bind nothing). */
export function substExpr(e: Expr, sub: ReadonlyMap<string, Expr>): Expr {
  switch (e.k) {
    case 'var':
      return sub.get(e.name) ?? e;
    case 'access':
      return { ...e, args: e.args.map((a) => substExpr(a, sub)) };
    case 'op':
      return { ...e, args: e.args.map((a) => substExpr(a, sub)) };
    default:
      return e;
  }
}

/** Does the expression mention any func access? */
export function hasAccess(e: Expr): boolean {
  if (e.k === 'access') return true;
  return e.k === 'op' ? e.args.some(hasAccess) : false;
}

/** Calls `f` on every subexpression, outermost first. */
export function walkExpr(e: Expr, f: (e: Expr) => void): void {
  f(e);
  if (e.k === 'access' || e.k === 'op') for (const a of e.args) walkExpr(a, f);
}
