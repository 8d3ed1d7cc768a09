// Replaying a reproducer: rebuild its environment and case from the file alone and check again.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CLI_LOC, UserError } from '../diag.js';
import { evaluateAsync } from './check.js';
import { DEFAULT_CONFIG } from './env.js';
import { makeEnv } from './make-env.js';
import { propertyNamed } from './properties/index.js';
import type { CheckResult } from './property.js';
import { type Reproducer, readReproducer, sha256 } from './reproducer.js';
import { isModulePath } from '../node/plugins.js';

export interface ReplayResult {
  readonly reproducer: Reproducer;
  readonly result: CheckResult;
  /** the check fails again with the recorded verdict */
  readonly reproduced: boolean;
  /** plug-in modules that were missing (their embedded copy ran) or changed since */
  readonly warnings: readonly string[];
}

/**
 * The module path to load for each recorded plug-in: the file itself when present (with a warning
 * when it is not the file the reproducer was written with), else the copy embedded in the
 * reproducer, written to a scratch directory under its own name.
 */
function restoreModule(r: Reproducer, path: string, warnings: string[]): string {
  const copy = r.modules?.find((m) => m.path === path);
  if (existsSync(path)) {
    if (copy && sha256(readFileSync(path, 'utf8')) !== copy.sha256) {
      warnings.push(`${path} has changed since the reproducer was written (sha256 ${copy.sha256.slice(0, 12)}…); replaying the file as it is now`);
    }
    return path;
  }
  if (!copy) return path;
  const file = join(mkdtempSync(join(tmpdir(), 'refsem-replay-')), basename(path));
  writeFileSync(file, copy.source);
  warnings.push(`${path} is missing; replaying the copy embedded in the reproducer`);
  return file;
}

export async function replay(path: string): Promise<ReplayResult> {
  const r = readReproducer(path);
  const at = { file: path, line: 1, col: 1 };
  // Everything below is rebuilt from the file: what it names (a property, a directive, a fault)
  // and cannot be found is reported at the file, not at the command line.
  const fromFile = (e: unknown): unknown =>
    e instanceof UserError && (e.loc === undefined || e.loc.file === CLI_LOC.file) ? new UserError(e.message, at, e.hint) : e;
  try {
    const prop = propertyNamed(r.property);
    const warnings: string[] = [];
    // The case is text: the generation options of the campaign play no part in checking it.
    const env = await makeEnv({
      ...DEFAULT_CONFIG,
      engine: isModulePath(r.engine) ? restoreModule(r, r.engine, warnings) : r.engine,
      directives: r.directives.map((d) => restoreModule(r, d, warnings)),
      ...(r.backend !== undefined ? { backend: r.backend } : {}),
      ...(r.focus !== undefined ? { focus: r.focus } : {}),
      ...(r.fault !== undefined ? { fault: r.fault } : {}),
    });
    let c: unknown;
    try {
      c = prop.decode(r.case, env);
    } catch (e) {
      if (e instanceof UserError) throw e;
      // The case text of a file written by a campaign always decodes; this one was edited.
      throw new UserError(`the recorded case cannot be rebuilt: ${(e as Error)?.message ?? String(e)}`, at, 'reproducers are written by refsem fuzz and are not edited by hand; run the campaign again to get a fresh one');
    }
    const result = await evaluateAsync(prop, c, env);
    return { reproducer: r, result, reproduced: result.status === 'fail' && result.verdict === r.verdict, warnings };
  } catch (e) {
    throw fromFile(e);
  }
}
