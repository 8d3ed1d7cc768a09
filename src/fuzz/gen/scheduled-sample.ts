// A fixed sample of generated, scheduled programs (holes still open) with an input each: small
// algorithms of up to three funcs and random schedules, drawn from a fixed seed so that every
// run measures the same programs. Benchmarks measure bounds inference on it, and rule synthesis
// collects the expressions bounds inference leaves from it.
import fc from 'fast-check';
import type { Input } from '../../alg-semantics/ast.js';
import { lower } from '../../lowering/lower.js';
import { builtinRegistry } from '../../schedule/builtins.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { arbInput, arbPipeline } from '../arbitraries/alg.js';
import { DEFAULT_CONFIG, type FuzzEnv, baseEnv } from '../env.js';
import { scheduleDriver } from './driver.js';
import { arbChoices, decodeChoices } from './schedule.js';

export interface ScheduledCase {
  readonly t: TgtProgram;
  readonly input: Input;
}

const env: FuzzEnv = { ...baseEnv(DEFAULT_CONFIG), schedule: scheduleDriver(builtinRegistry()) };

export function sampleScheduled(n: number): ScheduledCase[] {
  const arb = fc.tuple(arbPipeline({ maxFuncs: 3, maxDims: 2, maxUpdates: 1 }), arbChoices(env)).chain(([p, cs]) => {
    const s = decodeChoices(lower(p), cs, env);
    return arbInput(p, { maxWindowLen: 4 }).map((input) => ({ t: s.steps[s.steps.length - 1]!, input }));
  });
  return fc.sample(arb, { numRuns: n, seed: 2024 });
}
