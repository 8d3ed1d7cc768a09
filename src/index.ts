// Algorithm language (§2.4): syntax, validity, semantics.
export * from './alg-semantics/ast.js';
export { parsePipeline } from './alg-semantics/parse.js';
export { printPipeline } from './alg-semantics/print.js';
export { checkPipeline, validatePipeline } from './alg-semantics/validate.js';
export { loadPipeline } from './alg-semantics/load.js';
export { checkInput, DEFAULT_MAX_POINTS } from './alg-semantics/input.js';
export { type Realization, makePointEvaluator, realize, realizationJson } from './alg-semantics/fast-eval.js';
export { type Derivation, type SpecResult, derivePoint, realizeSpec, showDerivation } from './alg-semantics/spec-eval.js';
