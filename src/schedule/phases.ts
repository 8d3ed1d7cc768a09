// Phases (fig. 2.11): a schedule lists its directives in phase order, specialization → loops →
// compute → storage → bounds. Out-of-order schedules are rejected rather than sorted, so that the
// intermediate programs T1 … Tn follow the text as written (spec/schedule.md, [SCHED-PHASE]).
import { UserError, showLoc } from '../diag.js';
import { PHASES, type DirectiveCall, type Phase } from './plugin.js';
import { printCall } from './print.js';

export const phaseIndex = (p: Phase): number => PHASES.indexOf(p);

const RULE = 'SCHED-PHASE';

export function checkPhaseOrder(calls: readonly DirectiveCall[]): void {
  let latest: DirectiveCall | undefined;
  for (const c of calls) {
    if (latest && phaseIndex(c.directive.phase) < phaseIndex(latest.directive.phase)) {
      throw new UserError(
        `${printCall(c)}: [${RULE}] this ${c.directive.phase}-phase directive comes after '${printCall(latest)}' (${latest.directive.phase} phase, at ${showLoc(latest.loc)})`,
        c.loc,
        `list directives in phase order: ${PHASES.join(' → ')}`,
      );
    }
    if (!latest || phaseIndex(c.directive.phase) >= phaseIndex(latest.directive.phase)) latest = c;
  }
}
