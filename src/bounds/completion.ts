// Completions [Γ]T (def. 2.15): filling the holes of a Tgt? program, inserting the covering
// assertions that bounds hints ask for, and the failure program of the lifted engine (§2.7.2).
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { type Completion, fillHoles, withoutHints } from '../target-semantics/holes.js';
import type { CoverAssertion } from './beta0.js';

/**
 * T with each covering assertion placed just before `label f` in its sequence ([COMPLETE-ASSERT]):
 * the compute holes of f are in scope there, and the assertion guards f's loops and every later
 * statement, f's consumers included; a failing assertion stops the program, which confluence
 * (def. 2.3) allows.
 */
export function withAssertions(t: TgtProgram, assertions: readonly CoverAssertion[]): TgtProgram {
  if (assertions.length === 0) return t;
  const byFunc = new Map<string, CoverAssertion[]>();
  for (const a of assertions) byFunc.set(a.func, [...(byFunc.get(a.func) ?? []), a]);
  // An assertion stands at the hint that asked for it, or else at the label it guards.
  const asserts = (s: Extract<Stmt, { k: 'label' }>): Stmt[] =>
    byFunc.get(s.name)!.map((a) => {
      const loc = a.loc ?? s.loc;
      return loc ? { k: 'assert', cond: a.cond, loc } : { k: 'assert', cond: a.cond };
    });
  const guarded = (s: Stmt): Stmt[] => (s.k === 'label' && byFunc.has(s.name) ? [...asserts(s), go(s)] : [go(s)]);
  const go = (s: Stmt): Stmt => {
    switch (s.k) {
      case 'seq':
        return { ...s, body: s.body.flatMap(guarded) };
      case 'if':
        return { ...s, then: wrap(s.then), else: wrap(s.else) };
      case 'for':
      case 'let':
        return { ...s, body: wrap(s.body) };
      case 'label':
        return { ...s, body: wrap(s.body) };
      default:
        return s;
    }
  };
  const wrap = (s: Stmt): Stmt => {
    const b = guarded(s);
    return b.length === 1 ? b[0]! : { k: 'seq', body: b };
  };
  return { ...t, body: wrap(t.body) };
}

/** [COMPLETE-FILL] [Γ]T with the hints' assertions: a hole-free program. */
export function applyCompletion(t: TgtProgram, gamma: Completion, assertions: readonly CoverAssertion[] = []): TgtProgram {
  return fillHoles(withAssertions(t, assertions), gamma);
}

/** [COMPLETE-FAIL] the lifted engine's answer when it cannot fill every hole: the body is `assert 0`. */
export function failedProgram(t: TgtProgram): TgtProgram {
  return { ...withoutHints(t), body: { k: 'assert', cond: { k: 'const', value: 0 } } };
}
