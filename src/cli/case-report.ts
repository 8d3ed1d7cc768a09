// Report pages on disk: `refsem html` and `refsem replay --html` (a reproducer's program, schedule
// and input through the same report, with the replayed verdict on top).
import { SPEC_DIR } from '../node/package.js';
import { writeOutput } from '../node/source.js';
import type { Reproducer } from '../fuzz/reproducer.js';
import { registryWith, resolveEngine } from '../node/plugins.js';
import { buildReport } from '../report/build.js';
import { renderReport } from '../report/html.js';
import { buildLambdaReport } from '../report/lambda.js';
import type { ReportModel } from '../report/model.js';
import { ruleTexts } from '../rules/rule-index.js';

/**
 * Writes a report as one self-contained page: the text of every rule it names is read from the
 * spec chapters of the installed package and embedded, so no link depends on this machine.
 * `option` names the path on the command line.
 */
export function writeReportPage(out: string, model: ReportModel, option = '--out'): void {
  writeOutput(out, renderReport(model, { rules: ruleTexts(SPEC_DIR) }), option);
}

/** Writes the report of reproducer `r` (read from `file`) to `out`, noting `outcome`. */
export async function writeCaseReport(out: string, file: string, r: Reproducer, outcome: string): Promise<void> {
  const c = r.case;
  let model: ReportModel;
  if (c.term !== undefined) model = buildLambdaReport({ source: { file: `${file} (λ1 term)`, text: c.term } });
  else if (c.program !== undefined) {
    const window = c.input?.window.map(([m, l]) => [Number(m), Number(l)] as const);
    model = buildReport({
      source: { file: `${file} (program)`, text: c.program },
      ...(c.schedule ? { schedule: { file: `${file} (schedule)`, text: c.schedule } } : {}),
      ...(window ? { window } : {}),
      params: Object.fromEntries(Object.entries(c.input?.params ?? {}).map(([k, v]) => [k, Number(v)])),
      engine: await resolveEngine(r.engine),
      registry: await registryWith(r.directives),
    });
  } else model = { title: `refsem report: ${file}`, errors: [], notes: [], programs: [], ...(c.target ? { source: { file: `${file} (target program)`, text: c.target } } : {}) };
  writeReportPage(out, { ...model, notes: [outcome, ...model.notes] }, '--html');
}
