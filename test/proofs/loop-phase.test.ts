// The argument of lemma 2.14 (loop phase is sound), checked in the sharper form its proof uses:
// a loop-phase directive s leaves the holes of T unchanged, and one and the same completion Γ
// applied to T and to 𝓢(s, T) gives programs that leave identical buffers behind — not just equal
// on the window. The rounding and shifting tail strategies are the exceptions the proof names:
// both can reach points outside the compute bounds (shifting does when the extent is below the
// factor), so the same Γ need not complete 𝓢(s, T); they are checked for confluence only, in
// test/schedule/confluence.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_ENGINES, runEngine } from '../../src/bounds/engine.js';
import { applyCompletion } from '../../src/bounds/completion.js';
import { UserError } from '../../src/diag.js';
import { type Expr, holeKey } from '../../src/expr/ast.js';
import type { Input, Pipeline } from '../../src/alg-semantics/ast.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { negativeRdom } from '../../src/lowering/equivalence.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { type ForStmt, loopsOf, replaceAt } from '../../src/target-semantics/walk.js';
import { lower } from '../../src/lowering/lower.js';
import { scheduled } from '../../src/pipeline.js';
import { parseSchedule } from '../../src/schedule/parse.js';
import { fillByHand } from '../../src/lowering/handfill.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { execTgt } from '../../src/target-semantics/exec.js';
import { holesOf } from '../../src/target-semantics/holes.js';
import type { Outcome } from '../../src/target-semantics/outcome.js';
import { printCall } from '../../src/schedule/print.js';
import type { DirectiveCall } from '../../src/schedule/plugin.js';
import { registry, step } from './gen.js';

const LOOP_PHASE = registry.directives.filter((d) => d.phase === 'loops');
const holeSet = (t: TgtProgram) => new Set(holesOf(t).map((h) => holeKey(h)));

/** Runs `f`; undefined when the executor refuses an allocation too large to run. */
function runnable(f: () => Outcome): Outcome | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof UserError && /allocation of/.test(e.message)) return undefined;
    throw e;
  }
}

/**
 * The two departures from "identical buffers" that the proof's argument does not cover (see
 * docs/proofs/halide.md): a split by a factor that is not a constant asserts that it is positive,
 * and a negative rdom extent can surface once a swap has moved its loop outwards. Both end the run
 * in a state def. 2.3 excuses.
 */
function excusedBy(after: Outcome | undefined, call: DirectiveCall, p: Pipeline, z: Input): boolean {
  if (after?.kind !== 'stuck') return false;
  if (after.stuck.kind === 'assert-failed') return call.directive.name === 'split' && (call.args as { factor: Expr }).factor.k !== 'const';
  return after.stuck.kind === 'rdom-failure' && negativeRdom(p, z.params) !== undefined;
}

const cases = arbPipeline({ maxFuncs: 2, maxDims: 2, maxUpdates: 1, maxRVars: 2, dataDependent: false }).chain((p) =>
  fc.record({
    p: fc.constant(p),
    specialize: fc.option(fc.nat(0xffffff)),
    picks: fc.array(fc.record({ d: fc.nat(), seed: fc.nat(0xffffff) }), { minLength: 1, maxLength: 4 }),
    z: arbInput(p, { maxWindowLen: 3 }),
    seed: fc.nat(1000),
  }));

