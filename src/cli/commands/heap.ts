// `refsem heap PROG.lam [--step N]`: the heap of the reference-counted machine running the Perceus
// translation of a λ1 program (the one `refsem html` reports), as a graph at one step: its live
// cells with their reference counts, and an edge from each field holding a cell to that cell
// (src/report/heap-graph.ts). Without --step, the first step at which the heap is largest.
import type { Register } from './index.js';
import { readSource } from '../../node/source.js';
import { parseAs } from '../../node/io.js';
import { CLI_LOC, UserError } from '../../diag.js';
import { loadProgram } from '../../perceus/scope.js';
import { parseIntOption } from '../options.js';
import { buildLambdaReport } from '../../report/lambda.js';
import { printHeapGraph } from '../../report/heap-graph.js';

export const register: Register = (program, io) => {
  program
    .command('heap')
    .description('print the heap of a λ1 program\'s Perceus run at one step: cells, reference counts, edges')
    .argument('<prog>', 'λ1 program (.lam)')
    .option('--step <N>', 'the step after which the heap is shown, from 1 (default: the first step with the largest heap)')
    .action((prog: string, o: { step?: string }) => {
      const source = readSource(prog);
      const step = o.step === undefined ? undefined : Number(parseIntOption('--step', o.step, 1n));
      // a bad program is reported at its place (exit 2) before the report, which would only show it
      parseAs('lam', source, loadProgram);
      const p = buildLambdaReport({ source, ...(step !== undefined ? { step } : {}) }).perceus!;
      if (!p.heap) throw new UserError(`--step ${step}: the machine takes ${p.steps.length} steps`, CLI_LOC, `give --step from 1 to ${p.steps.length}`);
      io.out(printHeapGraph(p.heap));
    });
};
