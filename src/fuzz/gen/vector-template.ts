// The schedule code generators see most (thesis §5.1; Halide's `split(x, xo, xi, W).vectorize(xi)`):
// an innermost loop split by a constant and its inner loop vectorized. Random directive choices
// rarely compose it, and without it the vector code of the backends is barely exercised, so the
// codegen profile (profile.ts) starts its schedules with it. The template is two ordinary built-in
// calls, printed in the schedule like any other, so a reproducer needs nothing of this module.
import fc from 'fast-check';
import { cst } from '../../expr/ast.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { loopsOf, someStmt } from '../../target-semantics/walk.js';
import type { AppliedCall } from './driver.js';

/** Which innermost loop, which factor, which tail strategy (each resolved modulo the choices). */
export interface VectorB {
  readonly loop: number;
  readonly factor: number;
  readonly tail: number;
}

// Whole vectors of 4 and 8 lanes, and factors that leave a tail for both widths.
const FACTORS = [4, 5, 8, 11, 16] as const;
const TAILS = ['guard', 'shift', 'round'] as const;

export const arbVectorB: fc.Arbitrary<VectorB | null> = fc.option(
  fc.record({ loop: fc.nat(15), factor: fc.nat(FACTORS.length - 1), tail: fc.nat(TAILS.length - 1) }),
  { freq: 5 },
);

/**
 * Applies the template through `apply` (which validates and records a call, and returns the new
 * program, or undefined when the call is rejected).
 */
export function applyVectorTemplate(t: TgtProgram, b: VectorB, apply: (call: AppliedCall) => TgtProgram | undefined): void {
  const loops = loopsOf(t);
  const innermost = loops.filter((l) => l.name && !someStmt(l.stmt.body, (s) => s.k === 'for'));
  if (innermost.length === 0) return;
  const l = innermost[b.loop % innermost.length]!;
  const before = new Set(loops.map((x) => x.stmt.var));
  const split = apply({ name: 'split', args: { loop: l.stmt.var, factor: cst(FACTORS[b.factor % FACTORS.length]!), tail: TAILS[b.tail % TAILS.length]! } });
  if (!split) return;
  // The inner loop of the split: the new loop with no loop inside it (the split loop was innermost).
  const inner = loopsOf(split).find((x) => !before.has(x.stmt.var) && !someStmt(x.stmt.body, (s) => s.k === 'for'));
  if (inner) apply({ name: 'vectorize', args: { loop: inner.stmt.var } });
}
