// Theorem 2.1 (memory safety), lemma 2.12 (lowering is sound) and theorem 2.2 (scheduling
// equivalence) for the completions of β0 and β1, the bounds quality constraint (def. 2.5) for β1,
// and the oracle query holding concretely for every completion an engine returns.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_ENGINES, completeProgram, runEngine } from '../../src/bounds/engine.js';
import { checkConcrete, showViolation } from '../../src/bounds/concrete-check.js';
import { withAssertions } from '../../src/bounds/completion.js';
import { extractQuery } from '../../src/bounds/query.js';
import { checkQuality } from '../../src/bounds/quality.js';
import { isConfluent, showVerdict, verdictFor } from '../../src/lowering/equivalence.js';
import { execTgt } from '../../src/target-semantics/exec.js';
import { arbCase } from './gen.js';

const engines = ['beta0', 'beta1'] as const;
const budget = { maxSteps: 400_000 };
const MEMORY = new Set(['oob-read', 'oob-write', 'unallocated']);

describe.each(engines)('%s', (name) => {
  const engine = BUILTIN_ENGINES[name]!;

  it('theorem 2.1: completed programs never access memory out of bounds', () => {
    fc.assert(
      fc.property(arbCase(), (c) => {
        const out = execTgt(completeProgram(c.t, engine), c.input, budget);
        if (out.kind === 'stuck') expect(MEMORY.has(out.stuck.kind), `${c.schedule}: ${out.stuck.kind}`).toBe(false);
      }),
      { numRuns: 150, seed: 21 },
    );
  });

  it('lemma 2.12: completions of the lowered program are confluent with the algorithm', () => {
    fc.assert(
      fc.property(arbCase({ directives: 0 }), (c) => {
        const v = verdictFor(c.p, completeProgram(c.t, engine), c.input, budget);
        expect(isConfluent(v), showVerdict(v)).not.toBe(false);
      }),
      { numRuns: 150, seed: 212 },
    );
  });

  it('theorem 2.2: completions of scheduled programs are confluent with the algorithm', () => {
    fc.assert(
      fc.property(arbCase(), (c) => {
        const v = verdictFor(c.p, completeProgram(c.t, engine), c.input, budget);
        expect(isConfluent(v), `${c.schedule}: ${showVerdict(v)}`).not.toBe(false);
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
        expect(rep.holds, rep.violation ? showViolation(rep.violation) : '').not.toBe(false);
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
        const r = checkQuality(c.p, c.t, c.input, BUILTIN_ENGINES.beta1!, budget);
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
        expect(a1.allocatedPoints <= a0.allocatedPoints, `${c.schedule}: β1 ${a1.allocatedPoints} > β0 ${a0.allocatedPoints}`).toBe(true);
      }),
      { numRuns: 150, seed: 26 },
    );
  });
});
