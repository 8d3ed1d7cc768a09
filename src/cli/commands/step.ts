// `refsem step PROG.tgt [--window …] [--param …] [--max-steps N] [--every N] [--seed N]`: runs a
// completed target program on the small-step machine of fig. 2.8, printing each step with its
// rule ID, then the outcome.
import { showOutcome } from '../../target-semantics/display.js';
import { MACHINE_MAX_STEPS, runMachine, showStep } from '../../target-semantics/machine.js';
import { parseTgt } from '../../target-semantics/parse.js';
import { parseAs } from '../../node/io.js';
import { outcomeExit } from '../common-options.js';
import { readSource } from '../../node/source.js';
import { collect, parseIntOption, parseParams, parseWindow } from '../options.js';
import type { Register } from './index.js';

interface Opts {
  window?: string;
  param: string[];
  maxSteps?: string;
  every?: string;
  seed?: string;
}

export const register: Register = (program, io, setExit) => {
  program
    .command('step')
    .description('run a target program on the small-step machine (fig. 2.8), printing every step with its rule')
    .argument('<prog>', 'target program (.tgt) without holes (- for standard input)')
    .option('--window <MIN+LEN,...>', 'output window, one MIN+LEN per dimension, e.g. 0+4,-3+5')
    .option('--param <NAME=INT>', 'pipeline parameter (repeatable)', collect, [])
    .option('--max-steps <N>', `stop after this many steps (default ${MACHINE_MAX_STEPS})`)
    .option('--every <N>', 'print only every N-th step (the outcome is always printed)', '1')
    .option('--seed <N>', 'seed for the order of parallel loop iterations', '0')
    .action((prog: string, o: Opts) => {
      const p = parseAs('tgt', readSource(prog), parseTgt);
      const window = o.window === undefined ? [] : parseWindow(o.window);
      const params = parseParams(o.param);
      const maxSteps = o.maxSteps === undefined ? MACHINE_MAX_STEPS : Number(parseIntOption('--max-steps', o.maxSteps, 1n));
      const every = Number(parseIntOption('--every', o.every ?? '1', 1n));
      const seed = Number(parseIntOption('--seed', o.seed ?? '0', -(2n ** 31n)));
      const out = runMachine(p, { window, params }, {
        maxSteps,
        seed,
        onStep: (ev) => {
          if (ev.step % every === 0) io.out(showStep(ev) + '\n');
        },
      });
      if (out.kind !== 'stuck' || out.stuck.kind !== 'budget-exceeded') io.out(showOutcome(out) + '\n');
      setExit(outcomeExit(out, io));
    });
};
