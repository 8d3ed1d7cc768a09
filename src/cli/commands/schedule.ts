// `refsem schedule PROG --schedule SCHED [--trace] [--check] [--print] [--directive MODULE …]`: lowers
// PROG (or reads a .tgt program), applies the schedule (§2.8) and prints the final Tgt? program; with
// --trace, every intermediate T0 … Tn, each headed by the directive that produced it; with --print,
// the schedule itself as refsem directives (a Halide-style .halide schedule, translated).
import { printTgt } from '../../target-semantics/print.js';
import { type FlowObserver, initialProgram, lemmaCheck, observers, schedule } from '../../pipeline.js';
import { readProgramInput } from '../../node/program.js';
import { callPlace, printCall, printSchedule, usage } from '../../schedule/print.js';
import { loadSchedule, registryWith } from '../../node/plugins.js';
import { collect } from '../options.js';
import type { Register } from './index.js';

interface Opts {
  schedule?: string;
  trace?: boolean;
  check?: boolean;
  directive: string[];
  list?: boolean;
  print?: boolean;
}

export const register: Register = (program, io) => {
  program
    .command('schedule')
    .description('apply a schedule to a program and print the scheduled Tgt? program (§2.8)')
    .argument('[prog]', 'algorithm source file, or a Tgt? program (.tgt)')
    .option('--schedule <file>', 'the schedule: a .sched file (one directive per line) or a Halide-style .halide file')
    .option('--trace', 'print T0 … Tn, each headed by the directive that produced it')
    .option('--check', 'check lemmas 2.4 and 2.5 after every directive')
    .option('--directive <module>', 'load a user directive module (.mjs), repeatable', collect, [])
    .option('--list', 'list the available directives with their syntax and phase')
    .option('--print', 'print the schedule as refsem directives (what a .halide schedule translates to) instead of the program')
    .action(async (prog: string | undefined, o: Opts) => {
      if (o.list) {
        const reg = await registryWith(o.directive);
        for (const d of reg.directives) io.out(`${usage(d)}    (${d.phase}${d.source ? `, from ${d.source}` : ''})\n`);
        return;
      }
      if (prog === undefined || o.schedule === undefined) {
        program.error('error: schedule needs PROG and --schedule SCHED (or --list)', { exitCode: 2 });
      }
      const input = readProgramInput({ prog: prog! });
      const t0 = initialProgram(input);
      const s = await loadSchedule(o.schedule!, o.directive, () => t0);
      if (o.trace) io.out(`// T0 = lowering of ${prog === '-' ? '<stdin>' : prog}\n${printTgt(t0)}`);
      let i = 0;
      const trace: FlowObserver = {
        onStep(e) {
          if (e.step === 'directive') io.out(`\n// T${++i} = ${e.call.directive.rule ? `[${e.call.directive.rule}] ` : ''}${printCall(e.call)}   (${callPlace(e.call)})\n${printTgt(e.t)}`);
        },
      };
      const final = schedule(t0, s, input.algorithm, observers(o.check ? lemmaCheck : undefined, o.trace ? trace : undefined));
      if (o.print) io.out(printSchedule(s));
      else if (!o.trace) io.out(printTgt(final));
    });
};
