// The programs commands work on, read from the files named on the command line: an algorithm
// (lowered and scheduled) or a hand-written Tgt? program (`.tgt`, scheduled too when a schedule is
// given), and the same completed by a bounds engine. Reading is all this module does; the steps
// are the flow's (src/pipeline.ts).
import type { Pipeline } from '../alg-semantics/ast.js';
import { loadPipeline } from '../alg-semantics/load.js';
import { algorithm, completed, type FlowObserver, initialProgram, type ProgramInput, scheduled, targetProgram } from '../pipeline.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { checkTgt } from '../target-semantics/check.js';
import { loadSchedule, resolveEngine } from './plugins.js';
import { readSource } from './source.js';

export interface ProgramFiles {
  /** an algorithm (`.alg`) or a target program (`.tgt`) */
  readonly prog: string;
  readonly schedule?: string;
  /** the algorithm of a `.tgt` program */
  readonly alg?: string;
  /** user directive modules the schedule may use */
  readonly directives?: readonly string[];
}

/** The program's input to the flow: parsed and validated, not yet lowered. */
export function readProgramInput(files: ProgramFiles, observer?: FlowObserver): ProgramInput {
  const src = readSource(files.prog);
  if (!/\.tgt$/.test(src.file)) return { algorithm: algorithm(src, observer) };
  const alg = files.alg === undefined ? undefined : readAlgorithm(files.alg);
  return { target: targetProgram(src), ...(alg ? { algorithm: alg } : {}) };
}

function readAlgorithm(path: string): Pipeline {
  const { text, file } = readSource(path);
  return loadPipeline(text, file);
}

/** Tn with its holes, and the algorithm when there is one. */
export async function readScheduled(files: ProgramFiles, observer?: FlowObserver): Promise<{ t: TgtProgram; alg?: Pipeline }> {
  const input = readProgramInput(files, observer);
  const s = files.schedule === undefined ? undefined : await loadSchedule(files.schedule, files.directives ?? [], () => initialProgram(input));
  const t = scheduled(input, s, observer);
  return input.algorithm ? { t, alg: input.algorithm } : { t };
}

/** The completed program, and a note when the engine failed (the program is then `assert 0`). */
export async function readCompleted(files: ProgramFiles & { readonly engine?: string }): Promise<{ t: TgtProgram; note?: string }> {
  const input = readProgramInput(files);
  const s = files.schedule === undefined ? undefined : await loadSchedule(files.schedule, files.directives ?? [], () => initialProgram(input));
  const engine = await resolveEngine(files.engine ?? 'beta0');
  const done = completed(input, s, engine);
  checkTgt(done);
  const failure = done.completedBy.failure;
  return failure === undefined ? { t: done } : { t: done, note: `bounds engine ${engine.name} failed, the program is \`assert 0\`: ${failure}` };
}
