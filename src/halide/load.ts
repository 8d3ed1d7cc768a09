// A program and its schedule read as the bridge needs them: the algorithm, and each directive with
// the programs before and after it (read off the flow, which applies and checks the schedule).
import type { Pipeline } from '../alg-semantics/ast.js';
import { UserError } from '../diag.js';
import type { FlowObserver } from '../pipeline.js';
import { type ProgramFiles, readScheduled } from '../node/program.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import type { ScheduleStep } from './emit.js';

export async function readBridged(files: ProgramFiles): Promise<{ alg: Pipeline; steps: ScheduleStep[] }> {
  const steps: ScheduleStep[] = [];
  let last: TgtProgram | undefined;
  const watch: FlowObserver = {
    onStep(e) {
      if (e.step === 'lower') last = e.t;
      if (e.step === 'directive') {
        steps.push({ call: e.call, before: last!, after: e.t });
        last = e.t;
      }
    },
  };
  const { alg } = await readScheduled(files, watch);
  if (!alg) throw new UserError('the Halide bridge needs an algorithm, not a target program', { file: files.prog, line: 1, col: 1 }, 'pass the .alg file the target program was lowered from');
  return { alg, steps };
}
