// `refsem replay FILE`: re-checks a reproducer written by a campaign (docs/fuzzing.md).
import type { Register } from './index.js';
import { EXIT } from '../../node/io.js';
import { extractReproducer, replay, traceReplay } from '../../fuzz/replay.js';
import { printTgt } from '../../target-semantics/print.js';
import { writeCaseReport } from '../case-report.js';

export const register: Register = (program, io, setExit) => {
  program
    .command('replay')
    .description('re-run the check of a reproducer written by refsem fuzz; exit 1 while it still fails')
    .argument('<file>', 'a reproducer (.json) from a campaign\'s --out directory')
    .option('--json', 'print the outcome as one JSON object')
    .option('--html <file>', 'also write the case as a report page (as refsem html does)')
    .option('--extract <dir>', 'write the case as files (program, schedule, plug-in modules, run.sh) into DIR instead of checking it')
    .option('--trace', 'check the property after every directive: print T0 … Tn with their verdicts and the first directive that changes the verdict')
    .action(async (file: string, o: { json?: boolean; html?: string; extract?: string; trace?: boolean }) => {
      if (o.extract !== undefined) {
        for (const f of extractReproducer(file, o.extract)) io.out(`wrote ${f}\n`);
        return;
      }
      if (o.trace) {
        const { steps } = await traceReplay(file);
        steps.forEach((st, i) => io.out(`── T${i}${st.directive ? ` after ${st.directive}` : ' (lowered)'}: ${st.verdict}\n${printTgt(st.program)}\n`));
        const change = steps.findIndex((st, i) => i > 0 && st.verdict !== steps[i - 1]!.verdict);
        io.out(change < 0 ? `the verdict is ${steps[0]!.verdict} after every directive\n` : `the verdict changes after directive ${change} (${steps[change]!.directive}): ${steps[change - 1]!.verdict} → ${steps[change]!.verdict}\n`);
        if (steps[steps.length - 1]!.verdict !== 'pass' && !steps[steps.length - 1]!.verdict.startsWith('pass ')) setExit(EXIT.checkFailed);
        return;
      }
      const { reproducer: r, result, reproduced, warnings } = await replay(file);
      for (const w of warnings) io.err(`warning: ${w}\n`);
      const verdict = result.status === 'fail' ? result.verdict : result.status;
      if (o.html !== undefined) {
        const outcome = `replayed verdict: ${verdict} (recorded: ${r.verdict}, property ${r.property})${result.status === 'fail' ? `; expected ${result.expected}, actual ${result.actual}` : ''}`;
        await writeCaseReport(o.html, file, r, outcome);
        io.err(`wrote ${o.html}\n`);
      }
      if (o.json) {
        io.out(`${JSON.stringify({ property: r.property, recorded: r.verdict, verdict, reproduced, ...(result.status === 'fail' ? { expected: result.expected, actual: result.actual } : {}) })}\n`);
      } else {
        io.out(`property: ${r.property}\nrecorded verdict: ${r.verdict}\nreplayed verdict: ${verdict}${reproduced ? ' (reproduced)' : result.status === 'fail' ? ' (fails differently)' : ' (does not fail any more)'}\n`);
        if (r.case.program !== undefined) io.out(`program:\n${r.case.program}`);
        if (r.case.schedule) io.out(`schedule:\n${r.case.schedule}${r.case.schedule.endsWith('\n') ? '' : '\n'}`);
        if (result.status === 'fail') io.out(`expected: ${result.expected}\nactual: ${result.actual}\n`);
      }
      if (result.status === 'fail') setExit(EXIT.checkFailed);
    });
};
