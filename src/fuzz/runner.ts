// The campaign runner: spreads check indices over worker threads (or runs them in-process),
// watches each check against the per-check time budget, de-duplicates failures, writes each one
// as a reproducer and keeps the totals that the progress line and the JSON summary report.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ENGINE_CULPRIT, type Found, generated } from './check.js';
import { posOf, sizedEnvs } from './size.js';
import { type EnvConfig } from './env.js';
import { makeEnv } from './make-env.js';
import { selectProperties } from './properties/index.js';
import { type Reproducer, finishesWithin, reproducerOf, writeReproducer } from './reproducer.js';
import { type Shard, checkSeed, ownedCount } from './seed.js';
import { type SliceSpec, checkAt, runSlice } from './slice.js';
import { type Stats, belowCompletionFloor, emptyStats, generatedSummary, mergeStats, nonVacuous, propertyCounts, talliesOf } from './stats.js';
import { HALIDE_VERDICTS } from '../halide/run.js';
import { heapLimitMb, pluginTimeLimitMs } from '../node/plugin-limits.js';
import { type CaseSize, type ShrinkSummary, shrinkReserveMs, shrinkSummary, sizeOf } from './shrink-summary.js';
import { shrinkStuck } from './shrink-stuck.js';
import { SLICE_BUDGET_MS, SLICE_MS, type SliceReport, TIME_SLICES, availableSlices, timeSliceNamed } from './time-slice.js';



/** How a check that ended its worker is reported. */
interface StuckCheck {
  readonly verdict: 'timeout' | 'out-of-memory';
  readonly expected: string;
  readonly actual: string;
}

export interface CampaignOptions {
  readonly properties: readonly string[];
  readonly seed: number;
  readonly runs?: number;
  readonly timeMs?: number;
  readonly jobs: number;
  readonly shard: Shard;
  readonly config: EnvConfig;
  /** directory for reproducers and summary.json */
  readonly out: string;
  /** per-check wall-clock budget; a check over it is a `timeout` failure (worker threads only) */
  readonly budgetMs: number;
  /** force in-process execution (tests running TypeScript sources) */
  readonly inProcess?: boolean;
  /** give the time-sliced properties (time-slice.ts) their share of a timed campaign: the default campaign */
  readonly timeSlices?: boolean;
  /**
   * ends the campaign at the first failure it accepts (time-to-detection measurements); the
   * answer may come later, e.g. after compiling the case again without a planted fault
   */
  readonly stopWhen?: (f: Found) => boolean | Promise<boolean>;
}

/** A failure of the summary, with the size of its shrunk case and whether the clock ended its shrink. */
export interface FailureEntry extends CaseSize {
  readonly property: string;
  readonly verdict: string;
  readonly key: string;
  readonly check: number;
  readonly culprit?: string;
  readonly reproducer: string;
  /** seconds from the campaign's start to the first failing evaluation of the check */
  readonly detected_s: number;
  /** … and to its reproducer, shrunk and written */
  readonly reported_s: number;
}

export interface Snapshot {
  readonly checks: number;
  readonly failures: number;
  readonly elapsedMs: number;
  readonly remainingMs?: number;
  readonly remainingChecks?: number;
}

export interface CampaignResult {
  readonly seed: number;
  readonly runs: number;
  readonly elapsed_s: number;
  readonly checks_per_s: number;
  readonly failures: FailureEntry[];
  readonly directives: Record<string, number>;
  readonly properties: Stats['properties'];
  readonly constructs: Record<string, number>;
  /** shapes of the generated scheduling cases (stats.ts, GeneratedCounts; the mean, not the total) */
  readonly generated: Record<string, number>;
  /** per property, how the checks ended (stats.ts, VERDICT_KEYS) */
  readonly verdicts: Stats['verdicts'];
  /** checks that compared at least one value, or could fail, per second */
  readonly non_vacuous_checks_per_s: number;
  /** most confluence checks ended in a failed assertion: the campaign fails (stats.ts, belowCompletionFloor) */
  readonly below_completion_floor: boolean;
  /** the share of --time kept for shrinking, and the median size of the reproducers written */
  readonly shrinking: ShrinkSummary;
  /** the time-sliced properties of a timed default campaign: each one's share and seconds, or why it was skipped */
  readonly time_slices?: Record<string, SliceReport>;
  /** the verdicts of the halide property, when it ran (spec/halide.md, [HALIDE-VERDICT]) */
  readonly halide?: Record<string, number>;
  /** the checks whose case came from the seed corpus, as written (`exact`) and mutated, by verdict (absent when none did) */
  readonly seeds?: Stats['seeds'];
  readonly jobs: number;
  readonly shard: string;
  readonly engine: string;
  readonly interrupted: boolean;
  /** checks still running when the campaign ended, abandoned without a verdict (absent when none) */
  readonly unfinished?: number;
}

