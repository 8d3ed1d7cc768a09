// The check loop one worker (or the main thread, when jobs run in-process) executes over its share
// of the campaign's check indices. Shared by worker.ts and the in-process runner so both behave
// identically.
import { type Found, runCheck, runCheckAsync, shrinkBudgetOf } from './check.js';
import type { FuzzEnv } from './env.js';
import type { AnyProperty } from './property.js';
import { type Shard, checkSeed, globalIndex } from './seed.js';
import { type Stats, emptyStats } from './stats.js';
import { type EngineClock, SLOW_ENGINE_MS, levelAt, posOf, sizedEnvs, timedEngine } from './size.js';

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
}

export interface SliceHooks {
  shouldStop(): boolean;
  onFound(f: Found): void;
  /** stats gathered since the last call, and how many checks they cover */
  onProgress(delta: Stats, checks: number): void;
  /** an evaluation of check `index` at size `level` starts (-1: idle); for the per-check time budget */
  onStart?(index: number, level: number): void;
  /** the engine under test starts or stops running (a hang inside it is the engine's) */
  onEngine?(running: boolean): void;
}

/** Which property check `index` runs: a hash of (seed, index), so it does not depend on jobs. */
export function propertyFor(props: readonly AnyProperty[], seed: number, index: number): AnyProperty {
  return props[(checkSeed(seed ^ 0x2545f491, index) >>> 0) % props.length]!;
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
  const flush = () => {
    hooks.onProgress(delta, checks);
    delta = emptyStats();
    checks = 0;
  };
  for (let k = spec.startK; ; k++) {
    const index = globalIndex(spec.shard, spec.jobs, spec.job, k);
    if (spec.runs !== undefined && index >= spec.runs) break;
    if (spec.deadline !== undefined && Date.now() >= spec.deadline) break;
    if (hooks.shouldStop()) break;
    const prop = propertyFor(props, spec.seed, index);
    const level = spec.runs !== undefined ? levelAt(index) : levelAt(pos);
    const at = envAt(level);
    hooks.onStart?.(index, level);
    const onEval = () => hooks.onStart?.(index, level);
    const seed = checkSeed(spec.seed, index);
    const shrink = { ...shrinkBudgetOf(prop), ...(spec.end !== undefined ? { until: spec.end } : {}) };
    clock.ms = 0;
    const found = prop.checkAsync ? await runCheckAsync(prop, at, index, seed, delta, shrink, onEval) : runCheck(prop, at, index, seed, delta, shrink, onEval);
    pos = clock.ms > SLOW_ENGINE_MS ? posOf(level - 1) : pos + 1;
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
  }
}
