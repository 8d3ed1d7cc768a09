// Shrinking a check that ended its worker (a timeout, an exhausted heap): the main thread drives
// fast-check's shrinker over the case's blueprint, and each candidate is tried in a worker of its
// own (try-worker.ts) under a per-try limit — the campaign's per-check budget — and the worker's
// heap limit. A try past its limit or out of memory ends its worker, which is replaced for the next
// try: a hung or exploding candidate is a verdict (`timeout`, `out-of-memory`), never a hang of the
// campaign. A candidate "still fails" when it ends the same way as the original check. The
// reproducer then stores the smallest such case as text (its program and schedule), made concrete
// by the try that hung, so that `refsem replay` and users see the case, not only its blueprint.
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import type { EnvConfig, FuzzEnv } from './env.js';
import type { AnyProperty, CaseText } from './property.js';
import type { TryMessage, TryRequest } from './try-worker.js';
import { type CaseSource, arbitraryOf, oneRun } from './check.js';

export interface StuckCase {
  readonly prop: AnyProperty;
  /** the environment at the size level the check ran at (to draw the same blueprint) */
  readonly env: FuzzEnv;
  readonly config: EnvConfig;
  readonly level: number;
  readonly seed: number;
  /** where the check's case came from (slice.ts, checkAt): a seed's mutation or the seed as written */
  readonly source?: CaseSource;
  /** how the check ended its worker */
  readonly verdict: 'timeout' | 'out-of-memory';
  /** the compiled try-worker.js */
  readonly entry: string;
  readonly budgetMs: number;
  readonly heapMb: number;
  /** a wall-clock end no try runs past: the end of a `--time` campaign */
  readonly until?: number;
}

export interface StuckShrink {
  /** the smallest case that still ends its worker the same way, as text; undefined when no try made one concrete */
  readonly text?: CaseText;
  readonly shrinks: number;
  /** the clock, not the count of tries, ended the shrink */
  readonly timedOut: boolean;
}

/**
 * Decision: at most 60 tries, and at most six per-check budgets of time (a minute at the default
 * 10 s budget): each try that still hangs costs a whole budget, so a count alone would let the
 * shrink of one hang take longer than most campaigns.
 */
export const STUCK_TRIES = 60;
export const STUCK_BUDGETS = 6;

/**
 * How long a fresh worker may take to load refsem and the campaign's plug-ins before its first try;
 * not counted in the try's limit (a loaded machine takes seconds), and each plug-in load has a
 * limit of its own.
 */
const STARTUP_MS = 60_000;

/**
 * Decision: the original case is made concrete (for its program) even when the campaign's end has
 * come, within this grace past it: the program is what the reproducer is for, and making a case
 * concrete takes milliseconds once the worker is up.
 */
export const ORIGINAL_GRACE_MS = 2000;

const sleep = (ms: number) => new Promise<false>((r) => setTimeout(() => r(false), Math.max(0, ms)));

/** A worker that runs tries one at a time, replaced after a try that had to be ended. */
function tryRunner(s: StuckCase) {
  let w: { worker: Worker; ready: Promise<boolean> } | undefined;
  const start = () => {
    const worker = new Worker(s.entry, { workerData: { config: s.config, property: s.prop.name, level: s.level }, resourceLimits: { maxOldGenerationSizeMb: s.heapMb } });
    const ready = new Promise<boolean>((resolve) => {
      worker.once('message', () => resolve(true));
      worker.once('error', () => resolve(false));
    });
    return { worker, ready };
  };
  const stop = () => {
    void w?.worker.terminate();
    w = undefined;
  };
  return {
    /**
     * How the try ended (a verdict, `pass`, `discard`, `made`; `out-of-time` when `by`, a wall-clock
     * end, came first), and the case's text when it was made concrete.
     */
    async run(req: TryRequest, by: number): Promise<{ outcome: string; text?: CaseText }> {
      w ??= start();
      if (!(await Promise.race([w.ready, sleep(Math.min(STARTUP_MS, by - Date.now()))]))) {
        stop();
        return { outcome: 'out-of-time' };
      }
      const worker = w.worker;
      return new Promise((resolve) => {
        let text: CaseText | undefined;
        const end = (outcome: string, kill: boolean) => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          if (kill) stop();
          resolve({ outcome, ...(text ? { text } : {}) });
        };
        const onMessage = (m: TryMessage) => {
          if (m.type === 'made') text = m.text;
          else if (m.type === 'result') end(m.outcome, false);
        };
        const onError = (e: Error) => end((e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out-of-memory' : 'crash', true);
        const onExit = () => end('crash', true);
        const timer = setTimeout(() => end(Date.now() >= by ? 'out-of-time' : 'timeout', true), Math.max(0, Math.min(s.budgetMs, by - Date.now())));
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        try {
          worker.postMessage(req);
        } catch {
          // a blueprint that cannot be sent to a thread: nothing to try
          end('unsendable', false);
        }
      });
    },
    close: stop,
  };
}

export async function shrinkStuck(s: StuckCase): Promise<StuckShrink> {
  const runner = tryRunner(s);
  const deadline = Math.min(Date.now() + STUCK_BUDGETS * s.budgetMs, s.until ?? Infinity);
  let text: CaseText | undefined;
  let tries = 0;
  let timedOut = false;
  let first = true;
  try {
    const out = await fc.check(fc.asyncProperty(arbitraryOf(s.prop, s.env, s.source), async (g) => {
      if (first) {
        // The original case is known to fail: it is only made concrete, for its text.
        first = false;
        text = (await runner.run({ g, check: false }, Math.max(deadline, Date.now() + ORIGINAL_GRACE_MS))).text;
        return false;
      }
      if (++tries > STUCK_TRIES) return true;
      if (Date.now() >= deadline) {
        timedOut = true;
        return true;
      }
      const r = await runner.run({ g, check: true }, deadline);
      if (r.outcome !== s.verdict) return true;
      if (r.text) text = r.text;
      return false;
    }), oneRun(s.seed, s.source));
    return { ...(text ? { text } : {}), shrinks: out.numShrinks, timedOut };
  } finally {
    runner.close();
  }
}
