// The harness of the confluence properties (lemmas 2.13–2.17): a generated valid algorithm P is
// lowered, a random valid schedule biased towards one directive is generated with the
// directives' own `generate` and applied with the lemma 2.4 / 2.5 checkers on, the result is
// completed by the bounds engines β0 (§2.7.2) and β1, run on random inputs, and compared with
// the algorithm (def. 2.3). A non-confluent verdict fails the property.
import fc from 'fast-check';
import { UserError } from '../../src/diag.js';
import type { Input, Pipeline } from '../../src/alg-semantics/ast.js';
import { BUILTIN_ENGINES, completeProgram } from '../../src/bounds/engine.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { type Verdict, isConfluent, showVerdict, verdictFor } from '../../src/lowering/equivalence.js';
import { lower } from '../../src/lowering/lower.js';
import { seededRng } from '../../src/rng.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { printTgt } from '../../src/target-semantics/print.js';
import { applySchedule, generateCall } from '../../src/schedule/apply.js';
import { PHASES, type Directive, type DirectiveCall, type DirectiveRegistry } from '../../src/schedule/plugin.js';
import { printSchedule } from '../../src/schedule/print.js';

export interface Case {
  readonly p: Pipeline;
  readonly choices: readonly { readonly d: number; readonly seed: number }[];
  readonly inputs: readonly Input[];
  readonly seed: number;
}

export interface Stats {
  runs: number;
  /** runs whose schedule used the focus directive */
  focused: number;
  /** verdicts that compared values and found them equal (not vacuous) */
  equal: number;
}

export function arbCase(registry: DirectiveRegistry, focus: string): fc.Arbitrary<Case> {
  const n = registry.directives.length;
  const at = (name: string) => registry.directives.findIndex((d) => d.name === name);
  // store-at only has somewhere to go once compute-at has moved a func into a loop
  const companions = (focus === 'store-at' ? ['compute-at', 'split'] : []).map(at);
  const d = fc.oneof(
    { weight: 2, arbitrary: fc.nat(n - 1) },
    { weight: 3, arbitrary: fc.constant(at(focus)) },
    ...companions.map((c) => ({ weight: 3, arbitrary: fc.constant(c) })),
  );
  // Accesses at computed points (data-dependent) are left out: β0 cannot bound them, so they
  // would only yield vacuous verdicts (and they reach an evaluator crash, see the report).
  // compute-at, store-at and inline need a producer and a consumer
  const minFuncs = focus === 'compute-at' || focus === 'store-at' || focus === 'inline' ? 2 : 1;
  // vectorize and unroll need a loop of constant extent: without parameters, every rdom gives one
  const maxParams = focus === 'vectorize' || focus === 'unroll' ? 0 : 2;
  return arbPipeline({ minFuncs, maxFuncs: 3, maxDims: 2, maxUpdates: 1, maxRVars: 2, maxParams, dataDependent: false }).chain((p) =>
    fc.record({
      p: fc.constant(p),
      // every run tries the focus directive at least once (store-at after a compute-at)
      choices: fc.tuple(fc.array(fc.record({ d, seed: fc.nat(0xffffff) }), { maxLength: 4 }), fc.nat(0xffffff), fc.nat(0xffffff))
        .map(([cs, s1, s2]) => [...cs, ...(focus === 'store-at' ? [{ d: at('compute-at'), seed: s2 }] : []), { d: at(focus), seed: s1 }]),
      inputs: fc.array(arbInput(p), { minLength: 1, maxLength: 2 }),
      seed: fc.nat(1000),
    }),
  );
}

/** Decodes the choices into a schedule (phase order, each call proposed by `generate`). */
export function scheduleOf(c: Case, registry: DirectiveRegistry): DirectiveCall[] {
  const t0 = lower(c.p);
  const picked = c.choices
    .map((x) => ({ d: registry.directives[x.d]!, seed: x.seed }))
    .sort((a, b) => PHASES.indexOf(a.d.phase) - PHASES.indexOf(b.d.phase));
  const calls: DirectiveCall[] = [];
  let t = t0;
  for (const { d, seed } of picked) {
    const call = generateCall(d as Directive, t, seededRng(seed), registry, calls);
    if (!call) continue;
    // `generate` proposes arguments that pass validation; a check on the whole schedule (e.g. a
    // shift-tail split of a loop an earlier call made parallel) may still refuse them, and then
    // the call is dropped, as the fuzzers' driver does.
    try {
      t = applySchedule(t0, { file: 'gen.sched', calls: [...calls, call], registry }, { check: true, pipeline: c.p });
    } catch (e) {
      if (e instanceof UserError) continue;
      throw e;
    }
    calls.push(call);
  }
  return calls;
}

/** Runs one case; returns a description of the first non-confluent verdict, if any. */
export function checkCase(c: Case, registry: DirectiveRegistry, focus: string, stats: Stats): string | undefined {
  const calls = scheduleOf(c, registry);
  // The whole schedule once more, as a user would run it: phases, final checks, invariants.
  const t = applySchedule(lower(c.p), { file: 'gen.sched', calls, registry }, { check: true, pipeline: c.p });
  stats.runs++;
  if (calls.some((x) => x.directive.name === focus)) stats.focused++;
  // β0, the reference engine of §2.7.2, and β1, the tighter one: confluence must hold for any
  // completion in BI(T), so for both.
  for (const engine of [BUILTIN_ENGINES.beta0!, BUILTIN_ENGINES.beta1!]) {
    const bad = checkCompleted(c, completeProgram(t, engine), stats);
    if (bad) return `${engine.name}: ${bad}\nschedule:\n${printSchedule({ file: 'gen.sched', calls, registry })}`;
  }
  return undefined;
}

/** Runs a completed program of case `c` on its inputs; returns the first non-confluent verdict, if any. */
export function checkCompleted(c: Case, done: TgtProgram, stats: Stats): string | undefined {
  for (const input of c.inputs) {
    let v: Verdict;
    try {
      v = verdictFor(c.p, done, input, { seed: c.seed, maxSteps: 2_000_000 });
    } catch (e) {
      // The executors refuse allocations beyond their size limit (generated constants can be
      // huge): no verdict, like a spent step budget.
      if (e instanceof UserError && /allocation of/.test(e.message)) continue;
      throw e;
    }
    if (v.kind === 'equal') stats.equal++;
    if (isConfluent(v) === false) return `${showVerdict(v)}\nprogram:\n${printTgt(done)}`;
  }
  return undefined;
}
