// The report page of a reproducer (`refsem replay --html`): its program, schedule and input go
// through the same report as `refsem html`, with the replayed verdict on top.
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Reproducer } from '../fuzz/reproducer.js';
import { registryWith, resolveEngine } from '../node/plugins.js';
import { buildReport, REPORT_LIMITS } from '../report/build.js';
import { renderReport } from '../report/html.js';
import { buildLambdaReport } from '../report/lambda.js';
import type { ReportModel } from '../report/model.js';
import { ruleLinks } from '../rules/rule-index.js';

const specDir = fileURLToPath(new URL('../../spec/', import.meta.url));

/** Writes the report of reproducer `r` (read from `file`) to `out`, noting `outcome`. */
export async function writeCaseReport(out: string, file: string, r: Reproducer, outcome: string): Promise<void> {
  const links = ruleLinks(specDir);
  const ruleHref = (id: string) => links.get(id);
  const c = r.case;
  let model: ReportModel;
  if (c.term !== undefined) model = buildLambdaReport({ source: { file: `${file} (λ1 term)`, text: c.term }, ruleHref });
  else if (c.program !== undefined) {
    const window = c.input?.window.map(([m, l]) => [Number(m), Number(l)] as const);
    // The machine steps through the first points of the window, few enough to read.
    const perDim = window && window.length > 1 ? 2 : 4;
    const stepWindow = window?.map(([m, l]) => [m, Math.min(l, perDim)] as const);
    const fits = !stepWindow || stepWindow.reduce((n, [, l]) => n * l, 1) <= REPORT_LIMITS.stepPoints;
    model = buildReport({
      source: { file: `${file} (program)`, text: c.program },
      ...(c.schedule ? { schedule: { file: `${file} (schedule)`, text: c.schedule } } : {}),
      ...(window ? { window } : {}),
      ...(stepWindow && fits ? { stepWindow } : {}),
      params: Object.fromEntries(Object.entries(c.input?.params ?? {}).map(([k, v]) => [k, Number(v)])),
      engine: await resolveEngine(r.engine),
      registry: await registryWith(r.directives),
      ruleHref,
    });
  } else model = { title: `refsem report: ${file}`, errors: [], notes: [], programs: [], ...(c.target ? { source: { file: `${file} (target program)`, text: c.target } } : {}) };
  writeFileSync(out, renderReport({ ...model, notes: [outcome, ...model.notes] }, { specBase: pathToFileURL(specDir).href }));
}
