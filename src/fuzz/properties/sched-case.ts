// The case of the scheduling properties: an algorithm, an input, and a schedule given as random
// directive *choices* that are decoded against the lowered program (each choice picks a directive
// and seeds its `generate`), so that shrinking the choice list shrinks the schedule. The concrete
// case keeps every intermediate program T0 = 𝓛(P), T1, …, Tn (fig. 2.4).
import fc from 'fast-check';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { lower } from '../../lowering/lower.js';
import type { FuzzEnv } from '../env.js';
import { type ChoiceB, type Prelude, type Scheduled, arbChoices, decodeChoices, parseScheduleText } from '../gen/schedule.js';
import type { CaseText, Property } from '../property.js';
import { type Stats, bump } from '../stats.js';
import { observePipeline } from '../gen/observe.js';
import { countShapes } from '../gen/shape.js';
import { arbInputB } from '../gen/pipeline.js';
import { arbAlgorithmB } from '../gen/algorithm.js';
import { PROFILES, type ProfileName } from '../gen/profile.js';
import { type AlgCase, type AlgGen, algCase, algShape, decodeAlg, encodeAlg } from './alg-case.js';
import { SEED_MAX_STEPS, type SeedB, type SeedCase, arbSeedB, exactSeedB, keptCalls, seedInput, seedOf } from '../gen/seeded.js';

/** A generated algorithm and input, with random directive choices. */
export interface RandomSchedGen extends AlgGen {
  readonly d: readonly ChoiceB[];
  /** swarm testing: the seed of the directive subset this case may use (gen/schedule.ts) */
  readonly m?: number;
}

/** A seed of the corpus (gen/seeded.ts): some of its schedule's calls, random choices on top. */
export interface SeededSchedGen {
  readonly s: SeedB;
  readonly d: readonly ChoiceB[];
  readonly m?: number;
}

export type SchedGen = RandomSchedGen | SeededSchedGen;

export const isSeeded = (g: SchedGen): g is SeededSchedGen => 's' in g;

/** The environment's seed corpus (read on first use), or none. */
export const seedsOf = (env: FuzzEnv): readonly SeedCase[] => env.seeds?.() ?? [];

/**
 * Decision: the most random choices decoded on top of a seed's kept calls. Most of what a random
 * choice adds to an app a random pipeline exercises too: a mutation stays near the app.
 */
export const SEED_EXTRA_CHOICES = 4;

export interface SchedCase extends AlgCase, Scheduled {}

// Building an arbitrary costs more than drawing from it: one per environment and profile.
const cache = new WeakMap<FuzzEnv, Map<ProfileName, fc.Arbitrary<SchedGen>>>();

export function arbSchedGen(env: FuzzEnv, profile: ProfileName = 'default'): fc.Arbitrary<SchedGen> {
  const byProfile = cache.get(env) ?? new Map<ProfileName, fc.Arbitrary<SchedGen>>();
  cache.set(env, byProfile);
  let a = byProfile.get(profile);
  if (!a) {
    const { favour, gen } = PROFILES[profile];
    const o = { ...env.gen, ...gen };
    const parts = { p: arbAlgorithmB(o), z: arbInputB(o), d: arbChoices(env, favour) };
    byProfile.set(profile, (a = o.swarm ? fc.record({ ...parts, m: fc.nat(0xffff) }) : fc.record(parts)));
  }
  return a;
}

const seededCache = new WeakMap<FuzzEnv, Map<ProfileName, fc.Arbitrary<SchedGen> | undefined>>();

/**
 * Mutations of the environment's seeds (gen/seeded.ts) with a profile's favourite directives among
 * the random choices on top; undefined when the campaign has no seed as small as its cases are yet.
 */
export function arbSeededGen(env: FuzzEnv, profile: ProfileName = 'default'): fc.Arbitrary<SchedGen> | undefined {
  const byProfile = seededCache.get(env) ?? new Map<ProfileName, fc.Arbitrary<SchedGen> | undefined>();
  seededCache.set(env, byProfile);
  if (!byProfile.has(profile)) {
    const s = arbSeedB(seedsOf(env), env.config.maxFuncs);
    const d = arbChoices(env, PROFILES[profile].favour, Math.min(SEED_EXTRA_CHOICES, env.config.maxDirectives));
    byProfile.set(profile, s && (env.gen.swarm ? fc.record({ s, d, m: fc.nat(0xffff) }) : fc.record({ s, d })));
  }
  return byProfile.get(profile);
}

