// `refsem compare ALG TGT --window … [--param …] [--executor fast|machine] [--seed N] [--max-steps N]`:
// runs a hole-free target program on an input and prints the verdict of def. 2.3 against the
// algorithm (spec/lowering.md, "Verdicts"). Exit 1 when the pair is not confluent on that input.
import { loadPipeline } from '../../alg-semantics/load.js';
import { isConfluent, showVerdict, verdictFor } from '../../lowering/equivalence.js';
import { parseTgt } from '../../target-semantics/parse.js';
import { EXIT, readSource } from '../io.js';
import { collect, parseExecutor, parseIntOption, parseParams, parseWindow } from '../options.js';
import type { Register } from './index.js';

export const register: Register = (program, io, setExit) => {
  program
    .command('compare')
    .description('run a target program and compare it with an algorithm on a window (defs. 2.1–2.3)')
    .argument('<alg>', 'algorithm source file')
    .argument('<tgt>', 'hole-free target program file')
    .requiredOption('--window <MIN+LEN,...>', 'output window, one MIN+LEN per dimension')
    .option('--param <NAME=INT>', 'pipeline parameter (repeatable)', collect, [])
    .option('--executor <fast|machine>', 'target executor', 'fast')
    .option('--seed <N>', 'seed for parallel loop orders')
    .option('--max-steps <N>', 'step budget of the target run')
    .action((algPath: string, tgtPath: string, o: { window: string; param: string[]; executor: string; seed?: string; maxSteps?: string }) => {
      const a = readSource(algPath);
      const p = loadPipeline(a.text, a.file);
      const b = readSource(tgtPath);
      const t = parseTgt(b.text, b.file);
      const seed = o.seed === undefined ? undefined : Number(parseIntOption('--seed', o.seed));
      const maxSteps = o.maxSteps === undefined ? undefined : Number(parseIntOption('--max-steps', o.maxSteps, 1n));
      const v = verdictFor(p, t, { window: parseWindow(o.window), params: parseParams(o.param) }, {
        executor: parseExecutor(o.executor),
        ...(seed !== undefined ? { seed } : {}),
        ...(maxSteps !== undefined ? { maxSteps } : {}),
      });
      io.out(showVerdict(v) + '\n');
      if (isConfluent(v) === false) setExit(EXIT.checkFailed);
    });
};
