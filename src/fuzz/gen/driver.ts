// The scheduling component as the fuzzers use it (gen/schedule.ts, ScheduleDriver): the registry
// (built-ins, --directive modules, zoo plug-ins), `generate` with a seeded Rng, one checked step
// at a time with the same context the schedule driver gives (apply.ts), and the concrete syntax.
import { UserError } from '../../diag.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { applySchedule, directiveCtx, generateCall } from '../../schedule/apply.js';
import { parseSchedule } from '../../schedule/parse.js';
import { type Args, type Directive, type DirectiveCall, type DirectiveRegistry, Rejection } from '../../schedule/plugin.js';
import { seededRng } from '../../rng.js';
import { printCall, printSchedule } from '../../schedule/print.js';

/** One applied directive, as the schedule driver records it. */
export interface AppliedCall {
  readonly name: string;
  readonly args: Args;
}

/**
 * What the fuzzers need from the scheduling component: the directives, proposing arguments, one
 * checked step, and the schedule's concrete syntax both ways.
 */
export interface ScheduleDriver {
  readonly directives: readonly Directive[];
  /** the registry the directives come from (proving a generated schedule parses it again) */
  readonly registry: DirectiveRegistry;
  generate(t: TgtProgram, d: Directive, seed: number, history: readonly AppliedCall[]): Args | undefined;
  /** validates and applies; throws ScheduleRejection when the call is invalid */
  step(t: TgtProgram, call: AppliedCall, history: readonly AppliedCall[]): TgtProgram;
  /** the first call whose whole-schedule check (vectorize, unroll) rejects final program t, or -1 */
  finalRejection(t: TgtProgram, calls: readonly AppliedCall[]): number;
  print(calls: readonly AppliedCall[]): string;
  /** parses a schedule and applies it to T0, returning each call and each program */
  parseAndApply(text: string, t0: TgtProgram): { calls: AppliedCall[]; steps: TgtProgram[] };
}

/** A directive refused its arguments: the proposal is dropped, it is no soundness failure. */
export class ScheduleRejection extends Error {}

export function scheduleDriver(registry: DirectiveRegistry): ScheduleDriver {
  const callOf = (c: AppliedCall): DirectiveCall => {
    const d = registry.get(c.name);
    if (!d) throw new UserError(`unknown directive '${c.name}'`);
    return { directive: d, args: c.args };
  };
  const calls = (cs: readonly AppliedCall[]) => cs.map(callOf);
  return {
    directives: registry.directives,
    registry,
    generate(t, d, seed, history) {
      return generateCall(d, t, seededRng(seed), registry, calls(history))?.args;
    },
    step(t, c, history) {
      const call = callOf(c);
      const ctx = directiveCtx(call, registry, calls(history));
      try {
        call.directive.validate(t, call.args, ctx);
        return call.directive.apply(t, call.args, ctx);
      } catch (e) {
        if (e instanceof Rejection) throw new ScheduleRejection(`${printCall(call)}: [${e.rule}] ${e.message}`);
        throw e;
      }
    },
    finalRejection(t, cs) {
      const all = calls(cs);
      return all.findIndex((c) => {
        try {
          c.directive.finalCheck?.(t, c.args, directiveCtx(c, registry, all));
          return false;
        } catch (e) {
          if (e instanceof Rejection) return true;
          throw e;
        }
      });
    },
    print: (cs) => printSchedule({ file: '<fuzz>', calls: calls(cs), registry }),
    parseAndApply(text, t0) {
      const s = parseSchedule(text, '<reproducer schedule>', registry);
      const steps: TgtProgram[] = [t0];
      applySchedule(t0, s, { onStep: (_c, t) => steps.push(t) });
      return { calls: s.calls.map((c) => ({ name: c.directive.name, args: c.args })), steps };
    },
  };
}
