// Random valid schedules as sequences of directive *choices*. A choice is two small integers: which
// directive (among those the registry offers, user plug-ins included) and a seed for that
// directive's `generate`, which proposes valid arguments for the program at hand. Choices are
// sorted by phase (fig. 2.11) and decoded one after another against T0 = 𝓛(P), T1, …; a choice
// whose directive applies nowhere is skipped. Shrinking drops and simplifies choices, so a
// minimized schedule is short.
import fc from 'fast-check';
import { UserError, describeThrown } from '../../diag.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import type { Args, Directive } from '../../schedule/plugin.js';
import { PHASES } from '../../schedule/plugin.js';
import type { FuzzEnv } from '../env.js';
import { type AppliedCall, ScheduleRejection } from './driver.js';
import { parallelAround, proposeComputeAt, proposeStoreAt, storeWhereComputed } from './placement.js';
import { proposeRaggedSplit } from './ragged.js';
import { seededRng } from '../../rng.js';

export interface ChoiceB {
  readonly d: number;
  readonly s: number;
}

/** A decoded schedule with every intermediate program. */
export interface Scheduled {
  /** T0 = 𝓛(P), then the program after each directive */
  readonly steps: readonly TgtProgram[];
  /** the directive of each step */
  readonly names: readonly string[];
  readonly scheduleText: string;
  /** a directive that threw while applying arguments its own `generate` proposed */
  readonly trouble?: { readonly directive: string; readonly message: string };
}

export function arbChoices(env: FuzzEnv, favour: Readonly<Record<string, number>> = {}, maxLength = env.config.maxDirectives): fc.Arbitrary<ChoiceB[]> {
  const n = env.schedule?.directives.length ?? 0;
  if (n === 0) return fc.constant([]);
  const favoured = Object.entries(favour).flatMap(([name, weight]) => {
    const i = env.schedule!.directives.findIndex((d) => d.name === name);
    return i >= 0 ? [{ weight, arbitrary: fc.constant(i) }] : [];
  });
  const focus = env.config.focus === undefined ? -1 : env.schedule!.directives.findIndex((d) => d.name === env.config.focus);
  // User directives (--directive modules) are what the user wants exercised: they get extra weight.
  const user = env.schedule!.directives.flatMap((d, i) => (d.source !== undefined ? [i] : []));
  const pickD = fc.oneof(
    { weight: 6, arbitrary: fc.nat(n - 1) },
    ...(user.length > 0 ? [{ weight: 6, arbitrary: fc.constantFrom(...user) }] : []),
    // check-directive: the directive under test in most choices
    ...(focus >= 0 ? [{ weight: 12, arbitrary: fc.constant(focus) }] : []),
    // a generation profile's favourites (src/fuzz/gen/profile.ts)
    ...favoured,
  );
  // Schedules as long as people write them: lengths drawn uniformly up to the maximum, not with
  // fast-check's preference for short arrays (shrinking still drops choices).
  return fc.array(fc.record({ d: pickD, s: fc.nat(0xffff) }), { maxLength, size: 'max' });
}

/**
 * Swarm testing (Groce et al.; Csmith and YARPGen do the same): a case may leave out a random
 * subset of the directives, so that those it keeps are combined more densely. The subset is drawn
 * from `mask`; the directive under test and user directives are always kept.
 */
export function swarmDirectives(env: FuzzEnv, mask: number): readonly Directive[] {
  const all = env.schedule!.directives;
  const rng = seededRng(mask);
  const kept = all.filter((d) => d.name === env.config.focus || d.source !== undefined || rng.below(2) === 0);
  return kept.length > 0 ? kept : all;
}

const phaseRank = (d: Directive) => PHASES.indexOf(d.phase);

/**
 * Calls a generation profile makes at the start of the loops phase (e.g. the vector template,
 * vector-template.ts); `apply` validates and records one call and returns the new program, or
 * undefined when the call is rejected.
 */
export type Prelude = (t: TgtProgram, apply: (call: AppliedCall) => TgtProgram | undefined) => void;

/** A directive that misbehaved on arguments it proposed itself (or a profile proposed). */
class Trouble extends Error {
  constructor(readonly trouble: NonNullable<Scheduled['trouble']>, readonly call?: AppliedCall) {
    super(trouble.message);
  }
}

/**
 * Proposals of the placement module (placement.ts) and of ragged reduction splits (ragged.ts) for
 * the directives they know; a choice whose seed is ≡ 0 (mod 4) keeps the directive's own
 * `generate`, so both distributions stay in use.
 */
const PROPOSERS: Readonly<Record<string, (t: TgtProgram, seed: number) => AppliedCall[]>> = {
  'compute-at': proposeComputeAt,
  'store-at': proposeStoreAt,
  split: proposeRaggedSplit,
};
const MAX_PROPOSALS = 6;

/**
 * `fixed` are calls made as they are (a seed's schedule, gen/seeded.ts), merged with the choices
 * in phase order, before them within a phase; one that no longer applies is skipped.
 */
