// Generated cases for the bounds tests: a valid algorithm, a random valid schedule decoded by the
// fuzzers' schedule generator (each directive's own `generate`), and a small input.
import fc from 'fast-check';
import type { Input, Pipeline } from '../../src/alg-semantics/ast.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { DEFAULT_CONFIG, type FuzzEnv, baseEnv } from '../../src/fuzz/env.js';
import { scheduleDriver } from '../../src/fuzz/gen/driver.js';
import { arbChoices, decodeChoices } from '../../src/fuzz/gen/schedule.js';
import { lower } from '../../src/lowering/lower.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';

export interface Case {
  readonly p: Pipeline;
  readonly t: TgtProgram;
  readonly schedule: string;
  readonly input: Input;
}

const env: FuzzEnv = { ...baseEnv(DEFAULT_CONFIG), schedule: scheduleDriver(builtinRegistry()) };

export function arbCase(o: { maxFuncs?: number; directives?: number; dataDependent?: boolean } = {}): fc.Arbitrary<Case> {
  // Error constants are ε_rdom only: the verdicts (spec/lowering.md) excuse a run stuck on the
  // algorithm's ε_rdom outside the window, not on its ε_mem (the campaigns excuse both, docs/fuzzing.md, "Decision — error constants").
  const algs = arbPipeline({ maxFuncs: o.maxFuncs ?? 3, maxDims: 2, maxUpdates: 1, exprDepth: 2, memErrors: false, dataDependent: o.dataDependent ?? true });
  const choices = arbChoices(env).map((cs) => cs.slice(0, o.directives ?? 4));
  return fc.tuple(algs, choices).chain(([p, cs]) => {
    const s = decodeChoices(lower(p), cs, env);
    const t = s.steps[s.steps.length - 1]!;
    return arbInput(p).map((input) => ({ p, t, schedule: s.scheduleText, input }));
  });
}
