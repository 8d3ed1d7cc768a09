// The case most properties share: a generated algorithm with an input (def. 2.1), plus the
// fast evaluator's realization of it, computed once per case.
import fc from 'fast-check';
import { UserError } from '../../diag.js';
import type { Input, Pipeline } from '../../alg-semantics/ast.js';
import { type Realization, realize } from '../../alg-semantics/fast-eval.js';
import type { FuzzEnv } from '../env.js';
import { type InputB, arbInputB, decodeInput } from '../gen/pipeline.js';
import { type AlgorithmB, arbAlgorithmB, decodeAlgorithm } from '../gen/algorithm.js';
import type { CaseText } from '../property.js';
import { PROFILES } from '../gen/profile.js';
import { abstractInts, inputOf, inputText, programOf, programText } from './text.js';

export interface AlgGen {
  readonly p: AlgorithmB;
  readonly z: InputB;
}

export interface AlgCase {
  readonly pipeline: Pipeline;
  readonly input: Input;
  /**
   * The step budget of the case's runs when it needs more than the campaign's: a seed's case
   * (gen/seeded.ts), whose pipeline is as big as real ones are. Kept in the case's text.
   */
  readonly maxSteps?: number;
}

/** The step budget of each run of a case. */
export const stepBudget = (c: AlgCase, env: FuzzEnv): number => Math.max(env.config.maxSteps, c.maxSteps ?? 0);

const cache = new WeakMap<FuzzEnv, fc.Arbitrary<AlgGen>>();

export function arbAlgGen(env: FuzzEnv): fc.Arbitrary<AlgGen> {
  let a = cache.get(env);
  if (!a) cache.set(env, (a = fc.record({ p: arbAlgorithmB(env.gen), z: arbInputB() })));
  return a;
}

const withExtremes = new WeakMap<FuzzEnv, fc.Arbitrary<AlgGen>>();

/**
 * Three cases in four as arbAlgGen draws them, one from the `extremes` profile (gen/profile.ts):
 * constants and window minima at and beyond ±2^53, where values change representation.
 */
export function arbAlgGenWithExtremes(env: FuzzEnv): fc.Arbitrary<AlgGen> {
  let a = withExtremes.get(env);
  if (!a) {
    const o = { ...env.gen, ...PROFILES.extremes.gen };
    withExtremes.set(env, (a = fc.oneof({ weight: 3, arbitrary: arbAlgGen(env) }, { weight: 1, arbitrary: fc.record({ p: arbAlgorithmB(o), z: arbInputB(o) }) })));
  }
  return a;
}

export function algCase(g: AlgGen, env: FuzzEnv): AlgCase {
  const pipeline = decodeAlgorithm(g.p, env.gen);
  return { pipeline, input: decodeInput(g.z, pipeline) };
}

export function encodeAlg(c: AlgCase): CaseText {
  return { program: programText(c.pipeline), input: inputText(c.input), ...(c.maxSteps !== undefined ? { extra: { max_steps: String(c.maxSteps) } } : {}) };
}

export function decodeAlg(t: CaseText, env: FuzzEnv): AlgCase {
  const steps = Number(t.extra?.max_steps);
  return { pipeline: programOf(t, env), input: inputOf(t), ...(Number.isSafeInteger(steps) && steps > 0 ? { maxSteps: steps } : {}) };
}

export const algShape = (c: AlgCase): string => abstractInts(programText(c.pipeline));

/** The fast evaluator's realization, or the reason there is none (budget: the case is discarded). */
export function realizeFast(c: AlgCase, env: FuzzEnv): Realization | { budget: string } {
  try {
    return realize(c.pipeline, c.input, { maxSteps: stepBudget(c, env) });
  } catch (e) {
    if (e instanceof UserError && /step|deeply/.test(e.message)) return { budget: 'algorithm step budget' };
    throw e;
  }
}
