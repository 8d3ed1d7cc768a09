// `refsem explain PROG --point 'f(3,4)' [--param …] [--depth N] [--budget N]`: the derivation of
// one point by the big-step rules of fig. 2.6, with rule IDs (spec-eval.ts).
import { UserError, CLI_LOC } from '../../diag.js';
import { parseExprText } from '../../expr/parse.js';
import { loadPipeline } from '../../alg-semantics/load.js';
import { DEFAULT_BUDGET, derivePoint, showDerivation } from '../../alg-semantics/spec-eval.js';
import type { Value } from '../../expr/value.js';
import { parseAs } from '../../node/io.js';
import { readSource } from '../../node/source.js';
import { atCommandLine, collect, parseIntOption, parseParams } from '../options.js';
import type { Register } from './index.js';


/** `f(3, -4)`: a func applied to integer constants. */
function parsePoint(text: string): { func: string; point: Value[] } {
  const bad = () => new UserError(`invalid --point '${text}': expected a func applied to integers`, CLI_LOC, "write e.g. --point 'f(3, -4)'");
  let e;
  try {
    e = parseExprText(text, 'alg', '<--point>');
  } catch (err) {
    if (err instanceof UserError) throw bad();
    throw err;
  }
  if (e.k !== 'access' || !e.args.every((a) => a.k === 'const')) throw bad();
  return { func: e.func, point: e.args.map((a) => (a as { value: Value }).value) };
}

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
      const { func, point } = parsePoint(o.point);
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
