// `refsem fuzz`: a fuzz campaign over the properties of docs/fuzzing.md.
import { type Command, Option } from 'commander';
import type { Register } from './index.js';
import { CLI_LOC, UserError, argLoc } from '../../diag.js';
import { collect } from '../options.js';
import { EXIT } from '../../node/io.js';
import { campaignExit, runCampaignCli } from '../../fuzz/campaign-cli.js';
import type { CampaignOptions } from '../../fuzz/runner.js';
import { DEFAULT_CONFIG, type EnvConfig, MAX_DIRECTIVES, MAX_FUNCS } from '../../fuzz/env.js';
import { defaultJobs, freshSeed, parseCount, parseDuration, parseJobs, parseSeed, parseShard } from '../../fuzz/options.js';
import { EXTRA_PROPERTIES, PROPERTIES } from '../../fuzz/properties/index.js';
import { NO_SHARD } from '../../fuzz/seed.js';
import { sampleCases } from '../../fuzz/sample.js';
import { runCorpus, showCorpus } from '../../fuzz/corpus.js';
import { seedsOption } from '../../fuzz/seeds.js';
import { requireHalide } from '../../halide/run.js';
import { ruleTally, showCoverage, specRules } from '../../rules/coverage.js';
import { caseItems, tourTraces } from '../rule-tour.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPEC_DIR } from '../../node/package.js';

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
  maxFuncs?: string;
  maxDirectives?: string;
  swarm?: string;
  seeds?: string;
}

/** Declares the flags shared by fuzz and start (read back by `campaignOptions`). */
export function campaignFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option('--property <name>', 'property to check, repeatable').argParser(collect).default([], `all of ${PROPERTIES.map((p) => p.name).join(', ')}`))
    .option('--time <duration>', 'run for this long, e.g. 60s, 5m (default 60s)')
    .option('--runs <n>', 'run exactly this many checks (over all shards)')
    .option('--seed <int>', 'campaign seed (default: from the clock, printed in the summary)')
    .option('--jobs <n>', 'worker threads (default: one per core)')
    .option('--engine <name>', 'bounds engine: beta0, beta1 or an engine module path', 'beta0')
    .addOption(new Option('--directive <module>', 'load a user directive module, repeatable').argParser(collect).default([], 'none'))
    .option('--out <dir>', 'directory for reproducers and summary.json', 'fuzz-out')
    .option('--shard <i/N>', 'run only the check indices ≡ i (mod N)')
    .option('--budget <duration>', 'per-check time budget; a check over it is a timeout failure', '10s')
    .option('--backend <c|simd|halide>', 'also check the compiled C or SIMD backend (property backend), or the real Halide 14 (property halide), against the reference')
    .option('--max-funcs <n>', `the most funcs a generated pipeline has, 1 to ${MAX_FUNCS}`, String(DEFAULT_CONFIG.maxFuncs))
    .option('--max-directives <n>', `the most directive choices a generated schedule makes, 0 to ${MAX_DIRECTIVES}`, String(DEFAULT_CONFIG.maxDirectives))
    .option('--swarm <on|off>', 'swarm testing: each case draws a random subset of stage kinds and directives', DEFAULT_CONFIG.swarm ? 'on' : 'off')
    .option('--seeds <dir|apps|off>', 'the seed corpus: NAME.alg files with NAME.halide or NAME.sched schedules, checked as written and mutated (apps: examples/apps; off: none)', 'apps')
    .option('--json', 'end with the JSON summary instead of text')
    .option('--stats', 'report how often each construct and directive was generated');
}

/** Campaign options from the flags shared by fuzz and start. */
export function campaignOptions(o: FuzzFlags, defaultTime: string): CampaignOptions {
  if (o.time !== undefined && o.runs !== undefined) {
    throw new UserError('give either --time or --runs, not both', CLI_LOC, '--time ends the campaign after a duration, --runs after a number of checks: drop one of them');
  }
  const props = o.property.flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
  if (o.backend !== undefined && o.backend !== 'c' && o.backend !== 'simd' && o.backend !== 'halide') {
    throw new UserError(`invalid --backend '${o.backend}': expected c, simd or halide`, argLoc('--backend', o.backend), 'use --backend c, --backend simd or --backend halide');
  }
  // Halide is the real compiler (property halide), the others refsem's own C (property backend).
  if (o.backend === 'halide') requireHalide();
  const backend = o.backend === 'halide' ? undefined : (o.backend as 'c' | 'simd' | undefined);
  return {
    // --backend checks the backend: alone, or besides the properties named.
    properties: o.backend === 'halide' ? [...props, 'halide'] : backend ? [...props, 'backend'] : props,
    // The default campaign gives the compiled properties a share of its time (time-slice.ts).
    timeSlices: props.length === 0 && o.backend === undefined,
    seed: o.seed !== undefined ? parseSeed(o.seed) : freshSeed(),
    ...(o.runs !== undefined ? { runs: parseCount('--runs', o.runs) } : { timeMs: parseDuration('--time', o.time ?? defaultTime) }),
    jobs: o.jobs !== undefined ? parseJobs(o.jobs) : defaultJobs(),
    shard: o.shard !== undefined ? parseShard(o.shard) : NO_SHARD,
    config: { ...DEFAULT_CONFIG, engine: o.engine, directives: o.directive, ...(backend ? { backend } : {}), ...generationFlags(o), ...seedFlag(o.seeds) },
    out: o.out,
    budgetMs: parseDuration('--budget', o.budget),
  };
}

