// Lemma 2.10 (the loop phase preserves loop naming) and lemmas 2.4 / 2.5 after whole schedules,
// on schedules from ./gen.ts (checks off in the driver, so violations surface here).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { checkDominance, checkLoopNaming } from '../../src/lowering/invariants.js';
import { loopsOf, replaceAt } from '../../src/target-semantics/walk.js';
import { lower } from '../../src/lowering/lower.js';
import type { Stmt, TgtProgram } from '../../src/target-semantics/ast.js';
import { scheduled } from '../../src/pipeline.js';
import { parseSchedule } from '../../src/schedule/parse.js';
import type { DirectiveCall } from '../../src/schedule/plugin.js';
import { printCall } from '../../src/schedule/print.js';
import { randomSchedule, registry, step } from './gen.js';

const LOOP_PHASE = registry.directives.filter((d) => d.phase === 'loops');
const SPECIALIZE = registry.get('specialize')!;

const pipelines = arbPipeline({ maxFuncs: 3, maxDims: 2, maxUpdates: 1, maxRVars: 2 });
const picks = (n: number) => fc.array(fc.record({ d: fc.nat(), seed: fc.nat(0xffffff) }), { minLength: 1, maxLength: n });

/** ⟨f, i, j⟩ of every loop: the provenance lemma 2.4 attaches to it. */
const provenance = (t: TgtProgram): Set<string> =>
  new Set(loopsOf(t).map((l) => (l.name ? `${l.name.func}/${l.name.stage}/${l.name.spec}` : `unnamed ${l.stmt.var}`)));

describe('lemma 2.10: the loop phase preserves loop naming', () => {
  it('after each generated loop-phase directive, loops are uniquely named and keep their func, stage and specialization', () => {
    let applied = 0;
    fc.assert(
      fc.property(pipelines, fc.nat(0xffffff), picks(6), (p, specSeed, ds) => {
        // the loop phase starts from a lowered, possibly specialized, program
        const sp = specSeed % 2 === 0 ? step(lower(p), SPECIALIZE, specSeed, []) : undefined;
        let t = sp?.t ?? lower(p);
        const history: DirectiveCall[] = sp ? [sp.call] : [];
        for (const { d, seed } of ds) {
          const r = step(t, LOOP_PHASE[d % LOOP_PHASE.length]!, seed, history);
          if (!r) continue;
          applied++;
          expect(checkLoopNaming(r.t), `after ${printCall(r.call)}`).toEqual([]);
          // loops of a (func, stage, specialization) are replaced by loops of the same one
          expect(provenance(r.t), `after ${printCall(r.call)}`).toEqual(provenance(t));
          t = r.t;
          history.push(r.call);
        }
      }),
      { numRuns: 200, seed: 210 },
    );
    expect(applied).toBeGreaterThan(200);
  });

  it('negative control: a loop given another loop\'s name is reported', () => {
    fc.assert(
      fc.property(pipelines, fc.nat(0xffffff), (p, seed) => {
        const r = step(lower(p), registry.get('split')!, seed, []);
        fc.pre(r !== undefined);
        const [a, b] = loopsOf(r!.t);
        fc.pre(a !== undefined && b !== undefined);
        const clash: TgtProgram = { ...r!.t, body: replaceAt(r!.t.body, a!.path, (s) => ({ ...s, var: b!.stmt.var }) as Stmt) };
        expect(checkLoopNaming(clash).join('\n')).toContain('two loops are named');
      }),
      { numRuns: 30, seed: 2101 },
    );
  });
});

describe('lemmas 2.4 and 2.5 after whole schedules', () => {
  it('every generated schedule (all phases, in phase order) yields uniquely named loops and dominating producers', () => {
    let applied = 0;
    fc.assert(
      fc.property(pipelines, picks(8), (p, ds) => {
        randomSchedule(lower(p), ds, (t, call) => {
          applied++;
          expect(checkLoopNaming(t), `after ${printCall(call)}`).toEqual([]);
          expect(checkDominance(t, p), `after ${printCall(call)}`).toEqual([]);
        });
      }),
      { numRuns: 200, seed: 24 },
    );
    expect(applied).toBeGreaterThan(300);
  });
});

describe('compute-at and the producers of the moved func', () => {
  // Found by the property above: compute-at checks that the moved func still dominates its
  // consumers, but not that its own producers still dominate it. Moving f1 to the front of a loop
  // body that already computes its producer f0 puts f1's reads of f0 before f0's loops.
  it('computing f1 again at a loop that already computes its producer f0 keeps f0 before f1', () => {
    const p = loadPipeline('pipeline f2() {\n  func f0(x) = x - 6;\n  func f1(x) = f0(-1);\n  func f2(x) = f0(5);\n}', 'c.alg');
    let t: TgtProgram;
    try {
      t = scheduled({ algorithm: p }, parseSchedule('compute-at f1 at f2.s0.x\ncompute-at f0 at f2.s0.x\ncompute-at f1 at f2.s0.x', 'c.sched'));
    } catch (e) {
      if (e instanceof UserError) return; // rejecting the last directive is a correct answer
      throw e;
    }
    expect(checkDominance(t, p)).toEqual([]);
  });
});
