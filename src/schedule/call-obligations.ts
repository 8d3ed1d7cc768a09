// The obligations of one directive call (spec/effects.md, [OBL-ROUTE]): its directive's own, those
// of the directives it runs as steps, and for a plug-in that declares none, the generic route.
import type { Obligation } from '../effects/obligation.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { printStmt } from '../target-semantics/print.js';
import { directiveCtx } from './apply.js';
import { genericObligations } from './obligations.js';
import type { DirectiveCall, DirectiveRegistry } from './plugin.js';

/** One directive call on a program: what it must satisfy, gathered from its steps when it runs others. */
export interface CallObligations {
  readonly obligations: readonly Obligation[];
  /** how they were found */
  readonly route: 'declared' | 'steps' | 'generic';
}

/**
 * implements [OBL-ROUTE]: the obligations of `call` on `t`: the directive's own (`obligations`) and those of each
 * step it runs through `ctx.run`; a plug-in that declares none and runs no step takes the generic
 * route ([OBL-GENERIC]).
 */
export function obligationsOf(t: TgtProgram, call: DirectiveCall, registry: DirectiveRegistry, history: readonly DirectiveCall[] = []): CallObligations {
  const steps: { t: TgtProgram; call: DirectiveCall; out: TgtProgram }[] = [];
  const base = directiveCtx(call, registry, history);
  const ctx = {
    ...base,
    run(cur: TgtProgram, name: string, args: object) {
      const out = base.run(cur, name, args);
      steps.push({ t: cur, call: { directive: registry.get(name)!, args }, out });
      return out;
    },
  };
  const after = call.directive.apply(t, call.args, ctx);
  const fromSteps = steps.flatMap((s) => obligationsOf(s.t, s.call, registry, history).obligations);
  const own = call.directive.obligations;
  if (own) return { obligations: [...own(t, call.args, ctx, after), ...fromSteps], route: 'declared' };
  if (steps.length > 0) {
    // What the directive does itself, before, between and after its steps, is read off the programs.
    const edits: Obligation[] = [];
    const edited = (from: TgtProgram, to: TgtProgram) => {
      if (printStmt(from.body) !== printStmt(to.body)) edits.push(...genericObligations(from, to));
    };
    let cur = t;
    for (const s of steps) {
      edited(cur, s.t);
      cur = s.out;
    }
    edited(cur, after);
    return { obligations: [...fromSteps, ...edits], route: 'steps' };
  }
  return { obligations: genericObligations(t, after), route: 'generic' };
}
