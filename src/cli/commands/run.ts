// `refsem run PROG --window MIN+LEN[,…] [--param NAME=INT …] [--json]`: the reference output of an
// algorithm ([REALIZE], fig. 2.6) computed by the fast evaluator.
import { loadPipeline } from '../../alg-semantics/load.js';
import { DEFAULT_MAX_POINTS, outputFunc } from '../../alg-semantics/input.js';
import { FAST_EVAL_MAX_STEPS, realize, realizationJson } from '../../alg-semantics/fast-eval.js';
import { showRealization } from '../../alg-semantics/display.js';
import { parseAs } from '../../node/io.js';
import { readSource } from '../../node/source.js';
import { windowOf } from '../common-options.js';
import { atCommandLine, collect, parseIntOption, parseParams } from '../options.js';
import type { Register } from './index.js';

export const register: Register = (program, io) => {
  program
    .command('run')
    .description('evaluate an algorithm over a window with the fast evaluator')
    .argument('<prog>', 'algorithm source file (- for standard input)')
    .requiredOption('--window <MIN+LEN,...>', 'output window, one MIN+LEN per dimension, e.g. 0+4,-3+5')
    .option('--param <NAME=INT>', 'pipeline parameter (repeatable)', collect, [])
    .option('--json', 'print {"func","window","values"} (values flattened, first dimension fastest)')
    .option('--max-points <N>', `refuse windows with more points (default ${DEFAULT_MAX_POINTS})`)
    .option('--max-steps <N>', `give up after this many evaluation steps (default ${FAST_EVAL_MAX_STEPS})`)
    .action((prog: string, o: { window: string; param: string[]; json?: boolean; maxPoints?: string; maxSteps?: string }) => {
      const p = parseAs('alg', readSource(prog), loadPipeline);
      const window = windowOf(o.window);
      const params = parseParams(o.param);
      const maxPoints = o.maxPoints === undefined ? undefined : Number(parseIntOption('--max-points', o.maxPoints));
      const maxSteps = o.maxSteps === undefined ? undefined : Number(parseIntOption('--max-steps', o.maxSteps, 1n));
      let r;
      try {
        r = realize(p, { window, params }, { maxPoints, maxSteps });
      } catch (e) {
        throw atCommandLine(e); // the step limit is an option of the command line
      }
      io.out((o.json ? JSON.stringify(realizationJson(r)) : showRealization(r, outputFunc(p).vars)) + '\n');
    });
};
