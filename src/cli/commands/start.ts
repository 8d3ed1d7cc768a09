// `refsem start` (what `npm start` runs): the main job, a fuzz campaign over every property with
// live progress and a summary; duration, properties and the rest are the flags of `refsem fuzz`.
import type { Register } from './index.js';
import { campaignExit, runCampaignCli } from '../../fuzz/campaign-cli.js';
import { PROPERTIES } from '../../fuzz/properties/index.js';
import { type FuzzFlags, campaignFlags, campaignOptions } from './fuzz.js';

export const register: Register = (program, io, setExit) => {
  campaignFlags(program.command('start').description('the main job: a 60-second fuzz campaign over all properties, with progress and a summary'))
    .action(async (o: FuzzFlags) => {
      const opts = campaignOptions(o, '60s');
      const props = opts.properties.length > 0 ? opts.properties : PROPERTIES.map((p) => p.name);
      io.err(`refsem: fuzz campaign over ${props.join(', ')}; ${opts.runs !== undefined ? `${opts.runs} checks` : `${(opts.timeMs ?? 0) / 1000} s`}, seed ${opts.seed}, ${opts.jobs} job${opts.jobs === 1 ? '' : 's'} (Ctrl-C ends it with the summary)\n`);
      const r = await runCampaignCli(opts, io, { json: Boolean(o.json), stats: Boolean(o.stats) });
      setExit(campaignExit(r));
    });
};
