// `refsem fuzz --backend halide`: the reference and the real Halide 14 on the same algorithm,
// schedule and input (spec/halide.md). Each case is stated in Halide by the bridge and run in a
// Python process of its own; a case the bridge cannot state or Halide refuses, or whose outcome a
// known Halide 14 bug explains, is counted and discarded; values that differ and crashes fail.
// The verdict of every check is tallied (`halide` in the campaign summary).
import { parseSchedule } from '../../schedule/parse.js';
import { type DirectiveCall, DirectiveRegistry } from '../../schedule/plugin.js';
import type { Expr } from '../../expr/ast.js';
import { validateHalide, showHalideVerdict } from '../../halide/run.js';
import { type ScheduleStep, halideProgram } from '../../halide/emit.js';
import { realize } from '../../alg-semantics/fast-eval.js';
import { showValue } from '../../expr/value.js';
import { PASS, type CheckResult, type Property } from '../property.js';
import { type SchedCase, type SchedGen, arbSchedGen, decodeSched, encodeSched, observeSched, schedCase, schedSeeded, schedShape } from './sched-case.js';
import type { FuzzEnv } from '../env.js';

/** A Python process per check: a longer limit than a check's own budget would let one hang stall a worker. */
export const HALIDE_TIMEOUT_MS = 30_000;

/**
 * The directive calls of a case with the programs around them, as the bridge reads schedules. An
 * `align-bounds` with remainder 0 is passed on without it, its default: users write it so, and the
 * bridge once failed on it.
 */
function stepsOf(c: SchedCase, env: FuzzEnv): ScheduleStep[] {
  if (!c.scheduleText.trim()) return [];
  const calls = parseSchedule(c.scheduleText, '<case schedule>', new DirectiveRegistry(env.schedule!.directives)).calls;
  return calls.map((call, i) => ({ call: withoutZeroRemainder(call), before: c.steps[i]!, after: c.steps[i + 1]! }));
}

function withoutZeroRemainder(call: DirectiveCall): DirectiveCall {
  const { remainder, ...args } = call.args as { remainder?: Expr };
  if (call.directive.name !== 'align-bounds' || remainder?.k !== 'const' || remainder.value !== 0) return call;
  return { ...call, args };
}

/** A case, with the standalone program of its reproducer, made only when a reproducer is written. */
interface HalideCase extends SchedCase {
  readonly reproducer: () => string | undefined;
}

/**
 * The standalone program of a reproducer: the bridge's script, printing the algorithm's values
 * beside Halide's (`python3 case.py`, written by `refsem replay --extract`). The check does not
 * need it, so a case that passes never pays for the algorithm's values twice.
 */
function withReproducer(c: SchedCase, env: FuzzEnv): HalideCase {
  return {
    ...c,
    reproducer: () => {
      try {
        const expected = realize(c.pipeline, c.input).values.map(showValue);
        return halideProgram(c.pipeline, stepsOf(c, env), c.input, { expected });
      } catch {
        // No faithful statement (or no values): the check says why.
        return undefined;
      }
    },
  };
}

/**
 * The kind of a refusal, for the campaign's discard counts (`--stats`): its message, which names
 * the hazard's rule of spec/halide.md first, without the numbers and details that differ from case
 * to case, so that a campaign's refusals add up by reason.
 */
export const refusalClass = (message: string): string => message.replace(/-?\d+/g, 'N').split(/ \(|;/)[0]!;

export const halide: Property<SchedGen, HalideCase> = {
  name: 'halide',
  summary: 'Halide 14 (python3-halide) computes the algorithm\'s values under the same schedule, on the same input',
  arbitrary: (env) => arbSchedGen(env),
  concretize: (g, env) => withReproducer(schedCase(g, env), env),
  check: () => ({ status: 'discard', why: 'the halide property runs asynchronously' }),
  async checkAsync(c, env): Promise<CheckResult> {
    if (c.trouble) return { status: 'discard', why: 'directive error', tally: 'rejected_by_refsem' };
    const v = await validateHalide(c.pipeline, stepsOf(c, env), c.input, HALIDE_TIMEOUT_MS);
    switch (v.kind) {
      case 'equal':
        return v.compared === 0 ? { status: 'pass', vacuous: 'vacuous_alg_error', tally: 'equal' } : { ...PASS, tally: 'equal' };
      case 'rejected_by_halide':
        return { status: 'discard', why: 'rejected by Halide', tally: v.kind };
      case 'rejected_by_refsem':
        return { status: 'discard', why: `not stated in Halide: ${refusalClass(v.message)}`, tally: v.message.includes("Halide's index range") ? 'outside_index_range' : v.kind };
      case 'known_halide_bug':
        // Neither a pass nor a failure: counted apart, under the finding's number.
        return { status: 'discard', why: `a known Halide 14 bug: finding ${v.bug.finding} of docs/halide-findings.md`, tally: v.kind };
      case 'differs':
      case 'crash':
        return { status: 'fail', verdict: `halide-${v.kind}`, expected: 'Halide computes the algorithm\'s values', actual: showHalideVerdict(v), tally: v.kind };
    }
  },
  encode: (c) => {
    const python = c.reproducer();
    const text = encodeSched(c);
    return python !== undefined ? { ...text, extra: { ...text.extra, python } } : text;
  },
  decode: (t, env) => withReproducer(decodeSched(t, env), env),
  shape: schedShape,
  observe: observeSched,
  directivesOf: (c) => c.names,
  seeded: schedSeeded(),
};
