// Lemma 2.6 (completions from BI(T) are memory safe), for completions no engine produced: the
// reference engine's completion Γ of a generated scheduled program T is perturbed hole by hole
// (each min or len moved by a small constant, or left alone), and the perturbed Γ' is kept as a
// member of BI(T) for input z exactly when the concrete check of the query 𝓑(T)[Γ'] at z says it
// holds (def. 2.15). Every such run must be free of memory errors (def. 2.13). The perturbations
// that break the query show the check is not vacuous: some of them do run out of bounds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_ENGINES, runEngine } from '../../src/bounds/engine.js';
import { checkConcrete } from '../../src/bounds/concrete-check.js';
import { applyCompletion, withAssertions } from '../../src/bounds/completion.js';
import { extractQuery } from '../../src/bounds/query.js';
import { UserError } from '../../src/diag.js';
import { type Expr, cst, op } from '../../src/expr/ast.js';
import { isError } from '../../src/expr/value.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { lower } from '../../src/lowering/lower.js';
import { execTgt } from '../../src/target-semantics/exec.js';
import { runMachine } from '../../src/target-semantics/machine.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import type { Outcome } from '../../src/target-semantics/outcome.js';
import { printTgt } from '../../src/target-semantics/print.js';
import { randomSchedule } from './gen.js';

const MEMORY = new Set(['oob-read', 'oob-write', 'unallocated']);

/** A memory error of def. 2.13 that is not an index made of the algorithm's own error value. */
const memoryError = (o: Outcome): boolean =>
  o.kind === 'stuck' && MEMORY.has(o.stuck.kind) && !('point' in o.stuck && o.stuck.point.some(isError));

const cases = arbPipeline({ maxFuncs: 3, maxDims: 2, maxUpdates: 1, maxRVars: 2, exprDepth: 2, dataDependent: false }).chain((p) =>
  fc.record({
    p: fc.constant(p),
    picks: fc.array(fc.record({ d: fc.nat(), seed: fc.nat(0xffffff) }), { maxLength: 4 }),
    z: arbInput(p, { maxWindowLen: 3 }),
    // per hole (in order): 0 leaves it alone, otherwise the constant added to it
    nudges: fc.array(fc.constantFrom(0, 0, 0, 0, 0, 0, 0, -1, 1, 2), { minLength: 24, maxLength: 24 }),
  }));

describe('lemma 2.6: completions in BI(T) are memory safe', () => {
  it('every perturbed completion that satisfies the query at z runs on z without a memory error', () => {
    const seen = { holds: 0, perturbedHolds: 0, violated: 0, caught: 0 };
    fc.assert(
      fc.property(cases, ({ p, picks, z, nudges }) => {
        const { t } = randomSchedule(lower(p), picks);
        const r = runEngine(t, BUILTIN_ENGINES.beta0!);
        fc.pre(r.ok);
        if (!r.ok) return;
        const tt = withAssertions(t, r.assertions ?? []);
        let moved = 0;
        const gamma = new Map<string, Expr>([...r.completion].map(([k, e], i) => {
          const n = nudges[i % nudges.length]!;
          if (n !== 0) moved++;
          return [k, n === 0 ? e : op('+', e, cst(n))];
        }));
        let run: Outcome;
        try {
          run = execTgt(applyCompletion(t, gamma, r.assertions ?? []), z, { maxSteps: 200_000 });
        } catch (e) {
          if (e instanceof UserError && /allocation of/.test(e.message)) return; // too large to run
          throw e;
        }
        const q = checkConcrete(tt, extractQuery(tt), gamma, z, { maxSteps: 200_000 });
        if (q.holds === true) {
          seen.holds++;
          if (moved > 0) seen.perturbedHolds++;
          expect(memoryError(run), `${run.kind === 'stuck' ? run.stuck.kind : ''}\n${printTgt(applyCompletion(t, gamma, r.assertions ?? []))}`).toBe(false);
        } else if (q.holds === false) {
          seen.violated++;
          if (memoryError(run)) seen.caught++;
        }
      }),
      // Windows are rarely empty, so a query holds mostly on cases that run something: fewer
      // hold than on a distribution rich in empty windows, hence the runs.
      { numRuns: 400, seed: 26 },
    );
    expect(seen.perturbedHolds, 'perturbed completions still in BI(T)').toBeGreaterThan(15);
    expect(seen.caught, 'query violations that do run out of bounds').toBeGreaterThan(50);
  });

  it('an empty allocation is a valid allocation, even when another of its extents is beyond 2^53', () => {
    // Found by the property above (a perturbed completion): the executors computed the size as
    // 0 × ∞ = NaN and crashed instead of allocating an empty buffer.
    const t = parseTgt(`pipeline f(; x in (x.min, x.len)):
{
  allocate g(x in (0, 0), y in (0, 9007199254740993));
  allocate f(x in (x.min, x.len));
  for f.s0.x in (x.min, x.len) do f[f.s0.x] <- 1
}`, 'empty.tgt');
    const z = { window: [[0, 1]] as const, params: new Map() };
    expect(execTgt(t, z).kind).toBe('done');
    expect(runMachine(t, z)).toEqual(execTgt(t, z));
  });
});
