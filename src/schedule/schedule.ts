// Schedules as the commands see them: a .sched file plus the user directive modules given with
// --directive (spec/schedule.md, "Using a schedule"). Every command that accepts --schedule goes
// through `loadSchedule`, so user directives work wherever schedules do.
import type { Pipeline } from '../alg-semantics/ast.js';
import { readSource } from '../cli/io.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { directiveApi } from './api.js';
import { type ApplyOptions, applySchedule } from './apply.js';
import { builtinRegistry } from './builtins.js';
import { parseSchedule } from './parse.js';
import { type DirectiveRegistry, type Schedule, loadDirectiveModule } from './plugin.js';

/** The built-ins plus the directives of the given modules (in order; a name clash is an error). */
export async function registryWith(modules: readonly string[]): Promise<DirectiveRegistry> {
  let reg = builtinRegistry();
  for (const m of modules) reg = reg.with(await loadDirectiveModule(m, directiveApi));
  return reg;
}

/** Reads and parses a schedule file (`-` is standard input). */
export async function loadSchedule(path: string, modules: readonly string[] = []): Promise<Schedule> {
  const { text, file } = readSource(path);
  return parseSchedule(text, file, await registryWith(modules));
}

/**
 * Parses schedule text and applies it to `t`:
 * 𝓢(S, T) for a lowered or hand-written Tgt? program.
 */
export async function scheduleFromText(t: TgtProgram, src: string, file: string, alg?: Pipeline, modules: readonly string[] = [], opts: ApplyOptions = {}): Promise<TgtProgram> {
  const s = parseSchedule(src, file, await registryWith(modules));
  return applySchedule(t, s, { ...opts, ...(alg ? { pipeline: alg } : {}) });
}
