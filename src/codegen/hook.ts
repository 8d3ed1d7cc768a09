// The hook fuzz campaigns plug the binary comparison into (`refsem fuzz --backend c|simd`):
// (program, schedule, inputs) → one verdict per input. Programs are lowered and scheduled (§2.8),
// completed by a bounds engine (§2.7), compiled in one batch and judged against the reference.
import type { Input, Pipeline } from '../alg-semantics/ast.js';
import { type BoundsEngine, BUILTIN_ENGINES } from '../bounds/engine.js';
import { completed } from '../pipeline.js';
import type { Schedule } from '../schedule/plugin.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { type BackendCheckOptions, type BackendVerdict, showBackendVerdict, validateBatch } from './validate.js';

export interface BackendCase {
  /** an algorithm (lowered first) or a target program, with or without holes */
  readonly program: Pipeline | TgtProgram;
  readonly schedule?: Schedule;
  readonly inputs: readonly Input[];
}

export interface HookOptions extends BackendCheckOptions {
  /** completes programs with holes (default beta0) */
  readonly engine?: BoundsEngine;
}

const isTgt = (p: Pipeline | TgtProgram): p is TgtProgram => 'body' in p;

/** The completed target program of a case. */
export function completedTarget(c: BackendCase, engine: BoundsEngine = BUILTIN_ENGINES.beta0!): TgtProgram {
  return completed(isTgt(c.program) ? { target: c.program } : { algorithm: c.program }, c.schedule, engine);
}

/** Many cases in one compile: one row of verdicts per case, one verdict per input. */
export async function checkBackendBatch(cases: readonly BackendCase[], opts: HookOptions): Promise<BackendVerdict[][]> {
  const items = cases.map((c) => ({ t: completedTarget(c, opts.engine), inputs: c.inputs }));
  return validateBatch(items, opts);
}

/** One case: `checkBackend(program, schedule, inputs, { backend: 'c' | 'simd' })`. */
export async function checkBackend(program: Pipeline | TgtProgram, schedule: Schedule | undefined, inputs: readonly Input[], opts: HookOptions): Promise<BackendVerdict[]> {
  return (await checkBackendBatch([{ program, ...(schedule ? { schedule } : {}), inputs }], opts))[0]!;
}

/**
 * A property's check result from a case's verdicts: the first failing input makes the case fail,
 * with the verdict kind (`differs`, `overflow`, `stuck`, `binary-failed`) as the failure class.
 */
export function verdictsToCheck(vs: readonly BackendVerdict[]): { status: 'pass'; vacuous?: 'empty_window' } | { status: 'fail'; verdict: string; expected: string; actual: string } {
  const bad = vs.find((v) => !v.ok);
  // A pass on inputs whose windows are all empty compared no value: counted as vacuous.
  if (!bad) return vs.every((v) => v.kind === 'equal' && v.compared === 0) ? { status: 'pass', vacuous: 'empty_window' } : { status: 'pass' };
  // refsem's own C that does not compile is refsem's fault, not a counterexample to the backend's agreement.
  if (bad.kind === 'binary-failed' && bad.binary === 'compile-error') return { status: 'fail', verdict: 'internal-error', expected: "refsem's C compiles with $CC and $CFLAGS", actual: showBackendVerdict(bad) };
  const expected = bad.kind === 'differs' ? 'the reference values on the window' : bad.kind === 'stuck' ? String(bad.reference) : 'agreement with the reference';
  return { status: 'fail', verdict: `backend-${bad.kind}`, expected, actual: showBackendVerdict(bad) };
}
