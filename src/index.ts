// Algorithm language (§2.4): syntax, validity, semantics.
export * from './alg-semantics/ast.js';
export { parsePipeline } from './alg-semantics/parse.js';
export { printPipeline } from './alg-semantics/print.js';
export { checkPipeline, validatePipeline } from './alg-semantics/validate.js';
export { loadPipeline } from './alg-semantics/load.js';
export { type InputLike, checkInput, DEFAULT_MAX_POINTS, inputOf } from './alg-semantics/input.js';
export { type Realization, makePointEvaluator, realize, realizationJson } from './alg-semantics/fast-eval.js';
export { type Derivation, type SpecResult, derivePoint, realizeSpec, showDerivation } from './alg-semantics/spec-eval.js';
// Lowering (§2.6), its invariants (lemmas 2.4, 2.5), verdicts (defs. 2.1–2.3), hand completions.
export { type LowerTrace, lower, windowParams } from './lowering/lower.js';
export { checkDominance, checkLoopNaming } from './lowering/invariants.js';
export {
  type CompareOptions, type Verdict, type VerdictOptions,
  compareOutputs, isConfluent, negativeRdom, showVerdict, verdictFor,
} from './lowering/equivalence.js';
export { type HandBounds, fillByHand, parseCompletion } from './lowering/handfill.js';
// Target language (§2.5): syntax, small-step machine (fig. 2.8), fast executor, parallel loops.
export * from './target-semantics/ast.js';
export * from './target-semantics/outcome.js';
export { type Completion, assertHoleFree, fillHoles, holesOf, mapStmtExprs, stmtExprs } from './target-semantics/holes.js';
export { TGT_KEYWORDS, parseStmtText, parseTgt } from './target-semantics/parse.js';
export { type LoopName, loopVarName, parseLoopName, showLoopName, stageLabel } from './target-semantics/loop-name.js';
export { type LoopInfo, type PathStep, type StmtPath, loopsOf, replaceAt, stmtAt } from './target-semantics/walk.js';
export { printHead, printStmt, printTgt } from './target-semantics/print.js';
export { type CheckedTgt, bindInput, checkTgt } from './target-semantics/check.js';
export { MACHINE_MAX_STEPS, type MachineOptions, type RuleId, type StepEvent, runMachine, showStep } from './target-semantics/machine.js';
export { type CompiledTgt, type RunOptions, compileTgt, execTgt, exprSteps } from './target-semantics/exec.js';
export { outcomeJson, showBuffer, showOutcome, showStuck } from './target-semantics/display.js';
// Seeded random choices (parallel loop orders, generated directive arguments).
export { type Rng, seededRng } from './rng.js';
// Scheduling (§2.8): directives, schedule syntax, the driver and the directive plug-in API.
export { type ArgRecord, type ArgValue, type Args, type Directive, type DirectiveApi, type DirectiveCall, type DirectiveCtx, type ParamSpec, type ParamType, type Phase, type Schedule, DirectiveRegistry, PHASES, Rejection, defineDirective } from './schedule/plugin.js';
export { loadDirectiveModule } from './node/plugins.js';
export { BUILTINS as BUILTIN_DIRECTIVES, builtinRegistry } from './schedule/builtins.js';
export { directiveApi } from './schedule/api.js';
export { parseSchedule } from './schedule/parse.js';
export { printCall, printSchedule } from './schedule/print.js';
export { type ApplyOptions, applySchedule, directiveCtx, generateCall, invariantViolations } from './schedule/apply.js';
export { loadSchedule, registryWith } from './node/plugins.js';
// C and SIMD code generation (ch. 5): emission, the batched toolchain, verdicts against the reference.
export {
  type Backend, type BackendCheckOptions, type BatchItem, type BinaryResult, type CodegenFaults, type EmitOptions,
  type SimdMode, type StatusName, type BackendVerdict, STATUS, backendVerdict, compileAndRun, detectToolchain,
  emitC, emitPipeline, judgeBatch, overflowConfirmed, showBackendVerdict, validateBackend, validateBatch,
} from './codegen/index.js';
export {
  type CheckName as PerceusCheckName, type Config as PerceusConfig, type Program as LambdaProgram, CONFIGS as PERCEUS_CONFIGS,
  annotate as annotateRc, arbLambdaProgram, checkDerivable, loadProgram as loadLambdaProgram, perceus, perceusProperty,
  runConfig as runRcConfig,
} from './perceus/index.js';
// Bounds inference (§2.7): the query 𝓑, interval arithmetic 𝓘, β0 and β1, the engine plug-in API,
// completions, concrete and Z3 checks of a completion, and the quality constraint (def. 2.5).
export { type HolePair, type QNode, type Query, extractQuery, pairKey, printQuery } from './bounds/query.js';
export { type Interval, type IntervalEnv, evalInterval, hull } from './bounds/interval.js';
export { type CoverAssertion, type InferOptions, type InferResult, beta0, infer } from './bounds/beta0.js';
export { beta1, funcValueRanges } from './bounds/beta1.js';
export { type BoundsEngine, type CompletedProgram, type EngineAnswer, type EngineResult, BUILTIN_ENGINES, completeProgram, defineBoundsEngine, runEngine } from './bounds/engine.js';
export { loadEngineModule, resolveEngine } from './node/plugins.js';
export { applyCompletion, failedProgram, withAssertions } from './bounds/completion.js';
export { type ConcreteReport, type Violation as BoundsViolation, checkConcrete, showViolation } from './bounds/concrete-check.js';
export { type VerifyOptions, type VerifyResult, verifyCompletion } from './bounds/verify-z3.js';
export { shutdownZ3 } from './expr/smt.js';
export { type QualityReport, checkQuality, showQuality } from './bounds/quality.js';
// The simplifier (spec/simplify.md): proved rewrite rules in two domains.
export { type Domain, type Rule, type RuleSet, ruleSet, ruleSource } from './simplify/rule.js';
export { parseRules } from './simplify/parse-rules.js';
export { BUILTIN_RULE_SET, BUILTIN_RULES } from './simplify/builtin-rules.js';
export { type RewriteStep, type SimplifyOptions, simplifyWith } from './simplify/simplify.js';
export { type RuleVerdict, proveRule, proveRules } from './simplify/prove-z3.js';
// Fuzzing (docs/fuzzing.md): properties, campaigns, reproducers, the bug zoo.
export { type AnyProperty, type CaseText, type CheckResult, type Property } from './fuzz/property.js';
export { PROPERTIES, propertyNamed, selectProperties } from './fuzz/properties/index.js';
export { type CampaignOptions, type CampaignResult, type FailureEntry, startCampaign } from './fuzz/runner.js';
export { type EnvConfig, type FuzzEnv, DEFAULT_CONFIG as FUZZ_DEFAULT_CONFIG } from './fuzz/env.js';
export { makeEnv } from './fuzz/make-env.js';
export { type Reproducer, readReproducer } from './fuzz/reproducer.js';
export { replay } from './fuzz/replay.js';
export { mergeSummaries } from './fuzz/merge.js';
export { checkDirective } from './fuzz/check-directive.js';
export { FAULTS, type Fault } from './fuzz/zoo/faults.js';
export { runZoo, zooFigures } from './fuzz/zoo/run.js';
export { arbInputB, arbPipelineB, decodeInput, decodePipeline } from './fuzz/gen/pipeline.js';