export function decodeChoices(t0: TgtProgram, choices: readonly ChoiceB[], env: FuzzEnv, prelude?: Prelude, swarmMask?: number, fixed: readonly AppliedCall[] = []): Scheduled {
  const drv = env.schedule;
  if (!drv || (choices.length === 0 && fixed.length === 0 && !prelude)) return { steps: [t0], names: [], scheduleText: '' };
  const all = drv.directives;
  const allowed = swarmMask === undefined ? all : swarmDirectives(env, swarmMask);
  // Choices index the full list (the weights of arbChoices refer to it); a directive outside the
  // swarm subset is replaced by one inside it.
  const picked = choices.map((c) => {
    const d = all[c.d % all.length]!;
    return { d: allowed.includes(d) ? d : allowed[c.d % allowed.length]!, s: c.s };
  });
  const named = (name: string) => drv.directives.find((d) => d.name === name);
  const items: ({ call: AppliedCall; d: Directive; s?: undefined } | { call?: undefined; d: Directive; s: number })[] = [
    ...fixed.flatMap((call) => {
      const d = named(call.name);
      return d ? [{ call, d }] : [];
    }),
    ...picked,
  ];
  // a stable sort: the fixed calls keep their order, before the choices of their phase
  items.sort((a, b) => phaseRank(a.d) - phaseRank(b.d));
  const steps = [t0];
  const calls: AppliedCall[] = [];
  const apply = (call: AppliedCall): TgtProgram | undefined => {
    const t = steps[steps.length - 1]!;
    try {
      steps.push(drv.step(t, call, calls));
    } catch (e) {
      if (e instanceof ScheduleRejection) return undefined;
      throw new Trouble({ directive: call.name, message: `failed on its own proposal: ${describeThrown(e)}` }, call);
    }
    calls.push(call);
    return steps[steps.length - 1];
  };
  let preluded = prelude === undefined;
  const runPrelude = () => {
    preluded = true;
    prelude!(steps[steps.length - 1]!, apply);
  };
  let stored = false;
  // Funcs the directive under test placed (check-directive): not repaired by storeRacing.
  const placedByFocus = new Set<string>();
  const storeRacing = () => {
    stored = true;
    for (const call of storeWhereComputed(steps[steps.length - 1]!, placedByFocus)) apply(call);
  };
  try {
    for (const { call, d, s } of items) {
      if (!preluded && phaseRank(d) >= LOOPS_RANK) runPrelude();
      if (!stored && phaseRank(d) >= BOUNDS_RANK) storeRacing();
      if (call !== undefined) {
        apply(call);
        continue;
      }
      // Every other loop directive (user ones included) first meets a ragged split of a reduction
      // nest, when there is one to make: the shape where fuse, swap and reorder mistakes show.
      if (d.phase === 'loops' && d.name !== 'split' && s % 2 === 1) proposeRaggedSplit(steps[steps.length - 1]!, s).slice(0, MAX_PROPOSALS).some((call) => apply(call) !== undefined);
      const t = steps[steps.length - 1]!;
      const propose = d.source === undefined && s % 4 !== 0 ? PROPOSERS[d.name] : undefined;
      if (propose && propose(t, s).slice(0, MAX_PROPOSALS).some((call) => apply(call) !== undefined)) continue;
      let args: Args | undefined;
      try {
        args = drv.generate(t, d, s, calls);
      } catch (e) {
        throw new Trouble({ directive: d.name, message: `generate threw: ${describeThrown(e)}` });
      }
      if (args === undefined) continue;
      // check-directive on a placement: half the time a loop around the loop it places into runs
      // in parallel first, the shape where a placement must keep the iterations apart.
      const focusPlaces = d.name === env.config.focus && d.phase === 'compute';
      const { loop, func } = args as { loop?: unknown; func?: unknown };
      if (focusPlaces && s % 2 === 1 && typeof loop === 'string') parallelAround(t, loop).some((call) => apply(call) !== undefined);
      if (apply({ name: d.name, args }) !== undefined && focusPlaces && typeof func === 'string') placedByFocus.add(func);
    }
    if (!preluded) runPrelude();
    if (!stored) storeRacing();
  } catch (e) {
    if (!(e instanceof Trouble)) throw e;
    const all = e.call ? [...calls, e.call] : calls;
    return { steps, names: all.map((c) => c.name), scheduleText: drv.print(all), trouble: e.trouble };
  }
  // A schedule whose whole-schedule checks fail is cut before the first call that objects.
  for (let k = drv.finalRejection(steps[steps.length - 1]!, calls); k >= 0; k = drv.finalRejection(steps[steps.length - 1]!, calls)) {
    calls.length = k;
    steps.length = k + 1;
  }
  return { steps, names: calls.map((c) => c.name), scheduleText: drv.print(calls) };
}

const LOOPS_RANK = PHASES.indexOf('loops');
const BOUNDS_RANK = PHASES.indexOf('bounds');


export function parseScheduleText(t0: TgtProgram, text: string, env: FuzzEnv): Scheduled {
  if (text.trim() === '') return { steps: [t0], names: [], scheduleText: '' };
  if (!env.schedule) throw new UserError('this build cannot read schedules', undefined, 'the scheduling component is missing');
  const { calls, steps } = env.schedule.parseAndApply(text, t0);
  return { steps, names: calls.map((c) => c.name), scheduleText: text };
}
