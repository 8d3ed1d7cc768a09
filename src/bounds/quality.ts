// The bounds quality constraint (def. 2.5, §2.3.3): wherever the reference engine β0 yields a
// program that agrees with the algorithm on an input, every compliant engine must too. The check
// is per input: it says whether the constraint applies there and, if so, whether it holds.
import type { Input, Pipeline } from '../alg-semantics/ast.js';
import { type Verdict, type VerdictOptions, showVerdict, verdictFor } from '../lowering/equivalence.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { BUILTIN_ENGINES, type BoundsEngine, completeProgram } from './engine.js';

const QUALITY_RULE = 'QUALITY';

export type QualityReport =
  /** β0 does not succeed and agree on this input: def. 2.5 asks nothing of the engine */
  | { readonly applies: false; readonly reason: string }
  | { readonly applies: true; readonly holds: boolean; readonly verdict: Verdict; readonly engineFailure?: string };

/** [QUALITY] def. 2.5 on one input: (1)–(3) for β0, then β(T) ≃_z P for the engine. */
export function checkQuality(p: Pipeline, t: TgtProgram, input: Input, engine: BoundsEngine, opts: VerdictOptions = {}): QualityReport {
  const base = completeProgram(t, BUILTIN_ENGINES.beta0!);
  if (base.completedBy.failure) return { applies: false, reason: `β0 fails: ${base.completedBy.failure}` };
  const v0 = verdictFor(p, base, input, opts);
  // 'equal' is exactly (1) no error value in the window, (2) no failed assertion and (3) P ≃_z β0(T).
  if (v0.kind !== 'equal') return { applies: false, reason: `β0's program is not equal to the algorithm here: ${showVerdict(v0)}` };
  const done = completeProgram(t, engine);
  const verdict = verdictFor(p, done, input, opts);
  const failure = done.completedBy.failure;
  return { applies: true, holds: verdict.kind === 'equal', verdict, ...(failure ? { engineFailure: failure } : {}) };
}

export function showQuality(r: QualityReport, engine: string): string {
  return `[${QUALITY_RULE}] ${describeQuality(r, engine)}`;
}

function describeQuality(r: QualityReport, engine: string): string {
  if (!r.applies) return `quality constraint does not apply on this input (${r.reason})`;
  const why = r.engineFailure ? ` (the engine failed: ${r.engineFailure})` : '';
  return r.holds
    ? `quality constraint holds: β0 and ${engine} both agree with the algorithm on this input`
    : `quality constraint VIOLATED: β0 agrees with the algorithm on this input but ${engine} gives ${showVerdict(r.verdict)}${why}`;
}
