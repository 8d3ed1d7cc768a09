// The public API of the package (docs/api.md lists and explains every name exported here; a test
// checks that the two agree). Everything else in src/ is internal and may change without notice.

// The flow of a program (docs/architecture.md): parse, validate, lower, schedule, query, complete,
// run, compare, and the composed paths, as one namespace.
export * as flow from './pipeline.js';
export type { FlowEvent, FlowObserver } from './pipeline.js';
// Algorithms (thesis §2.4): syntax, validity, inputs, the big-step and the fast evaluator.
export type * from './alg-semantics/ast.js';
export { parsePipeline } from './alg-semantics/parse.js';
export { printPipeline } from './alg-semantics/print.js';
export { validatePipeline } from './alg-semantics/validate.js';
export { loadPipeline } from './alg-semantics/load.js';
export { type InputLike, checkInput, inputOf } from './alg-semantics/input.js';
export { type Realization, realize, realizationJson } from './alg-semantics/fast-eval.js';
export { type Derivation, type SpecResult, derivePoint, realizeSpec, showDerivation } from './alg-semantics/spec-eval.js';
// Lowering (§2.6) and verdicts (defs. 2.1–2.3).
export { lower } from './lowering/lower.js';
export { type Verdict, type VerdictOptions, showVerdict, verdictFor } from './lowering/equivalence.js';
// Target programs (§2.5): syntax, the small-step machine (fig. 2.8), the fast executor.
export type * from './target-semantics/ast.js';
export type * from './target-semantics/outcome.js';
export { parseTgt } from './target-semantics/parse.js';
export { printTgt } from './target-semantics/print.js';
export { type MachineOptions, runMachine } from './target-semantics/machine.js';
export { type RunOptions, execTgt } from './target-semantics/exec.js';
export { outcomeJson, showOutcome } from './target-semantics/display.js';
// Scheduling (§2.8): schedules, the built-in directives and the directive plug-in API.
export type { ArgRecord, ArgValue, Args, Choices, Directive, DirectiveApi, DirectiveCall, DirectiveCtx, LoopWrapper, ParamSpec, ParamType, Phase, Schedule } from './schedule/plugin.js';
export { DirectiveRegistry, PHASES, Rejection, defineDirective } from './schedule/plugin.js';
export { builtinRegistry } from './schedule/builtins.js';
export { directiveApi } from './schedule/api.js';
export { parseSchedule } from './schedule/parse.js';
export { printSchedule } from './schedule/print.js';
export { applySchedule } from './schedule/apply.js';
export { loadDirectiveModule, loadEngineModule, loadSchedule, resolveEngine } from './node/plugins.js';
// Bounds inference (§2.7): the query, the engines and their plug-in API, checks of a completion.
export { type Query, extractQuery, printQuery } from './bounds/query.js';
export { type BoundsEngine, type CompletedProgram, type EngineAnswer, BUILTIN_ENGINES, completeProgram, defineBoundsEngine } from './bounds/engine.js';
export { type ConcreteReport, checkConcrete } from './bounds/concrete-check.js';
export { type VerifyOptions, type VerifyResult, verifyCompletion } from './bounds/verify-z3.js';
export { shutdownZ3 } from './expr/smt.js';
export { type QualityReport, checkQuality } from './bounds/quality.js';
// The simplifier (spec/simplify.md): rewrite rules proved in their domain.
export { type Domain, type Rule, type RuleSet, ruleSet } from './simplify/rule.js';
export { parseRules } from './simplify/parse-rules.js';
export { BUILTIN_RULE_SET } from './simplify/builtin-rules.js';
export { type RewriteStep, type SimplifyOptions, simplifyWith } from './simplify/simplify.js';
export { type RuleVerdict, proveRules } from './simplify/prove-z3.js';
// Code generation (ch. 5): C and SIMD emission and validation against the reference.
export { type Backend, type BackendVerdict, type EmitOptions, emitC, showBackendVerdict, validateBackend } from './codegen/index.js';
// Halide 14 as a peer (spec/halide.md).
export { halideProgram } from './halide/emit.js';
export { type HalideVerdict, halideAvailable, showHalideVerdict, validateHalide } from './halide/run.js';
// Perceus (ch. 4).
export { type Config as PerceusConfig, type Program as LambdaProgram, CONFIGS as PERCEUS_CONFIGS, loadProgram as loadLambdaProgram, perceusProperty, runConfig as runRcConfig } from './perceus/index.js';
// Fuzzing (docs/fuzzing.md): campaigns, reproducers, checking a directive, the generators.
export type { AnyProperty, CaseText, CheckResult, Property } from './fuzz/property.js';
export { PROPERTIES, propertyNamed } from './fuzz/properties/index.js';
export { type CampaignOptions, type CampaignResult, type FailureEntry, startCampaign } from './fuzz/runner.js';
export { type EnvConfig, DEFAULT_CONFIG as FUZZ_DEFAULT_CONFIG } from './fuzz/env.js';
export { type Reproducer, readReproducer } from './fuzz/reproducer.js';
export { replay } from './fuzz/replay.js';
export { mergeSummaries } from './fuzz/merge.js';
export { checkDirective } from './fuzz/check-directive.js';
export { type AlgGenOptions, arbInput, arbPipeline } from './fuzz/arbitraries/alg.js';
