// The programs the bounds commands work on: an algorithm lowered (fig. 2.9) and scheduled (§2.8),
// or a Tgt? program written by hand (`.tgt`), scheduled too when a schedule is given.
import type { Pipeline } from '../alg-semantics/ast.js';
import { loadPipeline } from '../alg-semantics/load.js';
import { lower } from '../lowering/lower.js';
import { scheduleFromText } from '../schedule/schedule.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { parseTgt } from '../target-semantics/parse.js';
import { readSource } from '../cli/io.js';

export interface Loaded {
  readonly t: TgtProgram;
  /** the algorithm, when the program was lowered from one or given with it */
  readonly alg?: Pipeline;
}

export interface LoadOptions {
  readonly schedule?: string;
  /** the algorithm of a `.tgt` program */
  readonly alg?: string;
  /** user directive modules the schedule may use */
  readonly directives?: readonly string[];
}

export async function loadProgram(progPath: string, o: LoadOptions = {}): Promise<Loaded> {
  const { text, file } = readSource(progPath);
  const isTgt = /\.tgt$/.test(file);
  const alg = isTgt ? (o.alg === undefined ? undefined : loadAlg(o.alg)) : loadPipeline(text, file);
  let t = isTgt ? parseTgt(text, file) : lower(alg!);
  if (o.schedule !== undefined) {
    const s = readSource(o.schedule);
    t = await scheduleFromText(t, s.text, s.file, alg, o.directives ?? []);
  }
  return alg ? { t, alg } : { t };
}

function loadAlg(path: string): Pipeline {
  const { text, file } = readSource(path);
  return loadPipeline(text, file);
}
