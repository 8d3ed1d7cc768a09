// Completions [Γ]T (def. 2.15): filling the holes of a Tgt? program, inserting the covering
// assertions that bounds hints ask for, and the failure program of the lifted engine (§2.7.2).
import type { Expr } from '../expr/ast.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { type Completion, fillHoles } from '../target-semantics/holes.js';
import type { CoverAssertion } from './beta0.js';

/**
 * T with each covering assertion placed first inside `label f` ([COMPLETE-ASSERT]): there the
 * compute holes of f are in scope, and an assertion that fails stops the program before f's
 * loops run, which confluence (def. 2.3) allows.
 */
export function withAssertions(t: TgtProgram, assertions: readonly CoverAssertion[]): TgtProgram {
  if (assertions.length === 0) return t;
  const byFunc = new Map<string, Expr[]>();
  for (const a of assertions) byFunc.set(a.func, [...(byFunc.get(a.func) ?? []), a.cond]);
  const go = (s: Stmt): Stmt => {
    switch (s.k) {
      case 'seq':
        return { ...s, body: s.body.map(go) };
      case 'if':
        return { ...s, then: go(s.then), else: go(s.else) };
      case 'for':
      case 'let':
        return { ...s, body: go(s.body) };
      case 'label': {
        const conds = byFunc.get(s.name);
        const body = go(s.body);
        if (!conds) return { ...s, body };
        const asserts: Stmt[] = conds.map((cond) => ({ k: 'assert', cond }));
        return { ...s, body: { k: 'seq', body: [...asserts, ...(body.k === 'seq' ? body.body : [body])] } };
      }
      default:
        return s;
    }
  };
  return { ...t, body: go(t.body) };
}

/** [COMPLETE-FILL] [Γ]T with the hints' assertions: a hole-free program. */
export function applyCompletion(t: TgtProgram, gamma: Completion, assertions: readonly CoverAssertion[] = []): TgtProgram {
  return fillHoles(withAssertions(t, assertions), gamma);
}

/** [COMPLETE-FAIL] the lifted engine's answer when it cannot fill every hole: the body is `assert 0`. */
export function failedProgram(t: TgtProgram): TgtProgram {
  const { hints: _hints, ...rest } = t;
  return { ...rest, body: { k: 'assert', cond: { k: 'const', value: 0 } } };
}
