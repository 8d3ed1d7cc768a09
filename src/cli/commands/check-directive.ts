// `refsem check-directive MODULE`: does a user directive preserve meaning? (docs/fuzzing.md)
import type { Register } from './index.js';
import { EXIT } from '../../node/io.js';
import { checkDirective, showDirectiveVerdict, tooFewApplied } from '../../fuzz/check-directive.js';
import { defaultJobs, freshSeed, parseCount, parseDuration, parseJobs, parseSeed, parseShard } from '../../fuzz/options.js';
import { CLI_LOC, UserError } from '../../diag.js';
import { NO_SHARD } from '../../fuzz/seed.js';

export const register: Register = (program, io, setExit) => {
  program
    .command('check-directive')
    .description('fuzz schedules that use a user directive: a minimized counterexample, or none in N checks')
    .argument('<module>', 'the directive module (.mjs), as for --directive')
    .option('--time <duration>', 'how long to search, e.g. 30s (default 30s)')
    .option('--runs <n>', 'search exactly this many checks instead')
    .option('--seed <int>', 'campaign seed (default: from the clock)')
    .option('--jobs <n>', 'worker threads (default: one per core)')
    .option('--out <dir>', 'directory for the reproducer', 'fuzz-out')
    .option('--shard <i/N>', 'run only the check indices ≡ i (mod N)')
    .option('--budget <duration>', 'per-check time budget', '10s')
    .option('--json', 'print the answer as JSON')
    .action(async (module: string, o: { time?: string; runs?: string; seed?: string; jobs?: string; out: string; shard?: string; budget: string; json?: boolean }) => {
      if (o.time !== undefined && o.runs !== undefined) throw new UserError('give either --time or --runs, not both', CLI_LOC, '--time ends the search after a duration, --runs after a number of checks: drop one of them');
      const vs = await checkDirective({
        module,
        seed: o.seed !== undefined ? parseSeed(o.seed) : freshSeed(),
        jobs: o.jobs !== undefined ? parseJobs(o.jobs) : defaultJobs(),
        ...(o.runs !== undefined ? { runs: parseCount('--runs', o.runs) } : { timeMs: parseDuration('--time', o.time ?? '30s') }),
        out: o.out,
        budgetMs: parseDuration('--budget', o.budget),
        shard: o.shard !== undefined ? parseShard(o.shard) : NO_SHARD,
      }, io);
      io.out(o.json ? `${JSON.stringify(vs.length === 1 ? vs[0] : vs)}\n` : vs.map(showDirectiveVerdict).join(''));
      // A search in which the directive was hardly applied is no evidence either way: inconclusive.
      setExit(vs.some((v) => v.counterexample) ? EXIT.checkFailed : vs.some((v) => v.interrupted) ? EXIT.interrupted : vs.some(tooFewApplied) ? EXIT.inconclusive : EXIT.ok);
    });
};
