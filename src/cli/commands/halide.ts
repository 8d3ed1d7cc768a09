// `refsem halide PROG [--schedule S] --window … [--param …] [--run]`: the algorithm and its schedule
// as a Python program for Halide 14 (spec/halide.md); with --run, runs it and compares Halide's
// values with the algorithm's.
import type { Register } from './index.js';
import { EXIT } from '../../node/io.js';
import { checkInput } from '../../alg-semantics/input.js';
import { halideProgram } from '../../halide/emit.js';
import { readBridged } from '../../halide/load.js';
import { showHalideVerdict, validateHalide } from '../../halide/run.js';
import { inputOptions, scheduleOf, scheduleOptions, windowOf } from '../common-options.js';
import { parseParams } from '../options.js';
import { UserError } from '../../diag.js';
import { BridgeRefusal } from '../../halide/emit.js';

interface Opts {
  schedule?: string;
  directive: string[];
  window: string;
  param: string[];
  run?: boolean;
  json?: boolean;
}

export const register: Register = (program, io, setExit) => {
  const cmd = program
    .command('halide')
    .description('print the algorithm and schedule as a Halide 14 Python program; with --run, compare Halide with the algorithm')
    .argument('<prog>', 'algorithm source file');
  scheduleOptions(cmd);
  inputOptions(cmd)
    .option('--run', "run the program with Halide's Python bindings (python3-halide) and compare its values with the algorithm's")
    .option('--json', 'with --run: print the verdict as one JSON object')
    .action(async (prog: string, o: Opts) => {
      const { alg, steps } = await readBridged({ prog, ...scheduleOf(o) });
      const input = { window: windowOf(o.window), params: parseParams(o.param) };
      checkInput(alg, input);
      if (!o.run) {
        try {
          io.out(halideProgram(alg, steps, input));
        } catch (e) {
          if (e instanceof BridgeRefusal) throw new UserError(`this case has no faithful Halide statement: ${e.message}`, { file: o.schedule ?? prog, line: 1, col: 1 }, 'see spec/halide.md for what the bridge maps');
          throw e;
        }
        return;
      }
      const v = await validateHalide(alg, steps, input);
      io.out(o.json ? `${JSON.stringify({ verdict: v.kind, ...v })}\n` : `${showHalideVerdict(v)}\n`);
      // A case Halide or the bridge rejects compared nothing: inconclusive, never the exit of "equal".
      if (v.kind === 'differs' || v.kind === 'crash') setExit(EXIT.checkFailed);
      else if (v.kind !== 'equal') setExit(EXIT.inconclusive);
    });
};
