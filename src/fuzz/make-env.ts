// Building a campaign's environment from its serializable configuration: loading user directive
// modules, the bounds engine and the seed corpus, and planting a zoo fault when one is named.
import { resolveEngine, registryWith } from '../node/plugins.js';
import { detectToolchain } from '../codegen/toolchain.js';
import { UserError } from '../diag.js';
import { scheduleDriver } from './gen/driver.js';
import { faultNamed } from './zoo/faults.js';
import { type EnvConfig, type FuzzEnv, baseEnv } from './env.js';
import { seedCorpus } from './seeds.js';

export async function makeEnv(config: EnvConfig): Promise<FuzzEnv> {
  // Without a C compiler every backend check would fail: refuse the campaign before it starts.
  if (config.backend !== undefined) detectToolchain();
  const env = baseEnv(config);
  const registry = await registryWith(config.directives);
  if (config.focus !== undefined && !registry.get(config.focus)) {
    throw new UserError(`no directive '${config.focus}' is loaded`, undefined, `the directives are: ${registry.names().join(', ')}`);
  }
  const real: FuzzEnv = {
    ...env,
    engine: await resolveEngine(config.engine),
    schedule: scheduleDriver(registry),
    ...(config.seeds !== undefined ? { seeds: seedCorpus(config.seeds, config.directives, registry) } : {}),
  };
  return config.fault === undefined ? real : faultNamed(config.fault).plant(real);
}
