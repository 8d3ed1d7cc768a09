// `refsem explain PROG --point 'f(3,4)' [--param …] [--depth N] [--budget N]`: the derivation of
// one point by the big-step rules of fig. 2.6, with rule IDs (spec-eval.ts).
import { UserError, CLI_LOC, argLoc } from '../../diag.js';
import { loadPipeline } from '../../alg-semantics/load.js';
import { DEFAULT_BUDGET, derivePoint, parsePoint, showDerivation } from '../../alg-semantics/spec-eval.js';
import { parseAs } from '../../node/io.js';
import { readSource } from '../../node/source.js';
import { atCommandLine, collect, parseIntOption, parseParams } from '../options.js';
import type { Register } from './index.js';


export const register: Register = (program, io) => {
  program
    .command('explain')
    .description('print the big-step derivation of one point, with rule IDs')
    .argument('<prog>', 'algorithm source file (- for standard input)')
    .requiredOption('--point <f(c,...)>', "the point to derive, e.g. 'f(3,4)'")
    .option('--param <NAME=INT>', 'pipeline parameter (repeatable)', collect, [])
    .option('--depth <N>', 'derive and print only this many levels (deeper func values come from the fast evaluator)')
    .option('--budget <N>', `give up after this many derivation steps (default ${DEFAULT_BUDGET})`)
    .action((prog: string, o: { point: string; param: string[]; depth?: string; budget?: string }) => {
      const p = parseAs('alg', readSource(prog), loadPipeline);
      const parsed = parsePoint(o.point);
      if (!parsed) throw new UserError(`invalid --point '${o.point}': expected a func applied to integers`, argLoc('--point', o.point), "write e.g. --point 'f(3, -4)'");
      const { func, point } = parsed;
      const params = parseParams(o.param);
      for (const q of params.keys()) {
        if (!p.params.includes(q)) throw new UserError(`'${q}' is not a parameter of pipeline '${p.output}'`, CLI_LOC);
      }
      const depth = o.depth === undefined ? Infinity : Number(parseIntOption('--depth', o.depth, 1n));
      const budget = o.budget === undefined ? DEFAULT_BUDGET : Number(parseIntOption('--budget', o.budget, 1n));
      let r;
      try {
        r = derivePoint(p, params, func, point, budget, depth);
      } catch (e) {
        throw atCommandLine(e); // an unknown func or a wrong arity is a fault of --point
      }
      if (r.kind === 'budget') {
        throw new UserError(`budget exceeded: the derivation of ${o.point} needs more than ${r.steps} steps`, CLI_LOC, 'raise --budget, or use `refsem run` (the fast evaluator) for the value');
      }
      io.out(showDerivation(r.tree, depth) + '\n');
    });
};
