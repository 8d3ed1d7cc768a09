// The programs the bounds commands work on: an algorithm lowered (fig. 2.9) and scheduled (§2.8),
// or a Tgt? program written by hand (`.tgt`).
import { UserError } from '../diag.js';
import type { Pipeline } from '../alg-semantics/ast.js';
import { loadPipeline } from '../alg-semantics/load.js';
import { lower } from '../lowering/lower.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { parseTgt } from '../target-semantics/parse.js';
import { readSource } from '../cli/io.js';

export interface Loaded {
  readonly t: TgtProgram;
  /** the algorithm, when the program was lowered from one */
  readonly alg?: Pipeline;
}

type ScheduleFn = (t: TgtProgram, src: string, file: string, alg?: Pipeline) => TgtProgram | Promise<TgtProgram>;

/** The scheduling driver, looked up at run time so that this module does not depend on its layout. */
async function scheduler(): Promise<ScheduleFn | undefined> {
  for (const m of ['../schedule/schedule.js', '../schedule/index.js', '../schedule/apply.js']) {
    try {
      const mod = (await import(new URL(m, import.meta.url).href)) as { scheduleProgram?: unknown };
      if (typeof mod.scheduleProgram === 'function') return mod.scheduleProgram as ScheduleFn;
    } catch {
      // not this module
    }
  }
  return undefined;
}

export async function loadProgram(progPath: string, schedulePath?: string, algPath?: string): Promise<Loaded> {
  const { text, file } = readSource(progPath);
  const isTgt = /\.tgt$/.test(file);
  const alg = isTgt ? (algPath ? loadAlg(algPath) : undefined) : loadPipeline(text, file);
  let t = isTgt ? parseTgt(text, file) : lower(alg!);
  if (schedulePath !== undefined) {
    const s = readSource(schedulePath);
    const sched = await scheduler();
    if (!sched) throw new UserError('scheduling is not available in this build', undefined, 'run without --schedule');
    t = await sched(t, s.text, s.file, alg);
  }
  return alg ? { t, alg } : { t };
}

function loadAlg(path: string): Pipeline {
  const { text, file } = readSource(path);
  return loadPipeline(text, file);
}