export function schedCase(g: SchedGen, env: FuzzEnv, prelude?: Prelude): SchedCase {
  if (isSeeded(g)) {
    const seed = seedOf(seedsOf(env), g.s);
    return { pipeline: seed.pipeline, input: seedInput(seed, g.s), maxSteps: SEED_MAX_STEPS, ...decodeChoices(seed.t0, g.d, env, prelude, g.m, keptCalls(seed, g.s)) };
  }
  const a = algCase(g, env);
  return { ...a, ...decodeChoices(lower(a.pipeline), g.d, env, prelude, g.m) };
}

/**
 * What a scheduling property knows of the seed corpus (property.ts, `seeded`): mutations of the
 * seeds, seed i as written on one of the exact windows, and the seed a blueprint comes from.
 */
export const schedSeeded = (profile: ProfileName = 'default'): NonNullable<Property<SchedGen, unknown>['seeded']> => ({
  arbitrary: (env) => arbSeededGen(env, profile),
  exact: (env, i, variant) => ({ s: exactSeedB(seedsOf(env), i, variant), d: [], ...(env.gen.swarm ? { m: 0 } : {}) }),
  seedName: (g, env) => (isSeeded(g) ? seedOf(seedsOf(env), g.s).name : undefined),
});

export function encodeSched(c: SchedCase): CaseText {
  return { ...encodeAlg(c), schedule: c.scheduleText };
}

export function decodeSched(t: CaseText, env: FuzzEnv): SchedCase {
  const a = decodeAlg(t, env);
  return { ...a, ...parseScheduleText(lower(a.pipeline), t.schedule ?? '', env) };
}

export const schedShape = (c: SchedCase): string => `${algShape(c)}|${c.names.join(',')}`;

export function observeSched(c: SchedCase, stats: Stats): void {
  observePipeline(c.pipeline, c.input, stats);
  for (const n of c.names) bump(stats.directives, n);
  countShapes(stats.generated, c.pipeline, finalProgram(c), c.names);
  for (const k of halideShapes(c)) bump(stats.constructs, k);
}

/**
 * The schedules Halide users write that the thesis' rules refused and spec/halide.md accepts, as a
 * campaign meets them: a parallel loop over a split with tail shift or round ([PAR-OVERLAP] when
 * its iterations meet), compute-at into one stage of a func with several ([COMPUTE-AT-DOMINANCE]
 * per stage), a bound on a dimension the func's final stage does not loop over ([HINT-STAGES]).
 */
function halideShapes(c: SchedCase): string[] {
  const stages = new Map(c.pipeline.funcs.map((f) => [f.name, f.stages]));
  const lines = c.scheduleText.split('\n');
  const overlapping = new Set(lines.flatMap((l) => /^split (\S+)\.\w+ into (\w+), \w+ .* tail (shift|round)$/.exec(l.trim())?.slice(1, 3).join('.') ?? []));
  const out = new Set<string>();
  for (const l of lines.map((x) => x.trim())) {
    const par = /^traverse (\S+) parallel$/.exec(l);
    if (par && overlapping.has(par[1]!)) out.add('parallel loop over a split with tail shift or round');
    const at = /^compute-at \S+ at (\w+)\.s\d+\./.exec(l);
    if (at && (stages.get(at[1]!)?.length ?? 0) > 1) out.add('compute-at into one stage of a func with several');
    const hint = /^(?:bound|bound-extent|align-bounds) (\w+)\.(\w+) /.exec(l);
    const last = hint ? stages.get(hint[1]!)?.at(-1) : undefined;
    if (hint && last && !last.lhs.some((e) => e.k === 'var' && e.name === hint[2])) out.add("bound on a dimension the func's final stage does not loop over");
  }
  return [...out];
}

/** The final program Tn. */
export const finalProgram = (c: SchedCase): TgtProgram => c.steps[c.steps.length - 1]!;

/**
 * The directive to blame: the first one after which `fails` holds of the schedule's prefix
 * (T0 failing already blames lowering, which is no directive).
 */
export function firstFailingDirective(c: SchedCase, fails: (t: TgtProgram) => boolean): string | undefined {
  // A prefix whose check throws fails as surely as one whose check says no.
  const failsOrThrows = (t: TgtProgram) => {
    try {
      return fails(t);
    } catch {
      return true;
    }
  };
  if (failsOrThrows(c.steps[0]!)) return undefined;
  for (let i = 1; i < c.steps.length; i++) if (failsOrThrows(c.steps[i]!)) return c.names[i - 1];
  return undefined;
}
