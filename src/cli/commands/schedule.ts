// `refsem schedule PROG --schedule SCHED [--trace] [--check] [--directive MODULE …]`: lowers PROG
// (or reads a .tgt program), applies the schedule (§2.8) and prints the final Tgt? program; with
// --trace, every intermediate T0 … Tn, each headed by the directive that produced it.
import { showLoc } from '../../diag.js';
import type { Pipeline } from '../../alg-semantics/ast.js';
import { loadPipeline } from '../../alg-semantics/load.js';
import { lower } from '../../lowering/lower.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { parseTgt } from '../../target-semantics/parse.js';
import { printTgt } from '../../target-semantics/print.js';
import { applySchedule } from '../../schedule/apply.js';
import { printCall, usage } from '../../schedule/print.js';
import { loadSchedule, registryWith } from '../../schedule/schedule.js';
import { readSource } from '../io.js';
import { collect } from '../options.js';
import type { Register } from './index.js';

interface Opts {
  schedule?: string;
  trace?: boolean;
  check?: boolean;
  directive: string[];
  list?: boolean;
}

export const register: Register = (program, io) => {
  program
    .command('schedule')
    .description('apply a schedule to a program and print the scheduled Tgt? program (§2.8)')
    .argument('[prog]', 'algorithm source file, or a Tgt? program (.tgt)')
    .option('--schedule <file>', 'the schedule (.sched): one directive per line')
    .option('--trace', 'print T0 … Tn, each headed by the directive that produced it')
    .option('--check', 'check lemmas 2.4 and 2.5 after every directive')
    .option('--directive <module>', 'load a user directive module (.mjs), repeatable', collect, [])
    .option('--list', 'list the available directives with their syntax and phase')
    .action(async (prog: string | undefined, o: Opts) => {
      if (o.list) {
        const reg = await registryWith(o.directive);
        for (const d of reg.directives) io.out(`${usage(d)}    (${d.phase}${d.source ? `, from ${d.source}` : ''})\n`);
        return;
      }
      if (prog === undefined || o.schedule === undefined) {
        program.error('error: schedule needs PROG and --schedule SCHED (or --list)', { exitCode: 2 });
      }
      const { text, file } = readSource(prog!);
      let t0: TgtProgram;
      let alg: Pipeline | undefined;
      if (/\.tgt$/.test(file)) t0 = parseTgt(text, file);
      else {
        alg = loadPipeline(text, file);
        t0 = lower(alg);
      }
      const s = await loadSchedule(o.schedule!, o.directive);
      if (o.trace) io.out(`// T0 = lowering of ${file}\n${printTgt(t0)}`);
      let i = 0;
      const final = applySchedule(t0, s, {
        ...(o.check ? { check: true } : {}),
        ...(alg ? { pipeline: alg } : {}),
        ...(o.trace
          ? { onStep: (c, t) => io.out(`\n// T${++i} = ${c.directive.rule ? `[${c.directive.rule}] ` : ''}${printCall(c)}   (${showLoc(c.loc)})\n${printTgt(t)}`) }
          : {}),
      });
      if (!o.trace) io.out(printTgt(final));
    });
};
