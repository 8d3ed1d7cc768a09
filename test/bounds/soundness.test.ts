// Theorem 2.1 (memory safety), lemma 2.12 (lowering is sound) and theorem 2.2 (scheduling
// equivalence) for the completions of β0 and β1, the bounds quality constraint (def. 2.5) for β1,
// and the oracle query holding concretely for every completion an engine returns.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_ENGINES, completeProgram, runEngine } from '../../src/bounds/engine.js';
import { checkConcrete, showViolation } from '../../src/bounds/concrete-check.js';
import { applyCompletion, withAssertions } from '../../src/bounds/completion.js';
import { extractQuery } from '../../src/bounds/query.js';
import { checkQuality } from '../../src/bounds/quality.js';
import { isConfluent, showVerdict, verdictFor } from '../../src/lowering/equivalence.js';
import { execTgt } from '../../src/target-semantics/exec.js';
import { type Case, arbCase } from './gen.js';
import { UserError } from '../../src/diag.js';
import { isError } from '../../src/expr/value.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { printTgt } from '../../src/target-semantics/print.js';

const engines = ['beta0', 'beta1'] as const;

/** Runs `f`, discarding the case when an executor refuses an allocation too large to run. */
function runnable<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UserError && /needs .*points/.test(e.message)) fc.pre(false);
    throw e;
  }
}
const show = (c: Case, t: TgtProgram) => `schedule: ${c.schedule}\n${printTgt(t)}`;
const budget = { maxSteps: 400_000 };
const MEMORY = new Set(['oob-read', 'oob-write', 'unallocated']);

describe.each(engines)('%s', (name) => {
  const engine = BUILTIN_ENGINES[name]!;

  it('theorem 2.1: completed programs never access memory out of bounds', () => {
    fc.assert(
      fc.property(arbCase(), (c) => {
        const done = completeProgram(c.t, engine);
        const out = runnable(() => execTgt(done, c.input, budget));
        // An index that is the algorithm's own error value is out of bounds by def. 2.13; interval
        // arithmetic bounds integer values only (spec/bounds.md, [I-CONST]).
        if (out.kind === 'stuck' && !('point' in out.stuck && out.stuck.point.some(isError))) {
          expect(MEMORY.has(out.stuck.kind), `${out.stuck.kind}\n${show(c, done)}`).toBe(false);
        }
      }),
      { numRuns: 150, seed: 21 },
    );
  });

  it('lemma 2.12: completions of the lowered program are confluent with the algorithm', () => {
    fc.assert(
      fc.property(arbCase({ directives: 0 }), (c) => {
        const done = completeProgram(c.t, engine);
        const v = runnable(() => verdictFor(c.p, done, c.input, budget));
        expect(isConfluent(v), `${showVerdict(v)}\n${show(c, done)}`).not.toBe(false);
      }),
      { numRuns: 150, seed: 212 },
    );
  });

  it('theorem 2.2: completions of scheduled programs are confluent with the algorithm', () => {
    fc.assert(
      fc.property(arbCase(), (c) => {
        const done = completeProgram(c.t, engine);
        const v = runnable(() => verdictFor(c.p, done, c.input, budget));
        expect(isConfluent(v), `${showVerdict(v)}\n${show(c, done)}`).not.toBe(false);
      }),
      { numRuns: 150, seed: 22 },
    );
  });

  it('every completion it returns satisfies the query on the input (def. 2.15)', () => {
    fc.assert(
      fc.property(arbCase(), (c) => {
        const r = runEngine(c.t, engine);
        if (!r.ok) return;
        const tt = withAssertions(c.t, r.assertions ?? []);
        const rep = checkConcrete(tt, extractQuery(tt), r.completion, c.input, { maxSteps: 200_000 });
        expect(rep.holds, `${rep.violation ? showViolation(rep.violation) : ''}\n${show(c, applyCompletion(c.t, r.completion, r.assertions ?? []))}`).not.toBe(false);
      }),
      { numRuns: 150, seed: 23 },
    );
  });
});

describe('bounds quality (def. 2.5)', () => {
  it('β1 agrees with the algorithm wherever β0 does', () => {
    let applied = 0;
    fc.assert(
      fc.property(arbCase(), (c) => {
        const r = runnable(() => checkQuality(c.p, c.t, c.input, BUILTIN_ENGINES.beta1!, budget));
        if (!r.applies) return;
        applied++;
        expect(r.holds, `${c.schedule}: ${showVerdict(r.verdict)}`).toBe(true);
      }),
      { numRuns: 150, seed: 25 },
    );
    // The property must not be vacuous: β0 succeeds on most generated cases.
    expect(applied).toBeGreaterThan(30);
  });

  it('β1 succeeds wherever β0 succeeds, and never allocates more', () => {
    fc.assert(
      fc.property(arbCase(), (c) => {
        const q = extractQuery(c.t);
        const r0 = runEngine(c.t, BUILTIN_ENGINES.beta0!, q);
        if (!r0.ok) return;
        const r1 = runEngine(c.t, BUILTIN_ENGINES.beta1!, q);
        expect(r1.ok, r1.ok ? '' : r1.explanation).toBe(true);
        if (!r1.ok) return;
        const a0 = checkConcrete(withAssertions(c.t, r0.assertions ?? []), extractQuery(withAssertions(c.t, r0.assertions ?? [])), r0.completion, c.input, { maxSteps: 200_000 });
        const a1 = checkConcrete(withAssertions(c.t, r1.assertions ?? []), extractQuery(withAssertions(c.t, r1.assertions ?? [])), r1.completion, c.input, { maxSteps: 200_000 });
        if (a0.budgetExceeded || a1.budgetExceeded) return;
        // β0 has succeeded on this input only if its program gets past its own assertions: a run
        // that stops at one (def. 2.11) allocates nothing after it, and compares with nothing.
        const run0 = runnable(() => execTgt(completeProgram(c.t, BUILTIN_ENGINES.beta0!), c.input, budget));
        if (run0.kind === 'stuck' && run0.stuck.kind === 'assert-failed') return;
        expect(a1.allocatedPoints <= a0.allocatedPoints, `${c.schedule}: β1 ${a1.allocatedPoints} > β0 ${a0.allocatedPoints}`).toBe(true);
      }),
      { numRuns: 150, seed: 26 },
    );
  });
});
