// Replaying a reproducer: rebuild its environment and case from the file alone and check again.
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
  const prop = propertyNamed(r.property);
  const env = await makeEnv({
    engine: r.engine,
    directives: r.directives,
    maxSteps: DEFAULT_CONFIG.maxSteps,
    ...(r.backend !== undefined ? { backend: r.backend } : {}),
    ...(r.focus !== undefined ? { focus: r.focus } : {}),
    ...(r.fault !== undefined ? { fault: r.fault } : {}),
  });
  const c = prop.decode(r.case, env);
  const result = await evaluateAsync(prop, c, env);
  return { reproducer: r, result, reproduced: result.status === 'fail' && result.verdict === r.verdict };
}
