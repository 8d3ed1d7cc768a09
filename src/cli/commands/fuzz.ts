// `refsem fuzz`: a fuzz campaign over the properties of docs/fuzzing.md.
import type { Command } from 'commander';
import type { Register } from './index.js';
import { CLI_LOC, UserError } from '../../diag.js';
import { collect } from '../options.js';
import { EXIT } from '../../node/io.js';
import { runCampaignCli } from '../../fuzz/campaign-cli.js';
import type { CampaignOptions } from '../../fuzz/runner.js';
import { DEFAULT_CONFIG } from '../../fuzz/env.js';
import { defaultJobs, freshSeed, parseCount, parseDuration, parseJobs, parseSeed, parseShard } from '../../fuzz/options.js';
import { EXTRA_PROPERTIES, PROPERTIES } from '../../fuzz/properties/index.js';
import { NO_SHARD } from '../../fuzz/seed.js';

export interface FuzzFlags {
  property: string[];
  time?: string;
  runs?: string;
  seed?: string;
  jobs?: string;
  engine: string;
  directive: string[];
  out: string;
  json?: boolean;
  stats?: boolean;
  shard?: string;
  budget: string;
  backend?: string;
  list?: boolean;
}

/** Declares the flags shared by fuzz and start (read back by `campaignOptions`). */
export function campaignFlags(cmd: Command): Command {
  return cmd
    .option('--property <name>', `property to check, repeatable (default: all of ${PROPERTIES.map((p) => p.name).join(', ')})`, collect, [])
    .option('--time <duration>', 'run for this long, e.g. 60s, 5m (default 60s)')
    .option('--runs <n>', 'run exactly this many checks (over all shards)')
    .option('--seed <int>', 'campaign seed (default: from the clock, printed in the summary)')
    .option('--jobs <n>', 'worker threads (default: one per core)')
    .option('--engine <name>', 'bounds engine: beta0, beta1 or an engine module path', 'beta0')
    .option('--directive <module>', 'load a user directive module, repeatable', collect, [])
    .option('--out <dir>', 'directory for reproducers and summary.json', 'fuzz-out')
    .option('--shard <i/N>', 'run only the check indices ≡ i (mod N)')
    .option('--budget <duration>', 'per-check time budget; a check over it is a timeout failure', '10s')
    .option('--backend <c|simd>', 'also check the compiled C or SIMD backend against the reference (property backend)')
    .option('--json', 'end with the JSON summary instead of text')
    .option('--stats', 'report how often each construct and directive was generated');
}

/** Campaign options from the flags shared by fuzz and start. */
export function campaignOptions(o: FuzzFlags, defaultTime: string): CampaignOptions {
  if (o.time !== undefined && o.runs !== undefined) {
    throw new UserError('give either --time or --runs, not both', CLI_LOC, '--time ends the campaign after a duration, --runs after a number of checks: drop one of them');
  }
  const props = o.property.flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
  if (o.backend !== undefined && o.backend !== 'c' && o.backend !== 'simd') {
    throw new UserError(`invalid --backend '${o.backend}': expected c or simd`, CLI_LOC, 'use --backend c or --backend simd');
  }
  const backend = o.backend as 'c' | 'simd' | undefined;
  return {
    // --backend checks the compiled backend: alone, or besides the properties named.
    properties: backend ? [...props, 'backend'] : props,
    seed: o.seed !== undefined ? parseSeed(o.seed) : freshSeed(),
    ...(o.runs !== undefined ? { runs: parseCount('--runs', o.runs) } : { timeMs: parseDuration('--time', o.time ?? defaultTime) }),
    jobs: o.jobs !== undefined ? parseJobs(o.jobs) : defaultJobs(),
    shard: o.shard !== undefined ? parseShard(o.shard) : NO_SHARD,
    config: { ...DEFAULT_CONFIG, engine: o.engine, directives: o.directive, ...(backend ? { backend } : {}) },
    out: o.out,
    budgetMs: parseDuration('--budget', o.budget),
  };
}

export const register: Register = (program, io, setExit) => {
  campaignFlags(program.command('fuzz').description('run a fuzz campaign over the soundness properties (docs/fuzzing.md)'))
    .option('--list', 'list the properties and exit')
    .action(async (o: FuzzFlags) => {
      if (o.list) {
        for (const p of [...PROPERTIES, ...EXTRA_PROPERTIES]) io.out(`${p.name.padEnd(18)} ${p.summary}\n`);
        return;
      }
      const r = await runCampaignCli(campaignOptions(o, '60s'), io, { json: Boolean(o.json), stats: Boolean(o.stats) });
      if (r.failures.length > 0) setExit(EXIT.checkFailed);
    });
};
