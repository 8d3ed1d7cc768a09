// The scheduling component as the fuzzers use it (gen/schedule.ts, ScheduleDriver): the registry
// (built-ins, --directive modules, zoo plug-ins), `generate` with a seeded Rng, one checked step
// at a time with the same context the schedule driver gives (apply.ts), and the concrete syntax.
import { UserError } from '../../diag.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { applySchedule, directiveCtx, generateCall } from '../../schedule/apply.js';
import { parseSchedule } from '../../schedule/parse.js';
import { type DirectiveCall, type DirectiveRegistry, Rejection, type Rng } from '../../schedule/plugin.js';
import { printCall, printSchedule } from '../../schedule/print.js';
import { type AppliedCall, ScheduleRejection, type ScheduleDriver } from './schedule.js';

/** A small seeded generator (mulberry32) behind the plug-in API's `Rng`. */
export function seededRng(seed: number): Rng {
  let a = seed | 0;
  return {
    below(n: number): number {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return n <= 0 ? 0 : (((t ^ (t >>> 14)) >>> 0) % n);
    },
  };
}

export function scheduleDriver(registry: DirectiveRegistry): ScheduleDriver {
  const callOf = (c: AppliedCall): DirectiveCall => {
    const d = registry.get(c.name);
    if (!d) throw new UserError(`unknown directive '${c.name}'`);
    return { directive: d, args: c.args };
  };
  const calls = (cs: readonly AppliedCall[]) => cs.map(callOf);
  return {
    directives: registry.directives,
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
