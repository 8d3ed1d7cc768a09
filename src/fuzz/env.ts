// The environment a campaign checks against: which bounds engine completes programs, which
// directives schedules may use, the per-check step budget, and — for the bug zoo only — which
// planted fault replaces a component by its faulty copy. Built from a plain, serializable
// configuration so that worker threads and `refsem replay` rebuild exactly the same environment.
import type { StageHooks } from '../perceus/pipeline.js';
import type { Input, Pipeline } from '../alg-semantics/ast.js';
import { checkPipeline } from '../alg-semantics/validate.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { type RunOptions, execTgt } from '../target-semantics/exec.js';
import type { Outcome } from '../target-semantics/outcome.js';
import { DEFAULT_GEN, type GenOptions } from './gen/pipeline.js';
import type { ScheduleDriver } from './gen/driver.js';
import { BUILTIN_ENGINES, type BoundsEngine } from '../bounds/engine.js';
import type { CodegenFaults } from '../codegen/c-syntax.js';
import { BUILTIN_RULE_SET } from '../simplify/builtin-rules.js';
import type { RuleSet } from '../simplify/rule.js';
import type { FpirFault } from '../fpir/faults.js';
import type { SeedCase } from './gen/seeded.js';

export interface EnvConfig {
  /** bounds engine: a built-in name (beta0, beta1) or the path of an engine module */
  readonly engine: string;
  /** user directive modules (`--directive MODULE`) */
  readonly directives: readonly string[];
  /** schedules must use this directive (refsem check-directive) */
  readonly focus?: string;
  /** zoo fault to plant (src/fuzz/zoo) */
  readonly fault?: string;
  /** step budget of each evaluator run inside one check */
  readonly maxSteps: number;
  /** compiled backend checked by the `backend` property (`--backend c|simd`) */
  readonly backend?: 'c' | 'simd';
  /** the most funcs a generated pipeline has (`--max-funcs`, 1–16) */
  readonly maxFuncs: number;
  /** the most directive choices a generated schedule makes (`--max-directives`, 0–32) */
  readonly maxDirectives: number;
  /** swarm testing (`--swarm on|off`): each case draws a subset of stage kinds and directives */
  readonly swarm: boolean;
  /** the directory of the seed corpus (`--seeds DIR`, fuzz/seeds.ts); none when absent */
  readonly seeds?: string;
}

export const MAX_FUNCS = 16;
export const MAX_DIRECTIVES = 32;

export const DEFAULT_CONFIG: EnvConfig = { engine: 'beta0', directives: [], maxSteps: 200_000, maxFuncs: MAX_FUNCS, maxDirectives: MAX_DIRECTIVES, swarm: false };

/**
 * The percentage of app-shaped pipelines (gen/app.ts) among generated algorithms; the rest come
 * from the generic generator, which reaches the corners of fig. 2.5 (error constants, predicates,
 * division by zero) in small pipelines of at most three funcs.
 */
export const APP_SHARE = 60;

/** The generation options a configuration asks for. */
export function genOptionsOf(config: EnvConfig): GenOptions {
  const maxFuncs = config.maxFuncs ?? MAX_FUNCS;
  return {
    ...DEFAULT_GEN,
    maxFuncs: Math.min(DEFAULT_GEN.maxFuncs, maxFuncs),
    ...(maxFuncs > 1 ? { app: { share: APP_SHARE, maxFuncs } } : {}),
    swarm: config.swarm === true,
    // Coordinates of several digits (values beyond 32 bits come from app pipelines' input scales;
    // wide constants in the generic generator would land in indices and explode allocations).
    farWindows: true,
  };
}

export interface FuzzEnv {
  readonly config: EnvConfig;
  readonly gen: GenOptions;
  /** the fast executor (a zoo fault may wrap it) */
  exec(t: TgtProgram, input: Input, opts?: RunOptions): Outcome;
  /** algorithm validity (defs. 2.7–2.10): the violations, none for a valid pipeline */
  validate(p: Pipeline): readonly string[];
  /** the campaign's bounds engine (built-in, loaded module, or a zoo fault's faulty copy) */
  readonly engine: BoundsEngine;
  /** the scheduling driver with the campaign's directives (built-ins, plug-ins, zoo faults) */
  readonly schedule?: ScheduleDriver;
  /** the simplifier's rules (a zoo fault may plant a wrong one) */
  readonly rules: RuleSet;
  /** miscompilations a zoo fault switches on in the backend property's emitted code */
  readonly codegenFaults?: CodegenFaults;
  /** rewrites a zoo fault plants between the stages of the Perceus translation */
  readonly perceusHooks?: StageHooks;
  /** a planted fault of the FPIR instruction selector, checked by the `fpir` property */
  readonly fpirFault?: FpirFault;
  /** a planted unsound viability test of swizzle synthesis, checked by the `swizzle-prune` property */
  readonly swizzleFault?: 'single-goal-cell';
  /**
   * the seed corpus (gen/seeded.ts) read from `config.seeds`, on first call: a campaign whose
   * properties take no seeds never reads it; absent or empty: no seeded cases
   */
  readonly seeds?: () => readonly SeedCase[];
}

export function baseEnv(config: EnvConfig): FuzzEnv {
  return {
    config,
    gen: genOptionsOf(config),
    exec: execTgt,
    validate: (p) => checkPipeline(p).map((e) => e.message),
    engine: BUILTIN_ENGINES[config.engine] ?? BUILTIN_ENGINES.beta0!,
    rules: BUILTIN_RULE_SET,
  };
}
