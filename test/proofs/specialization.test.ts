// Lemma 2.9 (unique active specialization): in any run of a completed scheduled program, every
// executed loop iteration and every executed store of a func f belongs to one and the same
// specialization of f. Runs are instrumented, not inferred: each store is wrapped in a probe label
// naming its func and specialization, and the small-step machine reports each [LABEL] and
// [FOR-ITER] it fires (loop variables spell their specialization, lemma 2.4).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import type { Input } from '../../src/alg-semantics/ast.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { BUILTIN_ENGINES, completeProgram } from '../../src/bounds/engine.js';
import { parseLoopName } from '../../src/target-semantics/loop-name.js';
import { mapChildren } from '../../src/target-semantics/walk.js';
import { lower } from '../../src/lowering/lower.js';
import type { Stmt, TgtProgram } from '../../src/target-semantics/ast.js';
import { runMachine } from '../../src/target-semantics/machine.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { printTgt } from '../../src/target-semantics/print.js';
import { printCall } from '../../src/schedule/print.js';
import { randomSchedule, registry } from './gen.js';

const PROBE = 'probe';
const PROBE_STEP = new RegExp(`^label ${PROBE} (\\S+) (\\d+): …$`);

/** Every store wrapped in `label probe <f> <j>`: a no-op statement whose [LABEL] step records it. */
function probed(s: Stmt): Stmt {
  return s.k === 'store' ? { k: 'label', name: `${PROBE} ${s.func} ${s.ref.spec ?? 0}`, body: s } : mapChildren(s, probed);
}

/** The specializations each func ran in one run of `t` on `z`, and how the run ended. */
function specializationsRun(t: TgtProgram, z: Input): { specs: Map<string, Set<number>>; stores: number; outcome: string } {
  let stores = 0;
  const specs = new Map<string, Set<number>>();
  const saw = (f: string, j: number) => {
    if (!specs.has(f)) specs.set(f, new Set());
    specs.get(f)!.add(j);
  };
  const out = runMachine({ ...t, body: probed(t.body) }, z, {
    maxSteps: 400_000,
    onStep: (ev) => {
      const probe = ev.rule === 'LABEL' ? PROBE_STEP.exec(ev.redex) : null;
      if (probe) {
        stores++;
        saw(probe[1]!, Number(probe[2]));
      }
      else if (ev.rule === 'FOR-ITER') {
        const name = parseLoopName(/^for (?:parallel )?(\S+)/.exec(ev.redex)![1]!);
        if (name) saw(name.func, name.spec);
      }
    },
  });
  return { specs, stores, outcome: out.kind === 'done' ? 'done' : out.stuck.kind };
}

/** `f()`, or undefined when the executor refuses an allocation too large to run (huge constants). */
function runnable<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof UserError && /allocation of/.test(e.message)) return undefined;
    throw e;
  }
}

const SPECIALIZE = registry.directives.findIndex((d) => d.name === 'specialize');

/** A valid algorithm, a schedule with one to three specialize proposals among others, and inputs. */
const cases = arbPipeline({ maxFuncs: 3, maxDims: 2, maxUpdates: 1, maxRVars: 1, dataDependent: false }).chain((p) =>
  fc.record({
    p: fc.constant(p),
    picks: fc.tuple(
      fc.array(fc.record({ d: fc.constant(SPECIALIZE), seed: fc.nat(0xffffff) }), { minLength: 1, maxLength: 3 }),
      fc.array(fc.record({ d: fc.nat(), seed: fc.nat(0xffffff) }), { maxLength: 4 }),
    ).map(([a, b]) => [...a, ...b]),
    inputs: fc.array(arbInput(p, { maxWindowLen: 3, paramRange: [-1, 5] }), { minLength: 1, maxLength: 3 }),
  }));

describe('lemma 2.9: exactly one specialization of each func runs', () => {
  it('every run executes the loops and stores of at most one specialization per func', () => {
    const ran = { copy: 0, fallback: 0 };
    fc.assert(
      fc.property(cases, ({ p, picks, inputs }) => {
        const { t, calls } = randomSchedule(lower(p), picks);
        const done = completeProgram(t, BUILTIN_ENGINES.beta0!);
        const specialized = new Set(calls.filter((c) => c.directive.name === 'specialize').map((c) => (c.args as { func: string }).func));
        for (const z of inputs) {
          const run = runnable(() => specializationsRun(done, z));
          if (!run) continue;
          const { specs } = run;
          for (const [f, js] of specs) {
            expect(js.size, `func ${f} ran specializations ${[...js].join(', ')}\n${calls.map(printCall).join('\n')}\n${printTgt(done)}`).toBeLessThanOrEqual(1);
            if (specialized.has(f)) ran[js.has(0) ? 'fallback' : 'copy']++;
          }
        }
      }),
      { numRuns: 150, seed: 29 },
    );
    // both the guarded copies and the fallback copy 0 of specialized funcs were exercised
    expect(ran.copy).toBeGreaterThan(30);
    expect(ran.fallback).toBeGreaterThan(30);
  });

  it('negative control: a branch on a loop variable (not a startup expression) is caught running two', () => {
    // compute-at has put f inside g's loop; the chain's condition varies with g's iterations
    const t = parseTgt(`pipeline g(n; x in (x.min, x.len)):
{
  allocate f(x in (0, 1));
  allocate g(x in (x.min, x.len));
  label g:
    label g.s0:
      for g.s0.x in (x.min, x.len) do {
        label f:
          if g.s0.x < 1 then label f.s0:
            for f.s0.k1.x in (0, 1) do f@k1[f.s0.k1.x] <- 1
          else label f.s0:
            for f.s0.x in (0, 1) do f[f.s0.x] <- 2;
        g[g.s0.x] <- f[0]
      }
}`, 'neg.tgt');
    const { specs, stores, outcome } = specializationsRun(t, { window: [[0, 3]], params: new Map([['n', 0]]) });
    expect(outcome).toBe('done');
    expect(stores).toBe(6); // each of g's 3 iterations stores f once and g once
    expect([...specs.get('f')!].sort()).toEqual([0, 1]);
    expect([...specs.get('g')!]).toEqual([0]);
  });
});
