// The cases a campaign checked, regenerated from its seed: check k of a campaign always gets the
// same property and the same case (seed.ts), so the first checks can be drawn again afterwards —
// for `fuzz --coverage`, which runs them through the traced evaluators to see which rules fire.
import { generated } from './check.js';
import { makeEnv } from './make-env.js';
import type { CaseText } from './property.js';
import { selectProperties } from './properties/index.js';
import type { CampaignOptions } from './runner.js';
import { checkSeed, globalIndex } from './seed.js';
import { checkAt } from './slice.js';

/** The case texts of this shard's first `count` checks (in check order), with their properties. */
export async function sampleCases(o: CampaignOptions, count: number): Promise<{ property: string; text: CaseText }[]> {
  const props = selectProperties(o.properties);
  const env = await makeEnv(o.config);
  const out: { property: string; text: CaseText }[] = [];
  for (let k = 0; out.length < count; k++) {
    const index = globalIndex(o.shard, 1, 0, k);
    if (o.runs !== undefined && index >= o.runs) break;
    const { prop, at, ...source } = checkAt(props, o.seed, index, env);
    try {
      out.push({ property: prop.name, text: prop.encode(prop.concretize(generated(prop, env, checkSeed(o.seed, at), source), env)) });
    } catch {
      // A case that cannot be made concrete was a crash or a discard in the campaign; it fires
      // no rule worth counting here.
    }
  }
  return out;
}
