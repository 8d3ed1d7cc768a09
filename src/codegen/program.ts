// The program the codegen commands work on: a completed target program (.tgt, hole-free), or an
// algorithm lowered, scheduled and completed by a bounds engine.
import { UserError } from '../diag.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { checkTgt } from '../target-semantics/check.js';
import { parseTgt } from '../target-semantics/parse.js';
import { readSource } from '../cli/io.js';

export interface ProgramSource {
  readonly prog: string;
  readonly schedule?: string;
  readonly engine?: string;
}

/** Reads PROG; a .tgt file must be complete (no holes), since C needs every bound as an expression. */
export function loadCompleted(src: ProgramSource): TgtProgram {
  const { text, file } = readSource(src.prog);
  if (src.schedule !== undefined) {
    throw new UserError(
      '--schedule is not available in this build: the scheduler is not present',
      { file: '<command line>', line: 1, col: 1 },
      'schedule and complete the program first, then pass the completed .tgt program',
    );
  }
  const t = parseTgt(text, file);
  checkTgt(t);
  return t;
}
