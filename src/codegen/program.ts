// The program the codegen commands work on: an algorithm lowered and scheduled, or a .tgt program
// (scheduled too when a schedule is given), completed by a bounds engine when it has holes (§2.7).
import { completeProgram, resolveEngine } from '../bounds/engine.js';
import { loadProgram } from '../bounds/program.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { checkTgt } from '../target-semantics/check.js';
import { holesOf } from '../target-semantics/holes.js';

export interface ProgramSource {
  readonly prog: string;
  readonly schedule?: string;
  readonly directives?: readonly string[];
  /** bounds engine for programs with holes (default beta0) */
  readonly engine?: string;
}

/** The completed program, and a note when the engine failed (the program is then `assert 0`). */
export async function loadCompleted(src: ProgramSource): Promise<{ t: TgtProgram; note?: string }> {
  const { t } = await loadProgram(src.prog, {
    ...(src.schedule !== undefined ? { schedule: src.schedule } : {}),
    directives: src.directives ?? [],
  });
  if (holesOf(t).length === 0) {
    checkTgt(t);
    return { t };
  }
  const engine = await resolveEngine(src.engine ?? 'beta0');
  const done = completeProgram(t, engine);
  checkTgt(done);
  const failure = done.completedBy.failure;
  return failure === undefined ? { t: done } : { t: done, note: `bounds engine ${engine.name} failed, the program is \`assert 0\`: ${failure}` };
}
