// `refsem lower PROG [--trace] [--holes | --check] [--fill BOUNDS.json [--window … --param … [--executor …]]]`:
// prints 𝓛(P) (fig. 2.9) with its holes; with --fill, the program completed by a hand-written Γ;
// with a window as well, runs it and prints the verdict of def. 2.3 against the algorithm.
import { UserError } from '../../diag.js';
import { holeKey } from '../../expr/ast.js';
import { loadPipeline } from '../../alg-semantics/load.js';
import { lower } from '../../lowering/lower.js';
import { fillByHand } from '../../lowering/handfill.js';
import { isConfluent, showVerdict, verdictFor } from '../../lowering/equivalence.js';
import { DOMINANCE, LOOP_NAMING, checkDominance, checkLoopNaming } from '../../lowering/invariants.js';
import { holesOf } from '../../target-semantics/holes.js';
import { printTgt } from '../../target-semantics/print.js';
import { loopsOf } from '../../target-semantics/walk.js';
import { EXIT, parseAs } from '../../node/io.js';
import { readSource } from '../../node/source.js';
import { runLimits } from '../common-options.js';
import { collect, parseExecutor, parseParams, parseWindow } from '../options.js';
import type { Register } from './index.js';

interface Opts {
  trace?: boolean;
  holes?: boolean;
  check?: boolean;
  fill?: string;
  window?: string;
  param: string[];
  executor: string;
  seed?: string;
}

function readBounds(path: string): Record<string, string> {
  const { text, file } = readSource(path);
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${file} is not JSON: ${(e as Error).message}`, { file, line: 1, col: 1 }, 'write an object such as {"?cpu.min(f.x)": "x.min"}');
  }
  if (typeof j !== 'object' || j === null || Array.isArray(j) || Object.values(j).some((v) => typeof v !== 'string')) {
    throw new UserError(`${file} must hold one object mapping holes to expression strings`, { file, line: 1, col: 1 }, 'e.g. {"?cpu.min(f.x)": "x.min", "?cpu.len(f.x)": "x.len"}');
  }
  return j as Record<string, string>;
}

export const register: Register = (program, io, setExit) => {
  program
    .command('lower')
    .description('lower an algorithm to a target program with bounds holes (fig. 2.9)')
    .argument('<prog>', 'algorithm source file (- for standard input)')
    .option('--trace', 'print each lowering equation applied, with its rule ID, before the program')
    .option('--holes', 'print only the holes of the lowered program, one per line')
    .option('--check', 'check lemmas 2.4 (loop naming) and 2.5 (dominance) on the lowered program instead of printing it')
    .option('--fill <bounds.json>', 'fill the holes from a JSON object {"?hole": "expression", …}')
    .option('--window <MIN+LEN,...>', 'with --fill: run the completed program and compare it with the algorithm')
    .option('--param <NAME=INT>', 'pipeline parameter (repeatable)', collect, [])
    .option('--executor <fast|machine>', 'target executor used with --window', 'fast')
    .option('--seed <N>', 'seed for parallel loop orders')
    .action((prog: string, o: Opts) => {
      const p = parseAs('alg', readSource(prog), loadPipeline);
      const t0 = lower(p, o.trace ? (rule, what) => io.out(`[${rule}] ${what}\n`) : undefined);
      if (o.check) {
        const errs = [...checkLoopNaming(t0), ...checkDominance(t0, p)];
        if (errs.length > 0) {
          io.out(errs.join('\n') + '\n');
          setExit(EXIT.checkFailed);
          return;
        }
        io.out(`[${LOOP_NAMING}] holds: ${loopsOf(t0).length} loops, each named uniquely\n[${DOMINANCE}] holds\n`);
        return;
      }
      if (o.holes) {
        io.out(holesOf(t0).map((h) => holeKey(h) + '\n').join(''));
        return;
      }
      const t = o.fill === undefined ? t0 : fillByHand(t0, readBounds(o.fill), o.fill);
      if (o.window === undefined) {
        io.out(printTgt(t));
        return;
      }
      if (o.fill === undefined) throw new UserError('--window needs --fill: a program with holes cannot run', undefined, 'give the hole values with --fill BOUNDS.json');
      const limits = runLimits(o);
      const v = verdictFor(p, t, { window: parseWindow(o.window), params: parseParams(o.param) }, { executor: parseExecutor(o.executor), ...limits });
      io.out(showVerdict(v) + '\n');
      if (isConfluent(v) === false) setExit(EXIT.checkFailed);
    });
};
