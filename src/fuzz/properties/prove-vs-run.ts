// The prover and the executors check each other (spec/effects.md, [OBL-AGREE]): on a generated
// (algorithm, schedule, input), every call is proved; a schedule whose calls are all proved must
// run as the algorithm says (confluence, race freedom, memory safety on the case's input), and the
// first refuted call must fail when its witness is run. Either disagreement is a bug of the prover
// or of the executors. Z3 answers each obligation, so the property runs only when asked for.
import { printSchedule } from '../../schedule/print.js';
import { parseSchedule } from '../../schedule/parse.js';
import { showAnswer } from '../../effects/obligation.js';
import type { FuzzEnv } from '../env.js';
import { makeEnv } from '../make-env.js';
import { REPLAY_CONFIG, firstFailure, proveSchedule, upTo, witnessInput } from '../prove.js';
import type { CheckResult, Property } from '../property.js';
import { type SchedCase, type SchedGen, arbSchedGen, decodeSched, encodeSched, observeSched, schedCase, schedShape } from './sched-case.js';

/** The environment replays run in: the campaign's, with the step budget of [OBL-REPLAY]. */
const replayEnvs = new WeakMap<FuzzEnv, Promise<FuzzEnv>>();
function replayEnv(env: FuzzEnv): Promise<FuzzEnv> {
  let e = replayEnvs.get(env);
  if (!e) replayEnvs.set(env, (e = makeEnv(REPLAY_CONFIG(env.config))));
  return e;
}

/** implements [OBL-AGREE]: what the prover says of the case's calls, checked by running them. */
async function check(c: SchedCase, env: FuzzEnv): Promise<CheckResult> {
  if (c.trouble) return { status: 'discard', why: 'a directive failed on its own proposal' };
  const s = parseSchedule(c.scheduleText, '<generated>', env.schedule!.registry);
  const proofs = await proveSchedule(c.steps[0]!, s);
  const refuted = proofs.find((p) => p.verdict === 'refuted');
  if (refuted) {
    const r = refuted.results.find((x) => x.answer.k === 'refuted')!;
    if (r.answer.k !== 'refuted') throw new Error('unreachable: a refuted call has a refuted obligation');
    const input = witnessInput(c.steps[0]!, r.answer.witness);
    if (!input) return { status: 'discard', why: 'a refutation\'s witness too large to run' };
    const prefix = printSchedule(upTo(s, refuted.index));
    const ran = await firstFailure({ ...encodeSched(c), schedule: prefix, input }, await replayEnv(env));
    if (ran.failure) return { status: 'pass', tally: 'refuted, replayed as a failure' };
    if (ran.discarded.length > 0) return { status: 'discard', why: 'a refutation\'s replay compared nothing' };
    return {
      status: 'fail', verdict: 'refuted-but-runs-equal',
      expected: `${refuted.text} refuted by ${r.what}: ${showAnswer(r.answer)}, so its witness fails when run`,
      actual: `the schedule up to that call is confluent, race-free and memory-safe on ${JSON.stringify(input)}`,
    };
  }
  if (proofs.some((p) => p.verdict === 'unknown')) return { status: 'pass', tally: 'unknown' };
  const ran = await firstFailure(encodeSched(c), env);
  if (!ran.failure) return { status: 'pass', tally: ran.discarded.length > 0 ? 'proved, run compared nothing' : 'proved, runs equal' };
  return {
    status: 'fail', verdict: 'proved-but-fails',
    expected: `every call proved, so ${ran.failure.property} holds: ${ran.failure.failure.expected}`,
    actual: `${ran.failure.failure.verdict}: ${ran.failure.failure.actual}`,
  };
}

export const proveVsRun: Property<SchedGen, SchedCase> = {
  name: 'prove-vs-run',
  summary: 'spec/effects.md: a schedule whose every directive is proved runs equal, race-free and in bounds; a refuted directive\'s witness fails when run',
  arbitrary: (env) => arbSchedGen(env),
  concretize: schedCase,
  check: () => ({ status: 'discard', why: 'the prove-vs-run property runs asynchronously' }),
  checkAsync: check,
  directivesOf: (c) => c.names,
  encode: encodeSched,
  decode: decodeSched,
  shape: schedShape,
  observe: observeSched,
};
