// `refsem compare ALG TGT --window … [--param …] [--executor fast|machine] [--seed N] [--max-steps N]`:
// runs a hole-free target program on an input and prints the verdict of def. 2.3 against the
// algorithm (spec/lowering.md, "Verdicts"). Exit 1 when the pair is not confluent on that input.
import { loadPipeline } from '../../alg-semantics/load.js';
import { isConfluent, showVerdict, verdictFor } from '../../lowering/equivalence.js';
import { parseTgt } from '../../target-semantics/parse.js';
import { EXIT, parseAs } from '../../node/io.js';
import { readSource } from '../../node/source.js';
import { inputOptions, runLimits, targetRunOptions } from '../common-options.js';
import { parseExecutor, parseParams, parseWindow } from '../options.js';
import type { Register } from './index.js';

export const register: Register = (program, io, setExit) => {
  const cmd = program
    .command('compare')
    .description('run a target program and compare it with an algorithm on a window (defs. 2.1–2.3)')
    .argument('<alg>', 'algorithm source file')
    .argument('<tgt>', 'hole-free target program file');
  inputOptions(cmd);
  targetRunOptions(cmd)
    .action((algPath: string, tgtPath: string, o: { window: string; param: string[]; executor: string; seed?: string; maxSteps?: string }) => {
      const p = parseAs('alg', readSource(algPath), loadPipeline);
      const t = parseAs('tgt', readSource(tgtPath), parseTgt);
      const limits = runLimits(o);
      const v = verdictFor(p, t, { window: parseWindow(o.window), params: parseParams(o.param) }, { executor: parseExecutor(o.executor), ...limits });
      io.out(showVerdict(v) + '\n');
      if (isConfluent(v) === false) setExit(EXIT.checkFailed);
    });
};