/** The generation options of the flags (`--max-funcs`, `--max-directives`, `--swarm`). */
export function generationFlags(o: Pick<FuzzFlags, 'maxFuncs' | 'maxDirectives' | 'swarm'>): Pick<EnvConfig, 'maxFuncs' | 'maxDirectives' | 'swarm'> {
  const swarm = o.swarm ?? (DEFAULT_CONFIG.swarm ? 'on' : 'off');
  if (swarm !== 'on' && swarm !== 'off') throw new UserError(`invalid --swarm '${swarm}': expected on or off`, argLoc('--swarm', swarm), 'use --swarm on or --swarm off');
  return {
    maxFuncs: o.maxFuncs === undefined ? DEFAULT_CONFIG.maxFuncs : parseCount('--max-funcs', o.maxFuncs, 1, MAX_FUNCS),
    maxDirectives: o.maxDirectives === undefined ? DEFAULT_CONFIG.maxDirectives : parseCount('--max-directives', o.maxDirectives, 0, MAX_DIRECTIVES),
    swarm: swarm === 'on',
  };
}

/**
 * `--seeds`: the corpus directory, or none. Its files are read by every worker; a campaign whose
 * seeds are unreadable or invalid is refused when it starts, at the file at fault (exit 2).
 */
function seedFlag(text: string | undefined): Pick<EnvConfig, 'seeds'> {
  const dir = seedsOption(text);
  return dir === undefined ? {} : { seeds: dir };
}

/** How many of a campaign's cases `--coverage` runs through the traced evaluators. */
const COVERAGE_SAMPLE = 200;

/** The rules the first `count` cases of the campaign fire, as a report. */
async function campaignCoverage(o: CampaignOptions, count: number): Promise<string> {
  const cases = await sampleCases(o, count);
  const dir = mkdtempSync(join(tmpdir(), 'refsem-fuzz-coverage-'));
  try {
    const { main } = await import('../main.js');
    const tally = ruleTally(specRules(SPEC_DIR));
    await tourTraces(caseItems(cases.map((c) => c.text), dir), main, tally.add);
    const rep = tally.report();
    return `rule coverage of the campaign's first ${cases.length} cases:\n${showCoverage(rep)}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const register: Register = (program, io, setExit) => {
  campaignFlags(program.command('fuzz').description('run a fuzz campaign over the soundness properties (docs/fuzzing.md)'))
    .option('--list', 'list the properties and exit')
    .option('--corpus <dir>', 'first replay every reproducer in DIR (a regression corpus); those still failing count as failures')
    .option('--coverage', `after the campaign, run its first ${COVERAGE_SAMPLE} cases through the traced evaluators and report which spec rules fired`)
    .action(async (o: FuzzFlags & { coverage?: boolean; corpus?: string }) => {
      if (o.list) {
        for (const p of [...PROPERTIES, ...EXTRA_PROPERTIES]) io.out(`${p.name.padEnd(18)} ${p.summary}\n`);
        return;
      }
      const opts = campaignOptions(o, '60s');
      const corpus = o.corpus === undefined ? undefined : await runCorpus(o.corpus);
      // The JSON summary is read by other tools: the corpus report goes to stderr beside it.
      if (corpus) (o.json ? io.err : io.out)(showCorpus(corpus));
      const r = await runCampaignCli(opts, io, { json: Boolean(o.json), stats: Boolean(o.stats) });
      if (corpus && corpus.failing.length > 0) setExit(EXIT.checkFailed);
      if (o.coverage) {
        const rep = await campaignCoverage(opts, Math.min(r.runs, COVERAGE_SAMPLE));
        // The JSON summary is read by other tools; the coverage report goes beside it.
        (o.json ? io.err : io.out)(rep);
      }
      if (!(corpus && corpus.failing.length > 0)) setExit(campaignExit(r));
    });
};
