// What a campaign reports about shrinking: the share of `--time` it keeps for shrinks, and how
// small the reproducers came out (median funcs and directives), so that a budget that cuts
// shrinks short shows in the summary rather than only in the size of the files.
import type { Found } from './check.js';

/**
 * Decision: a tenth of a `--time` campaign, at most 30 s, is kept for shrinking: no check starts in
 * it, and no shrink goes past the end, so a campaign ends within its time up to one evaluation.
 */
export const SHRINK_SHARE = 0.1;
export const MAX_SHRINK_RESERVE_MS = 30_000;

export const shrinkReserveMs = (timeMs: number): number => Math.min(MAX_SHRINK_RESERVE_MS, Math.round(timeMs * SHRINK_SHARE));

export interface ShrinkSummary {
  readonly reserve_s: number;
  /** reproducers written (one per de-duplication key) */
  readonly reproducers: number;
  /** median funcs and directives of their cases (cases without a program count zero) */
  readonly median_funcs: number;
  readonly median_directives: number;
  /** shrinks the clock ended, whose case is larger than the evaluation budget would have left it */
  readonly stopped_by_time: number;
}

/** The size of a found case: funcs of its program, calls of its schedule. */
export function sizeOf(f: Found): { funcs: number; directives: number; shrink_stopped_by_time?: true } {
  const funcs = (f.text.program?.match(/^\s*func\s/gm) ?? []).length;
  const directives = (f.text.schedule ?? '').split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('//')).length;
  return { funcs, directives, ...(f.shrinkTimedOut ? { shrink_stopped_by_time: true as const } : {}) };
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The size fields of a campaign's failure entry (see FailureEntry in runner.ts). */
export interface CaseSize {
  readonly funcs?: number;
  readonly directives?: number;
  readonly shrink_stopped_by_time?: boolean;
}

/** The summary over a campaign's failure entries (summaries of older versions lack the sizes). */
export function shrinkSummary(entries: readonly CaseSize[], reserveMs: number): ShrinkSummary {
  const sized = entries.filter((e) => e.funcs !== undefined);
  return {
    reserve_s: reserveMs / 1000,
    reproducers: sized.length,
    median_funcs: median(sized.map((e) => e.funcs!)),
    median_directives: median(sized.map((e) => e.directives ?? 0)),
    stopped_by_time: sized.filter((e) => e.shrink_stopped_by_time).length,
  };
}
