// The check loop one worker (or the main thread, when jobs run in-process) executes over its share
// of the campaign's check indices. Shared by worker.ts and the in-process runner so both behave
// identically.
import { type CaseSource, type Found, batchResults, runCheck, runCheckAsync, shrinkBudgetOf } from './check.js';
import type { FuzzEnv } from './env.js';
import type { AnyProperty, CheckResult } from './property.js';
import { type Shard, checkSeed, globalIndex } from './seed.js';
import { type Stats, bump, emptyStats } from './stats.js';
import { type EngineClock, RAMP_STEP, SIZE_LEVELS, SLOW_ENGINE_MS, levelAt, posOf, sizedEnvs, timedEngine } from './size.js';
import { SLICED_FROM, SLICE_MS, sliceClock, timeSliceNamed } from './time-slice.js';

export interface SliceSpec {
  readonly seed: number;
  readonly shard: Shard;
  readonly jobs: number;
  readonly job: number;
  /** global index bound (exclusive), or undefined for a timed campaign */
  readonly runs?: number;
  /** wall-clock time (ms since epoch) after which no check starts, or undefined */
  readonly deadline?: number;
  /** wall-clock end of the campaign: shrinking stops there (the share after `deadline` is kept for it) */
  readonly end?: number;
  /** first local position k to run (a worker restarted after a timeout continues after it) */
  readonly startK: number;
  /** first position on the size ramp of a `--time` campaign (size.ts); 0 when absent */
  readonly startPos?: number;
  /** the time-sliced properties of a timed default campaign (time-slice.ts), by name */
  readonly sliced?: readonly string[];
  /** the first local position of the sliced checks (a worker restarted after a timeout continues after it) */
  readonly startSliceK?: number;
}

export interface SliceHooks {
  shouldStop(): boolean;
  onFound(f: Found): void;
  /** stats gathered since the last call, and how many checks they cover */
  onProgress(delta: Stats, checks: number): void;
  /** an evaluation of check `index` at size `level` starts (-1: idle); for the per-check time budget */
  onStart?(index: number, level: number, at?: Resume): void;
  /** the engine under test starts or stops running (a hang inside it is the engine's) */
  onEngine?(running: boolean): void;
}

/** Where a worker goes on when the check in flight ends it: the next local positions of both sequences of checks. */
export interface Resume {
  readonly k: number;
  readonly sliceK: number;
  /** the sliced property of the check in flight (its position in the spec's `sliced`), -1 for any other check */
  readonly slice: number;
  /** the position on the size ramp of the other checks */
  readonly pos: number;
}

/** Which property check `index` runs: a hash of (seed, index), so it does not depend on jobs. */
export function propertyFor(props: readonly AnyProperty[], seed: number, index: number): AnyProperty {
  return props[(checkSeed(seed ^ 0x2545f491, index) >>> 0) % props.length]!;
}

/**
 * Decision: checks of the seed corpus (gen/seeded.ts) take every SEED_EVERY-th check index from
 * SEEDS_FROM on, where the size ramp ends (fuzz/size.ts: the first checks draw small cases, which
 * find the shallow faults fastest): 32, 40, 48, …, the seeds as written first, then mutations.
 * They are checks of their own, between the random ones: random check r is exactly the check r of
 * a campaign without seeds (its property, its case), made a little later, so that what the random
 * checks find they find all the same.
 */
export const SEEDS_FROM = RAMP_STEP * SIZE_LEVELS;
export const SEED_EVERY = 8;

/** What check `index` runs: its property, where its case comes from, and the index its case is drawn for. */
export interface PlannedCheck extends CaseSource {
  readonly prop: AnyProperty;
  /** the index whose seed draws the case (checkSeed) and whose size a `--runs` campaign gives it: random check r's is r */
  readonly at: number;
}

/**
 * The check at a global index. With a seed corpus and properties that take seeds, each
 * SEED_EVERY-th index from SEEDS_FROM on is a seed check: each seed as written once for each such
 * property, on the exact windows in turn, then mutations of the seeds for properties picked by a
 * hash. Every other index is random check r (r counts the indices that are not seed checks), of
 * the property propertyFor picks for r. It depends on the campaign's seed, properties and corpus
 * only, so it is the same for any --jobs and --shard.
 */
export function checkAt(props: readonly AnyProperty[], seed: number, index: number, env: FuzzEnv): PlannedCheck {
  const takers = env.seeds === undefined ? [] : props.filter((p) => p.seeded);
  if (takers.length === 0 || index < SEEDS_FROM) return { prop: propertyFor(props, seed, index), at: index };
  const d = index - SEEDS_FROM;
  if (d % SEED_EVERY !== 0) {
    const r = index - Math.floor(d / SEED_EVERY) - 1;
    return { prop: propertyFor(props, seed, r), at: r };
  }
  const n = d / SEED_EVERY;
  if (n < env.seeds!().length * takers.length) {
    const i = Math.floor(n / takers.length);
    const prop = takers[n % takers.length]!;
    return { prop, at: index, seeded: true, example: prop.seeded!.exact(env, i, (i + (n % takers.length)) % 2) };
  }
  return { prop: takers[(checkSeed(seed ^ 0x5eed5eed, index) >>> 0) % takers.length]!, at: index, seeded: true };
}

