// `refsem exec PROG [--schedule S] --window … [--param …] [--engine E] [--json] [--compare]`: lowers
// and schedules PROG, completes it with a bounds engine (§2.7.2, lifted as in def. 2.4), runs the
// hole-free program and prints its output (the JSON shape of docs/architecture.md, plus "outcome" when it got
// stuck). With --compare, prints instead the verdict of defs. 2.2–2.3 against the algorithm.
import { UserError } from '../../diag.js';
import type { Input } from '../../alg-semantics/ast.js';
import { checkInput } from '../../alg-semantics/input.js';
import { resolveEngine } from '../../node/plugins.js';
import { readScheduled } from '../../node/program.js';
import { compare, complete, run } from '../../pipeline.js';
import { isConfluent, showVerdict } from '../../lowering/equivalence.js';
import { outcomeJson, showOutcome } from '../../target-semantics/display.js';
import { printTgt } from '../../target-semantics/print.js';
import { EXIT } from '../../node/io.js';
import { engineOption, inputOptions, outcomeExit, runLimits, scheduleOf, scheduleOptions, targetRunOptions, windowOf } from '../common-options.js';
import { parseExecutor, parseParams } from '../options.js';
import type { Register } from './index.js';

interface Opts {
  schedule?: string;
  directive: string[];
  alg?: string;
  window: string;
  param: string[];
  engine: string;
  json?: boolean;
  compare?: boolean;
  strict?: boolean;
  print?: boolean;
  executor: string;
  seed?: string;
  maxSteps?: string;
}

export const register: Register = (program, io, setExit) => {
  const cmd = program
    .command('exec')
    .description('complete a scheduled program with a bounds engine and run it (§2.7, fig. 2.8)')
    .argument('<prog>', 'algorithm source file, or a Tgt? program (.tgt)');
  scheduleOptions(cmd).option('--alg <file>', 'the algorithm of a .tgt program (for --compare)');
  inputOptions(cmd);
  engineOption(cmd)
    .option('--json', 'print {"func","window","values"} (plus "outcome" when the run got stuck)')
    .option('--compare', 'print the verdict of def. 2.3 against the algorithm instead of the output')
    .option('--strict', 'with --compare: exit 4 (inconclusive) on a vacuous verdict (one that compared no value)')
    .option('--print', 'print the completed program before running it');
  targetRunOptions(cmd)
    .action(async (prog: string, o: Opts) => {
      const { t, alg } = await readScheduled({ prog, ...scheduleOf(o), ...(o.alg !== undefined ? { alg: o.alg } : {}) });
      const engine = await resolveEngine(o.engine);
      const window = windowOf(o.window);
      const input: Input = { window, params: parseParams(o.param) };
      if (alg) checkInput(alg, input);
      const done = complete(t, engine);
      if (done.completedBy.failure) io.err(`note: bounds engine ${engine.name} failed, the program is \`assert 0\`: ${done.completedBy.failure}\n`);
      if (o.print) io.out(printTgt(done));
      const runOpts = runLimits(o);
      const executor = parseExecutor(o.executor);
      if (o.compare) {
        if (!alg) throw new UserError('--compare needs the algorithm', undefined, 'pass an algorithm file, or --alg FILE with a .tgt program');
        const v = compare(alg, done, input, { executor, ...runOpts });
        io.out((o.json ? JSON.stringify({ verdict: v.kind, message: showVerdict(v) }) : showVerdict(v)) + '\n');
        if (isConfluent(v) === false) setExit(EXIT.checkFailed);
        else if (v.kind.startsWith('vacuous')) {
          // Def. 2.3 counts these as agreement, but no value was compared: say so, and what to try.
          const next = engine.name === 'beta1' ? 'give the func a `bound` in the schedule' : 'try --engine beta1';
          const why = done.completedBy.failure !== undefined
            ? `the bounds engine ${engine.name} gave up, so the program is \`assert 0\`; ${next}`
            : v.kind === 'vacuous-assertion'
              ? 'an assertion of the program failed before any value was compared; the bounds directives of the schedule may not cover this window'
              : "the algorithm's values here are error values; try another window or parameters";
          io.err(`note: vacuous: nothing was compared (${why})\n`);
          if (o.strict) setExit(EXIT.inconclusive);
        }
        return;
      }
      const out = run(done, input, { executor, ...runOpts });
      io.out((o.json ? JSON.stringify(outcomeJson(out, t.output, window)) : showOutcome(out)) + '\n');
      setExit(outcomeExit(out, io));
    });
};
