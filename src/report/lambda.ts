// The report of a λ1 program (thesis ch. 4): its Perceus translation with every optimization
// (fig. 4.8, §4.2.3–4.2.5) and the heap machine running it step by step, with the live heap after
// each step. Bad input becomes a located message in the report.
import { UserError } from '../diag.js';
import { CONFIGS, annotate, runAnnotated } from '../perceus/pipeline.js';
import { printProgram } from '../perceus/print.js';
import { loadProgram } from '../perceus/scope.js';
import type { TraceLine } from '../perceus/heap-machine.js';
import type { MachineStep, ReportModel, RuleRef } from './model.js';
import { REPORT_LIMITS } from './build.js';

export interface LambdaReportRequest {
  readonly source: { readonly file: string; readonly text: string };
  readonly ruleHref?: (id: string) => string | undefined;
}

export function buildLambdaReport(req: LambdaReportRequest): ReportModel {
  const rule = (id: string): RuleRef => {
    const href = req.ruleHref?.(id);
    return href === undefined ? { id } : { id, href };
  };
  const base = { title: `refsem report: ${req.source.file}`, source: req.source, programs: [] };
  try {
    const core = loadProgram(req.source.text, req.source.file);
    const config = CONFIGS.find((c) => c.name === '+reusespec')!;
    const annotated = annotate(core, config);
    const trace: TraceLine[] = [];
    const run = runAnnotated(annotated, config, { trace, maxSteps: REPORT_LIMITS.machineSteps });
    const steps: MachineStep[] = trace.map((t) => ({ rule: rule(t.rule), text: t.text }));
    const stopped = run.result.stop?.kind === 'budget';
    return {
      ...base,
      errors: [],
      notes: [`Perceus with drop specialization, fusion, reuse and reuse specialization (${config.name})`],
      perceus: { translated: printProgram(annotated), steps, result: run.value ?? (stopped ? `not finished after ${REPORT_LIMITS.machineSteps} steps` : 'no value'), truncated: stopped },
    };
  } catch (e) {
    return { ...base, errors: [e instanceof UserError ? e.render() : `internal error: ${(e as Error)?.message ?? String(e)}`], notes: [] };
  }
}
