// The report of a λ1 program (thesis ch. 4): its Perceus translation with every optimization
// (fig. 4.8, §4.2.3–4.2.5) and the heap machine running it step by step, with the live heap after
// each step (cells reserved as reuse tokens shown as such). Bad input becomes a located message.
import { UserError } from '../diag.js';
import { CONFIGS, annotate, showRV } from '../perceus/pipeline.js';
import { compile } from '../perceus/heap-compile.js';
import { run } from '../perceus/heap-machine.js';
import { printProgram } from '../perceus/print.js';
import { loadProgram } from '../perceus/scope.js';
import type { TraceLine } from '../perceus/heap-machine.js';
import type { MachineStep, ReportModel, RuleRef } from './model.js';
import { REPORT_LIMITS } from './build.js';
import { type HeapGraph, heapGraph, reuseWatcher } from './heap-graph.js';

export interface LambdaReportRequest {
  readonly source: { readonly file: string; readonly text: string };
  /** the step (from 1, as the stepper counts) whose heap is drawn as a graph; default the first at which the heap is largest */
  readonly step?: number;
}

export function buildLambdaReport(req: LambdaReportRequest): ReportModel {
  const rule = (id: string): RuleRef => ({ id });
  const base = { title: `refsem report: ${req.source.file}`, source: req.source, programs: [] };
  try {
    const core = loadProgram(req.source.text, req.source.file);
    const config = CONFIGS.find((c) => c.name === '+reusespec')!;
    const annotated = annotate(core, config);
    const trace: TraceLine[] = [];
    const heaps: { step: number; graph: number }[] = [];
    // The heap after each step, read through the per-step hook (which also makes the machine
    // track its live cells); it never reports a violation. A binding of a computed value takes two
    // steps but one call of the hook, so a step shows the heap of the first hook at or after it.
    // Equal heaps are kept once (`graphs`), so the page can draw the graph at every step.
    let graph: HeapGraph | undefined;
    const graphs: Omit<HeapGraph, 'step'>[] = [];
    const known = new Map<string, number>();
    const reuses = reuseWatcher();
    const result = run(compile(annotated, false), {
      trace,
      maxSteps: REPORT_LIMITS.heapSteps,
      check: (state, step) => {
        // the hook runs after the step that added the last trace line
        const shown = trace.length;
        const g = heapGraph(state.live, shown, reuses(state.live, shown));
        const { step: _, ...shape } = g;
        const key = JSON.stringify(shape);
        if (!known.has(key)) (known.set(key, graphs.length), graphs.push(shape));
        heaps.push({ step, graph: known.get(key)! });
        if (req.step !== undefined ? !graph && shown >= req.step : state.live.size > (graph?.cells.length ?? -1)) graph = g;
        return undefined;
      },
    });
    let h = 0;
    const steps: MachineStep[] = trace.map((t) => {
      while (h < heaps.length - 1 && heaps[h]!.step < t.step) h++;
      return { rule: rule(t.rule), text: t.text, ...(heaps[h] ? { heap: heaps[h]!.graph } : {}) };
    });
    const stopped = result.stop?.kind === 'budget';
    return {
      ...base,
      errors: [],
      notes: [`Perceus with drop specialization, fusion, reuse and reuse specialization (${config.name})`],
      perceus: {
        translated: printProgram(annotated),
        steps,
        result: result.value !== undefined ? showRV(result.value) : stopped ? `not finished after ${REPORT_LIMITS.heapSteps} steps` : 'no value',
        truncated: stopped,
        ...(graph ? { heap: graph } : {}),
        graphs,
      },
    };
  } catch (e) {
    return { ...base, errors: [e instanceof UserError ? e.render() : `internal error: ${(e as Error)?.message ?? String(e)}`], notes: [] };
  }
}
