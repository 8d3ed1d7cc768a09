// The two evaluators of each language agree (docs/architecture.md, "Contracts"):
// the spec evaluator follows the rules one by one, the fast one is what campaigns run on; a
// difference means one of them departs from fig. 2.6 / fig. 2.8.
import { realizeSpec } from '../../alg-semantics/spec-eval.js';
import { showValue } from '../../expr/value.js';
import { PASS, type Property } from '../property.js';
import fc from 'fast-check';
import { type AlgCase, type AlgGen, algCase, algShape, arbAlgGenWithExtremes, decodeAlg, encodeAlg, realizeFast } from './alg-case.js';
import { observePipeline } from '../gen/observe.js';
import { runMachine } from '../../target-semantics/machine.js';
import type { Outcome } from '../../target-semantics/outcome.js';
import { showOutcome } from '../../target-semantics/display.js';
import { complete } from '../../pipeline.js';
import { canonical } from './roundtrip.js';
import { type SchedCase, type SchedGen, arbSchedGen, decodeSched, encodeSched, finalProgram, observeSched, schedCase, schedShape } from './sched-case.js';

/** The spec evaluator is slow by design; this many derivation steps per check keep campaigns fast. */
export const SPEC_BUDGET = 20_000;

export const evaluatorsAlg: Property<AlgGen, AlgCase> = {
  name: 'evaluators-alg',
  summary: 'the spec evaluator (fig. 2.6, rule by rule) and the fast evaluator realize the same values',
  // One case in four at the representation edges (±2^53): both evaluators must cross them alike.
  arbitrary: arbAlgGenWithExtremes,
  concretize: algCase,
  check(c, env) {
    const spec = realizeSpec(c.pipeline, c.input, SPEC_BUDGET);
    if (spec.kind === 'budget') return { status: 'discard', why: 'spec evaluator budget' };
    const fast = realizeFast(c, env);
    if ('budget' in fast) return { status: 'discard', why: fast.budget };
    const i = spec.values.findIndex((v, k) => v !== fast.values[k]);
    if (i < 0 && spec.values.length === fast.values.length) return PASS;
    return {
      status: 'fail',
      verdict: 'evaluators-differ',
      expected: `spec evaluator: [${spec.values.map(showValue).join(', ')}]`,
      actual: `fast evaluator: [${fast.values.map(showValue).join(', ')}] (first difference at index ${i})`,
    };
  },
  encode: encodeAlg,
  decode: decodeAlg,
  shape: algShape,
  observe: (c, stats) => observePipeline(c.pipeline, c.input, stats),
};

/**
 * The small-step machine is slow by design (a few µs per step); it gets this many steps per check.
 * Most generated cases finish in under 3,000 steps; the few longer ones cost as much as all the
 * others together and are discarded (about 4% of cases) rather than run to 20,000 steps.
 */
export const MACHINE_BUDGET = 10_000;

const same = (a: Outcome, b: Outcome): boolean => canonical(a) === canonical(b);

export const evaluatorsTgt: Property<SchedGen, SchedCase> = {
  name: 'evaluators-tgt',
  summary: 'the small-step machine (fig. 2.8) and the fast executor return the same outcome (values, stuck state, steps) on scheduled, completed programs',
  // One case in four at the representation edges (±2^53): both executors must cross them alike.
  arbitrary: (env) => fc.oneof({ weight: 3, arbitrary: arbSchedGen(env) }, { weight: 1, arbitrary: arbSchedGen(env, 'extremes') }),
  concretize: schedCase,
  check(c, env) {
    if (c.trouble) return { status: 'discard', why: 'directive error' };
    const t = complete(finalProgram(c), env.engine);
    const slow = runMachine(t, c.input, { maxSteps: MACHINE_BUDGET });
    if (slow.kind === 'stuck' && slow.stuck.kind === 'budget-exceeded') return { status: 'discard', why: 'machine step budget' };
    const fast = env.exec(t, c.input, { maxSteps: MACHINE_BUDGET });
    if (same(slow, fast)) return PASS;
    return { status: 'fail', verdict: 'evaluators-differ', expected: `machine: ${showOutcome(slow)}`, actual: `fast executor: ${showOutcome(fast)}` };
  },
  encode: encodeSched,
  decode: decodeSched,
  shape: schedShape,
  observe: observeSched,
};