describe('lemma 2.14: a loop-phase directive keeps the holes and, for one completion, the buffers', () => {
  it('the same Γ on T and on 𝓢(s, T) leaves an identical output buffer', () => {
    let compared = 0;
    let excused = 0;
    fc.assert(
      fc.property(cases, ({ p, specialize, picks, z, seed }) => {
        const sp = specialize === null ? undefined : step(lower(p), registry.get('specialize')!, specialize, []);
        let t = sp?.t ?? lower(p);
        const history: DirectiveCall[] = sp ? [sp.call] : [];
        for (const { d, seed: s } of picks) {
          const r = step(t, LOOP_PHASE[d % LOOP_PHASE.length]!, s, history);
          if (!r) continue;
          const what = printCall(r.call);
          expect(holeSet(r.t), what).toEqual(holeSet(t));
          const widens = r.call.directive.name === 'split' && ((r.call.args as { tail?: string }).tail ?? 'guard') !== 'guard';
          const gamma = runEngine(t, BUILTIN_ENGINES.beta0!);
          if (!widens && gamma.ok) {
            const before = runnable(() => execTgt(applyCompletion(t, gamma.completion), z, { seed, maxSteps: 200_000 }));
            if (before?.kind === 'done') {
              const after = runnable(() => execTgt(applyCompletion(r.t, gamma.completion), z, { seed, maxSteps: 400_000 }));
              compared++;
              if (excusedBy(after, r.call, p, z)) excused++;
              else {
                expect(after?.kind, what).toBe('done');
                if (after?.kind === 'done') expect(after.output, what).toEqual(before.output);
              }
            }
          }
          t = r.t;
          history.push(r.call);
        }
      }),
      { numRuns: 200, seed: 214 },
    );
    expect(compared).toBeGreaterThan(150);
    expect(excused).toBeLessThan(compared / 10);
  });

  it('negative control: exchanging two reduction loops by hand (which swap refuses) changes the buffer, and is caught', () => {
    // the order of s and r matters: f(x) is doubled between the reads of g
    const p = loadPipeline('pipeline f(n) {\n  func g(x) = x + 1;\n  func f(x) {\n    x;\n    rdom(r = (0, 3), s = (0, n)) in (x) <- f(x) * 2 + g(r + s);\n  }\n}', 'reduce.alg');
    const t = lower(p);
    const outer = loopsOf(t).find((l) => l.stmt.var === 'f.s1.s')!;
    const inner = outer.stmt.body as ForStmt;
    const exchanged: TgtProgram = { ...t, body: replaceAt(t.body, outer.path, () => ({ ...inner, body: { ...outer.stmt, body: inner.body } })) };
    const gamma = runEngine(t, BUILTIN_ENGINES.beta0!);
    expect(gamma.ok).toBe(true);
    if (!gamma.ok) return;
    const z = { window: [[0, 2]] as const, params: new Map([['n', 2]]) };
    const before = execTgt(applyCompletion(t, gamma.completion), z);
    const after = execTgt(applyCompletion(exchanged, gamma.completion), z);
    if (before.kind !== 'done' || after.kind !== 'done') throw new Error('both runs should finish');
    expect(after.output).not.toEqual(before.output);
  });

  it('gap: swapping a reduction loop with a negative extent outwards of an empty pure loop turns a finished run into an rdom failure', () => {
    // The proof's "same statement instances in the same order" covers assignments, not loop
    // headers: before the swap the reduction loop is never reached (no x iterations); after it,
    // its negative extent is evaluated first (def. 2.12). The algorithm has a negative rdom for
    // every input here, so [VERDICT-RDOM] excuses the failure and confluence still holds.
    const p = loadPipeline('pipeline f() {\n  func f(x) {\n    0;\n    rdom(r = (1, -1)) in (x) <- f(x);\n  }\n}', 'swap.alg');
    const bounds = Object.fromEntries(['?mem', '?cpu', '?cpu'].flatMap((k, i) => {
      const h = `f.x${i === 1 ? '@s0' : ''}`;
      return [[`${k}.min(${h})`, 'x.min'], [`${k}.len(${h})`, 'x.len']];
    }));
    const z = { window: [[0, 0]] as const, params: new Map() };
    const before = execTgt(fillByHand(lower(p), bounds), z);
    const after = execTgt(fillByHand(scheduled({ algorithm: p }, parseSchedule('swap f.s1.x', 'swap.sched')), bounds), z);
    expect(before.kind).toBe('done');
    expect(after.kind === 'stuck' && after.stuck.kind).toBe('rdom-failure');
    expect(negativeRdom(p, z.params)).toBe('f.s1.r');
  });
});
