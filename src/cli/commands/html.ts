// `refsem html PROG [--schedule S] [--window …] [--param …] [--engine E] [--point P] -o FILE`:
// the report of a program as one self-contained HTML page (src/report/): the algorithm, T0 … Tn
// with their diffs and linked rules, the bounds, the output as a heat map, the machine step by
// step on the window, and a derivation with repeated sub-derivations folded.
import type { Register } from './index.js';
import { readSource } from '../../node/source.js';
import { CLI_LOC, UserError } from '../../diag.js';
import { collect, parseIntOption, parseParams } from '../options.js';
import { windowOf } from '../common-options.js';
import { resolveEngine, registryWith } from '../../node/plugins.js';
import { buildReport, DEFAULT_WINDOW, REPORT_LIMITS } from '../../report/build.js';
import { buildLambdaReport } from '../../report/lambda.js';
import { writeReportPage } from '../case-report.js';

interface Opts {
  schedule?: string;
  directive: string[];
  window?: string;
  param: string[];
  engine: string;
  point?: string;
  budget?: string;
  step?: string;
  pictures: string;
  out: string;
}

export const register: Register = (program, io) => {
  program
    .command('html')
    .description('write the report of a program as one self-contained HTML page')
    .argument('<prog>', 'algorithm (.alg) or λ1 program (.lam)')
    .option('--schedule <file>', 'schedule to apply after lowering')
    .option('--directive <module.mjs>', 'user directive module the schedule uses (repeatable)', collect, [])
    .option('--window <MIN+LEN,...>', `output window, stepped through on the machine too (at most ${REPORT_LIMITS.stepPoints} points; default ${DEFAULT_WINDOW.min}+${DEFAULT_WINDOW.len} per dimension, the machine on the first tile the program computes)`)
    .option('--param <NAME=INT>', 'pipeline parameter (repeatable)', collect, [])
    .option('--engine <name|module.mjs>', 'bounds engine: beta0, beta1 or a plug-in module', 'beta1')
    .option('--point <f(c,...)>', 'the point whose derivation is shown (default: the first point of the window)')
    .option('--budget <N>', `steps each evaluation on the page may take (default ${REPORT_LIMITS.evalSteps}); a larger one is reported on the page`)
    .option('--pictures <which>', 'iteration-space pictures: last (of Tn) or every (of each of T0 … Tn, the reader picks one; a larger page)', 'last')
    .option('--step <N>', 'with a λ1 program: the step whose heap is drawn as a graph (default: the first step with the largest heap)')
    .requiredOption('-o, --out <file>', 'the HTML file to write')
    .action(async (prog: string, o: Opts) => {
      const source = readSource(prog);
      if (/\.(tgt|sched)$/.test(source.file)) throw new UserError(`'${source.file}' is not an algorithm or a λ1 program`, CLI_LOC, 'refsem html takes an algorithm (.alg), with --schedule for its schedule, or a λ1 program (.lam)');
      if (source.file.endsWith('.lam')) {
        const model = buildLambdaReport({ source, ...(o.step !== undefined ? { step: Number(parseIntOption('--step', o.step, 1n)) } : {}) });
        writeReportPage(o.out, model);
        io.out(`wrote ${o.out}: the Perceus translation and ${model.perceus?.steps.length ?? 0} heap-machine steps${model.errors.length ? ', with the error shown in the page' : ''}\n`);
        return;
      }
      const window = o.window === undefined ? undefined : windowOf(o.window).map(([m, l]) => [Number(m), Number(l)] as const);
      const points = window?.reduce((n, [, l]) => n * l, 1) ?? 0;
      if (points > REPORT_LIMITS.stepPoints) {
        throw new UserError(`the window has ${points} points; a report steps through at most ${REPORT_LIMITS.stepPoints}`, CLI_LOC, 'give a smaller --window (refsem exec runs large windows)');
      }
      if (o.pictures !== 'last' && o.pictures !== 'every') throw new UserError(`--pictures ${o.pictures}: not a choice of pictures`, CLI_LOC, 'write --pictures last or --pictures every');
      const model = buildReport({
        source,
        pictures: o.pictures,
        ...(o.schedule !== undefined ? { schedule: readSource(o.schedule) } : {}),
        ...(window ? { window, stepWindow: window } : {}),
        params: Object.fromEntries([...parseParams(o.param)].map(([k, v]) => [k, Number(v)])),
        engine: await resolveEngine(o.engine),
        ...(o.point !== undefined ? { point: o.point } : {}),
        registry: await registryWith(o.directive),
        ...(o.budget !== undefined ? { budget: Number(parseIntOption('--budget', o.budget, 1n)) } : {}),
      });
      writeReportPage(o.out, model);
      io.out(`wrote ${o.out}: ${model.programs.length} programs${model.errors.length ? `, ${model.errors.length} error${model.errors.length === 1 ? '' : 's'} shown in the page` : ''}\n`);
    });
};
