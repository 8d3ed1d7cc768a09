// The code generation component's public API (spec/codegen.md): emission, the batched toolchain,
// verdicts against the reference, and the hook campaigns call.
export { type EmitOptions, type EmittedPipeline, type SimdMode, emitC, emitPipeline } from './emit-c.js';
export { type CodegenFaults } from './c-syntax.js';
export { type BatchItem, type BinaryResult, type RunLimits, type Toolchain, type ToolchainOptions, compileAndRun, detectToolchain } from './toolchain.js';
export {
  type Backend,
  type BackendCheckOptions,
  type BackendVerdict,
  backendVerdict,
  judgeBatch,
  overflowConfirmed,
  showBackendVerdict,
  validateBackend,
  validateBatch,
} from './validate.js';
export { hostIsas, runnableIsa, widestHostIsa } from './cpu.js';
export { LANES, vectorPlan } from './emit-simd.js';
export { type Isa } from './c-syntax.js';
export { STATUS, type StatusName, entryName, mangle } from './abi.js';
export { generateInputs } from './inputs.js';
export { type BackendCase, type HookOptions, checkBackend, checkBackendBatch, completedTarget, verdictsToCheck } from './hook.js';