export interface CampaignControl {
  /** ends the campaign early (Ctrl-C); the result is still produced */
  stop(): void;
  readonly done: Promise<CampaignResult>;
}

/** A compiled worker entry next to this module (the campaign's, or a stuck check's tries), when running from dist/. */
function workerEntry(name = 'worker.js'): string | undefined {
  if (!import.meta.url.endsWith('.js')) return undefined;
  const p = fileURLToPath(new URL(`./${name}`, import.meta.url));
  return existsSync(p) ? p : undefined;
}

/** How long a check may go on after the campaign's end before it is abandoned (a normal check ends well within it). */
const END_GRACE_MS = 1000;

export function startCampaign(o: CampaignOptions, onTick: (s: Snapshot) => void = () => {}): CampaignControl {
  const heapMb = heapLimitMb(process.env);
  pluginTimeLimitMs(process.env); // read again in the workers; a bad value is refused before any starts
  const props = selectProperties(o.properties);
  // Which slices this machine runs is asked once, here: each worker is told their names.
  const slices = o.timeSlices && o.timeMs !== undefined ? availableSlices() : undefined;
  const t0 = Date.now();
  const end = o.timeMs !== undefined ? t0 + o.timeMs : undefined;
  // The last share of a --time campaign is kept for shrinking: no check starts in it.
  const reserveMs = o.timeMs !== undefined ? shrinkReserveMs(o.timeMs) : 0;
  const deadline = end !== undefined ? end - reserveMs : undefined;
  const stats = emptyStats();
  let checks = 0;
  let unfinished = 0;
  let stopped = false;
  const failures = new Map<string, { entry: FailureEntry; repro: Reproducer }>();
  let stopHook = () => {};

  const record = (f: Found) => {
    const stop = o.stopWhen?.(f);
    if (stop === true) stopHook();
    else if (stop instanceof Promise) void stop.then((yes) => yes && stopHook());
    const old = failures.get(f.key);
    // Keep the lowest check index per key, so a --runs campaign reports the same reproducer
    // whatever the number of jobs.
    if (old && old.entry.check <= f.index) return;
    const repro = reproducerOf(f, o.seed, o.config);
    const path = writeReproducer(o.out, repro);
    const now = Date.now();
    const detected_s = old ? old.entry.detected_s : round(((f.failedAt ?? now) - t0) / 1000);
    const reported_s = old ? old.entry.reported_s : round((now - t0) / 1000);
    failures.set(f.key, {
      entry: { property: f.property, verdict: f.failure.verdict, key: f.key, check: f.index, ...(f.culprit !== undefined ? { culprit: f.culprit } : {}), reproducer: path, detected_s, reported_s, ...sizeOf(f) },
      repro,
    });
  };
  const snapshot = (): Snapshot => {
    const elapsedMs = Date.now() - t0;
    return {
      checks,
      failures: failures.size,
      elapsedMs,
      ...(end !== undefined ? { remainingMs: Math.max(0, end - Date.now()) } : {}),
      ...(o.runs !== undefined ? { remainingChecks: Math.max(0, ownedTotal(o) - checks) } : {}),
    };
  };
  const tick = setInterval(() => onTick(snapshot()), 250);

  const run = async (): Promise<void> => {
    const env = await makeEnv(o.config);
    const entry = o.inProcess ? undefined : workerEntry();
    const base = { seed: o.seed, shard: o.shard, jobs: o.jobs, ...(o.runs !== undefined ? { runs: o.runs } : {}), ...(deadline !== undefined ? { deadline, end } : {}), ...(slices ? { sliced: slices.names } : {}) };
    const progress = (d: Stats, n: number) => {
      mergeStats(stats, d);
      checks += n;
    };
    if (!entry) {
      // In-process: the jobs run one after another on this thread (same indices, same results).
      stopHook = () => {
        stopped = true;
      };
      for (let job = 0; job < o.jobs && !stopped; job++) {
        await runSlice({ ...base, job, startK: 0 }, env, props, { shouldStop: () => stopped, onFound: record, onProgress: progress });
      }
      return;
    }
    const live = new Set<Worker>();
    let stoppedAt = Infinity;
    const endedAt = () => Math.min(stoppedAt, deadline ?? Infinity);
    stopHook = () => {
      stopped = true;
      stoppedAt = Math.min(stoppedAt, Date.now());
      for (const w of live) w.postMessage({ type: 'stop' });
    };
    const spawn = (job: number, startK: number, startPos = 0, startSliceK = 0): Promise<void> =>
      new Promise((resolveJob) => {
        // [check index or -1, its start, its size level, whether the engine under test is running,
        //  then where to go on after it (slice.ts, Resume): next position, next sliced position, its slice, ramp position]
        const watch = new Float64Array(new SharedArrayBuffer(64));
        watch[0] = -1;
        watch[6] = -1;
        const spec: SliceSpec = { ...base, job, startK, startPos, startSliceK };
        // A heap limit per worker: a plug-in or engine that allocates without bound ends its own
        // worker (an out-of-memory verdict for the check it was running), not the campaign.
        const w = new Worker(entry, { workerData: { spec, config: o.config, properties: props.map((p) => p.name), watch }, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
        live.add(w);
        let finished = false;
        const finish = () => {
          if (finished) return;
          finished = true;
          clearInterval(dog);
          live.delete(w);
          resolveJob();
        };
        /** The check at `index` ended its worker: it is recorded, and a new worker goes on after it. */
        const replace = (index: number, end: StuckCheck) => {
          finished = true;
          clearInterval(dog);
          live.delete(w);
          void w.terminate();
          checks++;
          const level = watch[2]!;
          const slice = watch[6]!;
          recordStuck(index, level, end, watch[3] === 1, slice >= 0 ? slices!.names[slice] : undefined);
          // The replacement goes on a size level lower (size.ts): the case was too big for the time
          // budget. (A sliced check has a ramp of its own: the others' size stays.)
          if (stopped) resolveJob();
          else void spawn(job, watch[4]!, slice >= 0 ? watch[7]! : posOf(level - 1), watch[5]!).then(resolveJob);
        };
        const dog = setInterval(() => {
          const index = watch[0]!;
          if (index >= 0 && !finished && Date.now() > endedAt() + END_GRACE_MS) {
            // The campaign is over (its time is up, or Ctrl-C) but this check still runs: it is
            // abandoned, uncounted, rather than awaited until its budget, so that the campaign
            // ends on time even when a plug-in hangs.
            finished = true;
            unfinished++;
            clearInterval(dog);
            live.delete(w);
            void w.terminate().then(() => resolveJob());
            return;
          }
          if (index < 0 || Date.now() - watch[1]! <= (watch[6]! >= 0 ? Math.max(o.budgetMs, SLICE_BUDGET_MS) : o.budgetMs) || finished) return;
          // A hang: the check's thread cannot be interrupted from inside, so the worker is
          // replaced; the case's blueprint is regenerated here from its seed for the reproducer.
          replace(index, { verdict: 'timeout', expected: finishesWithin(o.budgetMs), actual: 'still running at the budget; the worker was stopped' });
        }, 100);
        w.on('message', (m: WorkerMessage) => {
          if (m.type === 'progress') progress(m.stats, m.checks);
          else if (m.type === 'found') record(m.found);
          else if (m.type === 'done') finish();
        });
        w.on('error', (e) => {
          const index = watch[0]!;
          if ((e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' && index >= 0 && !finished) {
            return replace(index, { verdict: 'out-of-memory', expected: `the check stays within the worker's ${heapMb} MB heap`, actual: 'the worker ran out of memory and was replaced' });
          }
          record(internalFailure(job, e));
          finish();
        });
        w.on('exit', finish);
      });
    const envAt = sizedEnvs(env);
    const shrinking: Promise<void>[] = [];
    const stuckKeys = new Set<string>();
    const tryEntry = workerEntry('try-worker.js');
    const recordStuck = (index: number, level: number, how: StuckCheck, inEngine: boolean, sliced: string | undefined) => {
      const { prop, at, ...source } = sliced !== undefined ? { prop: timeSliceNamed(sliced)!.property, at: index } : checkAt(props, o.seed, index, env);
      const seed = checkSeed(o.seed, at);
      const counts = propertyCounts(stats, prop.name);
      counts.checks++;
      counts.failures++;
      // Hangs and exhausted heaps are de-duplicated per property, like other failures of one cause:
      // one hanging plug-in or engine would otherwise write a reproducer per check. A hang inside a
      // plug-in engine is the engine's, whatever property was checking it.
      const culprit = inEngine && how.verdict === 'timeout' ? `${ENGINE_CULPRIT}${env.engine.name}` : undefined;
      const key = culprit !== undefined ? `timeout/${culprit}` : `${prop.name}/${how.verdict}`;
      // The first check of a key is shrunk (each try in a worker of its own); later ones add nothing.
      if (stuckKeys.has(key)) return;
      stuckKeys.add(key);
      // Only the blueprint is drawn here, at the size the check ran at: making it concrete would
      // run plug-in code (a directive's generate and apply) on the main thread, where a plug-in that
      // hangs would hang the campaign.
      const blueprint = (g: unknown): string => JSON.stringify(g, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
      // The watchdog's verdict is the detection; shrinking the stuck case comes after it.
      const failedAt = Date.now();
      const found = (text: Found['text'], shrinks: number, shrinkTimedOut: boolean): Found => ({
        property: prop.name, index, checkSeed: seed, key, ...(culprit !== undefined ? { culprit } : {}), text, shrinks, failedAt, ...(shrinkTimedOut ? { shrinkTimedOut } : {}), failure: { status: 'fail', ...how },
      });
      const extra = { size_level: String(level), note: `the case ended its worker (${how.verdict}); it was shrunk with each try in a worker of its own (re-running it may end its worker again)` };
      let original: string;
      try {
        original = blueprint(generated(prop, envAt(level), seed, source));
      } catch {
        record(found({ extra: { note: 'the case could not be regenerated' } }, 0, false));
        return;
      }
      if (tryEntry === undefined) {
        record(found({ extra: { blueprint: original, ...extra } }, 0, false));
        return;
      }
      shrinking.push(shrinkStuck({
        prop, env: envAt(level), config: o.config, level, seed, source, verdict: how.verdict, entry: tryEntry, budgetMs: sliced !== undefined ? Math.max(o.budgetMs, SLICE_BUDGET_MS) : o.budgetMs, heapMb, ...(end !== undefined ? { until: end } : {}),
      }).then(
        (r) => record(found(r.text ? { ...r.text, extra: { ...r.text.extra, ...extra } } : { extra: { blueprint: original, ...extra } }, r.shrinks, r.timedOut)),
        () => record(found({ extra: { blueprint: original, ...extra } }, 0, false)),
      ));
    };
    await Promise.all(Array.from({ length: o.jobs }, (_, j) => spawn(j, 0)));
    await Promise.all(shrinking);
  };

  const done = run().then(() => {
    clearInterval(tick);
    onTick(snapshot());
    const elapsed = (Date.now() - t0) / 1000;
    const list = [...failures.values()].map((f) => f.entry).sort((a, b) => a.check - b.check);
    return {
      seed: o.seed,
      runs: checks,
      elapsed_s: round(elapsed),
      checks_per_s: round(checks / Math.max(elapsed, 1e-3)),
      non_vacuous_checks_per_s: round(nonVacuous(stats.verdicts) / Math.max(elapsed, 1e-3)),
      failures: list,
      directives: stats.directives,
      properties: stats.properties,
      constructs: stats.constructs,
      generated: generatedSummary(stats.generated),
      verdicts: stats.verdicts,
      below_completion_floor: belowCompletionFloor(stats.verdicts),
      shrinking: shrinkSummary(list, reserveMs),
      ...(slices ? { time_slices: sliceReports(slices, stats.constructs) } : {}),
      ...(stats.properties.halide ? { halide: talliesOf(stats.constructs, 'halide', HALIDE_VERDICTS) } : {}),
      ...(Object.keys(stats.seeds).length > 0 ? { seeds: stats.seeds } : {}),
      jobs: o.jobs,
      shard: `${o.shard.index}/${o.shard.count}`,
      engine: o.config.engine,
      interrupted: stopped,
      ...(unfinished > 0 ? { unfinished } : {}),
    };
  }, (e: unknown) => {
    clearInterval(tick);
    throw e;
  });
  return { stop: () => stopHook(), done };
}

const round = (x: number) => Math.round(x * 100) / 100;

function sliceReports(slices: ReturnType<typeof availableSlices>, constructs: Readonly<Record<string, number>>): Record<string, SliceReport> {
  const out: Record<string, SliceReport> = {};
  for (const s of TIME_SLICES) {
    const name = s.property.name;
    const skipped = slices.skipped[name];
    out[name] = skipped !== undefined ? { skipped } : { share: s.share, seconds: round((constructs[`${SLICE_MS}${name}`] ?? 0) / 1000) };
  }
  return out;
}

function ownedTotal(o: CampaignOptions): number {
  let n = 0;
  for (let j = 0; j < o.jobs; j++) n += ownedCount(o.shard, o.jobs, j, o.runs!);
  return n;
}

function internalFailure(job: number, e: Error): Found {
  return {
    property: 'runner', index: -1 - job, checkSeed: 0, key: `runner/worker-error/${e.message}`, text: {}, shrinks: 0,
    failure: { status: 'fail', verdict: 'internal-error', expected: 'the worker runs to the end', actual: e.stack ?? e.message },
  };
}

export type WorkerMessage =
  | { readonly type: 'progress'; readonly stats: Stats; readonly checks: number }
  | { readonly type: 'found'; readonly found: Found }
  | { readonly type: 'done' };
