// Replaying a reproducer: rebuild its environment and case from the file alone and check again.
import { CLI_LOC, UserError } from '../diag.js';
import { evaluateAsync } from './check.js';
import { DEFAULT_CONFIG } from './env.js';
import { makeEnv } from './make-env.js';
import { propertyNamed } from './properties/index.js';
import type { CheckResult } from './property.js';
import { type Reproducer, readReproducer } from './reproducer.js';

export interface ReplayResult {
  readonly reproducer: Reproducer;
  readonly result: CheckResult;
  /** the check fails again with the recorded verdict */
  readonly reproduced: boolean;
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
    // The case is text: the generation options of the campaign play no part in checking it.
    const env = await makeEnv({
      ...DEFAULT_CONFIG,
      engine: r.engine,
      directives: r.directives,
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
    return { reproducer: r, result, reproduced: result.status === 'fail' && result.verdict === r.verdict };
  } catch (e) {
    throw fromFile(e);
  }
}
