// `refsem start` (what `npm start` runs): the main job, a fuzz campaign over every property with
// live progress and a summary; duration, properties and the rest are the flags of `refsem fuzz`.
import type { Register } from './index.js';
import { collect } from '../options.js';
import { EXIT } from '../io.js';
import { runCampaignCli } from '../../fuzz/campaign-cli.js';
import { PROPERTIES } from '../../fuzz/properties/index.js';
import { type FuzzFlags, campaignOptions } from './fuzz.js';

export const register: Register = (program, io, setExit) => {
  program
    .command('start')
    .description('the main job: a 60-second fuzz campaign over all properties, with progress and a summary')
    .option('--property <name>', 'restrict to a property, repeatable', collect, [])
    .option('--time <duration>', 'campaign length', '60s')
    .option('--runs <n>', 'run exactly this many checks instead')
    .option('--seed <int>', 'campaign seed (default: from the clock)')
    .option('--jobs <n>', 'worker threads (default: one per core)')
    .option('--engine <name>', 'bounds engine: beta0, beta1 or an engine module path', 'beta0')
    .option('--directive <module>', 'load a user directive module, repeatable', collect, [])
    .option('--out <dir>', 'directory for reproducers and summary.json', 'fuzz-out')
    .option('--shard <i/N>', 'run only the check indices ≡ i (mod N)')
    .option('--budget <duration>', 'per-check time budget', '10s')
    .option('--backend <c|simd>', 'also check the compiled C or SIMD backend (property backend)')
    .option('--json', 'end with the JSON summary instead of text')
    .option('--stats', 'report how often each construct and directive was generated')
    .action(async (o: FuzzFlags) => {
      const opts = campaignOptions(o.runs !== undefined ? { ...o, time: undefined } : o, '60s');
      const props = opts.properties.length > 0 ? opts.properties : PROPERTIES.map((p) => p.name);
      io.err(`refsem: fuzz campaign over ${props.join(', ')}; ${opts.runs !== undefined ? `${opts.runs} checks` : `${(opts.timeMs ?? 0) / 1000} s`}, seed ${opts.seed}, ${opts.jobs} job${opts.jobs === 1 ? '' : 's'} (Ctrl-C ends it with the summary)\n`);
      const r = await runCampaignCli(opts, io, { json: Boolean(o.json), stats: Boolean(o.stats) });
      if (r.failures.length > 0) setExit(EXIT.checkFailed);
    });
};
