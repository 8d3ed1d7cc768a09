// Public API of the Perceus component (thesis ch. 4).
export { arbLambdaProgram, programFromChoices } from './arbitrary.js';
export { CHECKS, type CheckName, stepChecker } from './checks.js';
export { checkDerivable, consumes } from './declarative.js';
export { elaborate } from './elaborate.js';
export { compile } from './heap-compile.js';
export { run } from './heap-machine.js';
export { CONFIGS, type Config, type StageHooks, annotate, applicableChecks, perceusProperty, runAnnotated, runConfig } from './pipeline.js';
export { rulesFired } from './rules-fired.js';
export { printExpr, printProgram } from './print.js';
export { loadProgram } from './scope.js';
export { scopedRc } from './scoped.js';
export { evalStandard } from './standard.js';
export { type Stats } from './stats.js';
export type { Expr, Program } from './syntax.js';
export { perceus, printDerivation } from './syntax-directed.js';
