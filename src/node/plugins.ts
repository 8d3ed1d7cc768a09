// Plug-ins and schedule files, read from disk at the edge (spec/schedule.md, "Writing a directive";
// spec/bounds.md, "Engines and plug-ins"). The semantics take directive and engine objects; this
// module makes them from the user's modules and files.
import { type BoundsEngine, BUILTIN_ENGINES, defineBoundsEngine } from '../bounds/engine.js';
import { UserError, argLoc } from '../diag.js';
import { directiveApi } from '../schedule/api.js';
import { builtinRegistry } from '../schedule/builtins.js';
import { readSchedule } from '../schedule/halide-style.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { type Directive, type DirectiveApi, type DirectiveRegistry, type Schedule, defineDirective } from '../schedule/plugin.js';
import { processIO } from './io.js';
import { readSource } from './source.js';
import { importUserModule, locInModule } from './user-module.js';
import { watched } from './watchdog.js';

type ModuleExport = Directive | readonly Directive[] | ((api: DirectiveApi) => Directive | readonly Directive[]);

/**
 * Loads user directives from a module (`--directive path/to/module.mjs`). The default export is
 * a directive, an array of directives, or a function of `api` returning either.
 */
export async function loadDirectiveModule(path: string, api: DirectiveApi): Promise<Directive[]> {
  const mod = await importUserModule(path, 'directive', 'pass the path of an ES module (.mjs) whose default export is a directive made with defineDirective');
  const at = { file: path, line: 1, col: 1 };
  const exportHint = 'export a directive made with defineDirective as the default export (or a list of them, or a function of the api returning either)';
  let exp = mod.default as ModuleExport | undefined;
  if (exp === undefined) {
    throw new UserError(`directive module '${path}' has no default export`, at, `${exportHint}: export default defineDirective({ name, phase, params, validate, apply, generate })`);
  }
  if (typeof exp === 'function') {
    try {
      exp = exp(api);
    } catch (e) {
      // The module's own code failed: the user's fault, reported where it threw (exit 2).
      throw new UserError(`directive module '${path}' failed while creating its directives: ${String((e as Error)?.message ?? e)}`, locInModule(e, path), 'fix the function the module exports by default');
    }
  }
  const list: readonly unknown[] = Array.isArray(exp) ? exp : [exp];
  return list.map((d) => {
    if (typeof d !== 'object' || d === null) {
      throw new UserError(`directive module '${path}' exports ${d === null ? 'null' : `a ${typeof d}`} where a directive is expected`, at, exportHint);
    }
    const dir = d as Directive;
    // Every call of the module's code runs under the watchdog (a call that never returns is the
    // plug-in's error, reported like any other it throws).
    const guard = <F extends (...a: never[]) => unknown>(f: F, part: string): F =>
      (typeof f === 'function' ? watched(f as never, `${part} of directive '${String(dir.name)}' from ${path}`, undefined, `directive ${String(dir.name)}`) : f) as F;
    return defineDirective({ ...dir, validate: guard(dir.validate, 'validate'), apply: guard(dir.apply, 'apply'), generate: guard(dir.generate, 'generate'), source: path });
  });
}

/** The built-ins plus the directives of the given modules (in order; a name clash is an error). */
export async function registryWith(modules: readonly string[]): Promise<DirectiveRegistry> {
  let reg = builtinRegistry();
  for (const m of modules) reg = reg.with(await loadDirectiveModule(m, directiveApi));
  return reg;
}

/**
 * Reads and parses a schedule file (`-` is standard input) with the directives of `modules`. A
 * Halide-style schedule (`.halide`) is translated for the program T0 that `program` gives.
 */
export async function loadSchedule(path: string, modules: readonly string[] = [], program?: () => TgtProgram, note: (text: string) => void = processIO.err): Promise<Schedule> {
  const { text, file } = readSource(path);
  const s = readSchedule(text, file, program, await registryWith(modules));
  // a call skipped because it changes no value is said, never silent ([HALIDE-STYLE-IGNORED])
  for (const n of s.notes ?? []) note(n);
  return s;
}

/** Loads a plug-in: an ES module whose default export (or export `engine`) is an engine. */
export async function loadEngineModule(path: string): Promise<BoundsEngine> {
  const mod = await importUserModule(path, 'bounds engine', 'pass the path of an ES module (.mjs) whose default export is an engine made with defineBoundsEngine');
  const cand = (mod.default ?? mod.engine) as { name?: unknown; complete?: unknown } | undefined;
  if (!cand || typeof cand !== 'object' || typeof cand.name !== 'string' || typeof cand.complete !== 'function') {
    throw new UserError(`module '${path}' does not export a bounds engine`, { file: path, line: 1, col: 1 }, 'export an engine made with defineBoundsEngine as the default export: export default defineBoundsEngine({ name, complete })');
  }
  // Re-wrap so that a module built without the helper is checked all the same.
  return defineBoundsEngine({ name: cand.name, complete: watched((cand.complete as BoundsEngine['complete']).bind(cand), `complete of bounds engine '${cand.name}' from ${path}`, undefined, `engine ${cand.name}`) });
}

/** `--engine NAME|PATH`: a built-in engine or a plug-in module. */
/** Is this engine name the path of a module (rather than a built-in engine)? */
export const isModulePath = (engine: string): boolean => /[\\/]|\.m?js$/.test(engine);

export async function resolveEngine(spec: string): Promise<BoundsEngine> {
  const builtin = BUILTIN_ENGINES[spec];
  if (builtin) return builtin;
  if (isModulePath(spec)) return loadEngineModule(spec);
  throw new UserError(`unknown bounds engine '${spec}'`, argLoc('--engine', spec), `use ${Object.keys(BUILTIN_ENGINES).join(' or ')}, or a path to an engine module (.mjs)`);
}