export const PROGRESS_MS = 200;

export async function runSlice(spec: SliceSpec, env: FuzzEnv, props: readonly AnyProperty[], hooks: SliceHooks): Promise<void> {
  let delta = emptyStats();
  let checks = 0;
  let lastYield = Date.now();
  const clock: EngineClock = { ms: 0, ...(hooks.onEngine ? { inside: hooks.onEngine } : {}) };
  const envAt = sizedEnvs(timedEngine(env, clock));
  // A --runs campaign ramps by check index (the same for a seed whatever the jobs); a --time one
  // adapts to the engine under test (size.ts).
  let pos = spec.startPos ?? 0;
  const slices = spec.runs === undefined ? (spec.sliced ?? []).map((n) => timeSliceNamed(n)!) : [];
  const due = sliceClock(slices, Date.now());
  let sliceK = spec.startSliceK ?? 0;
  const flush = () => {
    hooks.onProgress(delta, checks);
    delta = emptyStats();
    checks = 0;
  };
  /** Runs one check: its size level, and whether the engine under test was slow in it. */
  const one = async (prop: AnyProperty, index: number, level: number, at: Resume, known?: CheckResult, source?: CaseSource, drawnAt = index): Promise<number> => {
    const e = envAt(level);
    hooks.onStart?.(index, level, at);
    const onEval = () => hooks.onStart?.(index, level, at);
    const seed = checkSeed(spec.seed, drawnAt);
    const shrink = { ...shrinkBudgetOf(prop), ...(spec.end !== undefined ? { until: spec.end } : {}) };
    clock.ms = 0;
    const found = prop.checkAsync ? await runCheckAsync(prop, e, index, seed, delta, shrink, onEval, known, source) : runCheck(prop, e, index, seed, delta, shrink, onEval, source);
    hooks.onStart?.(-1, level);
    checks++;
    if (found) hooks.onFound(found);
    // Each finished check is reported at once: a worker replaced after a hang or an exhausted heap
    // must not take checks it had finished with it (counts would then depend on replacements).
    flush();
    if (Date.now() - lastYield >= PROGRESS_MS) {
      lastYield = Date.now();
      // Let messages (stop requests, SIGINT, progress printing) through between checks.
      await new Promise((r) => setImmediate(r));
    }
    return clock.ms;
  };
  for (let k = spec.startK; ; ) {
    if (spec.deadline !== undefined && Date.now() >= spec.deadline) break;
    if (hooks.shouldStop()) break;
    const j = due.due(Date.now());
    if (j !== undefined) {
      // Sliced checks, on their own sequence of indices and their own capped size ramp; a property
      // that checks batches runs `batch` of them on one compile, each still a check of its own.
      const s = slices[j]!;
      const t0 = Date.now();
      const ks = Array.from({ length: s.property.checkBatchAsync ? s.batch : 1 }, (_, m) => sliceK + m);
      const indexOf = (m: number) => SLICED_FROM + globalIndex(spec.shard, spec.jobs, spec.job, m);
      const levelOf = (m: number) => Math.min(s.maxLevel, levelAt(m));
      const resume = (m: number): Resume => ({ k, sliceK: m + 1, slice: j, pos });
      let known: (CheckResult | undefined)[] = [];
      if (ks.length > 1) {
        // A hang while the batch compiles is charged to its first check, as when it runs alone.
        hooks.onStart?.(indexOf(sliceK), levelOf(sliceK), resume(sliceK));
        known = await batchResults(s.property, ks.map((m) => envAt(levelOf(m))), ks.map((m) => checkSeed(spec.seed, indexOf(m))));
      }
      for (const [n, m] of ks.entries()) await one(s.property, indexOf(m), levelOf(m), resume(m), known[n]);
      sliceK += ks.length;
      const ms = Date.now() - t0;
      due.spend(j, ms);
      bump(delta.constructs, `${SLICE_MS}${s.property.name}`, ms);
      continue;
    }
    const index = globalIndex(spec.shard, spec.jobs, spec.job, k);
    if (spec.runs !== undefined && index >= spec.runs) break;
    const { prop, at: drawnAt, ...source } = checkAt(props, spec.seed, index, env);
    const level = spec.runs !== undefined ? levelAt(drawnAt) : levelAt(pos);
    const engineMs = await one(prop, index, level, { k: k + 1, sliceK, slice: -1, pos }, undefined, source, drawnAt);
    // A seed check's size is the app's, not the ramp's: it neither advances the ramp nor, when the
    // engine is slow on a whole app, sends the random checks after it back to smaller cases.
    if (!source.seeded) pos = engineMs > SLOW_ENGINE_MS ? posOf(level - 1) : pos + 1;
    k++;
  }
  // the last sliced check's time
  flush();
}
