// `refsem check-directive MODULE`: does a user directive preserve meaning? (docs/fuzzing.md)
import type { Register } from './index.js';
import { EXIT } from '../../node/io.js';
import { checkDirective, showDirectiveVerdict, tooFewApplied } from '../../fuzz/check-directive.js';
import { defaultJobs, freshSeed, parseCount, parseDuration, parseJobs, parseSeed, parseShard } from '../../fuzz/options.js';
import { CLI_LOC, UserError } from '../../diag.js';
import { NO_SHARD } from '../../fuzz/seed.js';
import { proofExit, proveDirective, showDirectiveProof } from '../../fuzz/prove-directive.js';

/** Generated cases `--prove` draws by default: enough applications to be worth reading, within seconds. */
const PROVE_RUNS = 10;

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
    .option('--prove', `prove the directive on each application in generated cases (spec/effects.md, [OBL-DIRECTIVE]) instead of searching; --runs cases (default ${PROVE_RUNS})`)
    .action(async (module: string, o: { time?: string; runs?: string; seed?: string; jobs?: string; out: string; shard?: string; budget: string; json?: boolean; prove?: boolean }) => {
      if (o.time !== undefined && o.runs !== undefined) throw new UserError('give either --time or --runs, not both', CLI_LOC, '--time ends the search after a duration, --runs after a number of checks: drop one of them');
      if (o.prove) {
        const ps = await proveDirective({
          module,
          seed: o.seed !== undefined ? parseSeed(o.seed) : freshSeed(),
          runs: o.runs !== undefined ? parseCount('--runs', o.runs) : o.time !== undefined ? Infinity : PROVE_RUNS,
          ...(o.time !== undefined ? { timeMs: parseDuration('--time', o.time) } : {}),
          out: o.out,
        });
        io.out(o.json ? `${JSON.stringify(ps.length === 1 ? ps[0] : ps)}\n` : ps.map(showDirectiveProof).join(''));
        const verdict = proofExit(ps);
        setExit(verdict === 'failure' ? EXIT.checkFailed : verdict === 'inconclusive' ? EXIT.inconclusive : EXIT.ok);
        return;
      }
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
