// What the bounds-phase directives (§2.8.5) share: they do not rewrite loops but record a
// BoundsHint for the bounds engine, on a pure dimension of a func's final stage, at most one per
// func dimension.
import type { Expr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import type { BoundsHint, TgtProgram } from '../target-semantics/ast.js';
import { holesOf } from '../target-semantics/holes.js';
import { assertAtStart, constValue, dimsOf, funcsOf, requireFunc, requireStartup } from './loops.js';
import { Rejection } from './plugin.js';

/**
 * [BOUNDS-DIM] `f.x` names a pure dimension some stage of f loops over — one with a compute hole
 * the hint constrains (the final stage's, or else those of the stages that loop over it,
 * [HINT-STAGES]); [BOUNDS-ONCE] no other bounds directive names it.
 */
export function hintTarget(t: TgtProgram, text: string): { func: string; dim: string } {
  const [func, dim] = text.split('.') as [string, string];
  requireFunc(t, func);
  const dims = dimsOf(t, func);
  if (!dims.includes(dim)) {
    throw new Rejection('BOUNDS-DIM', `'${func}' has no dimension '${dim}'`, `its dimensions are: ${dims.join(', ') || 'none'}`);
  }
  if (!holesOf(t).some((h) => h.kind === 'cpu' && h.func === func && h.dim === dim)) {
    throw new Rejection('BOUNDS-DIM', `no stage of '${func}' loops over '${dim}', so it has no compute bounds to fix`,
      'bounds directives apply to dimensions some stage loops over (def. 2.8)');
  }
  const prev = (t.hints ?? []).find((h) => h.func === func && h.dim === dim);
  if (prev) throw new Rejection('BOUNDS-ONCE', `${func}.${dim} already has a ${prev.k} directive`, 'give at most one bounds directive per func dimension');
  return { func, dim };
}

/** Checks that a hint expression is a startup expression and, if constant, at least `least`. */
export function hintExpr(t: TgtProgram, e: Expr, what: string, least: number, rule: string): void {
  requireStartup(t, e, what);
  const c = constValue(e);
  if (c !== undefined && c < least) throw new Rejection(rule, `${what} must be at least ${least}, not ${printExpr(e, 'tgt')}`);
}

/**
 * The program with hint h recorded for the bounds engine and the loops unchanged (lemma 2.17):
 * only assertions are added — `checks` that are not constant, at the very start of the program,
 * so that a bad startup value (a negative extent, a modulus ≤ 0) fails an assertion before any
 * allocation or loop could use it.
 */
export function withHint(t: TgtProgram, h: BoundsHint, checks: readonly Expr[] = []): TgtProgram {
  const checked = assertAtStart(t, checks);
  return { ...checked, hints: [...(t.hints ?? []), h] };
}

/** Candidate `f.x` targets for `generate`: dimensions with a compute hole. */
export function hintTargets(t: TgtProgram): string[] {
  const dims = new Set(holesOf(t).flatMap((h) => (h.kind === 'cpu' ? [`${h.func}.${h.dim}`] : [])));
  return funcsOf(t).flatMap((f) => dimsOf(t, f).map((x) => `${f}.${x}`).filter((d) => dims.has(d)));
}
