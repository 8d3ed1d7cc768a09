// Option values of the fuzzing commands: durations (`60s`, `2m`), shards (`i/N`), job counts.
// Every bad value is reported at the command line with the values the option accepts.
import { availableParallelism } from 'node:os';
import { UserError, argLoc } from '../diag.js';
import type { Shard } from './seed.js';

/** Each job is a worker thread of its own: more than this would exhaust memory, not speed up. */
export const MAX_JOBS = 256;

const invalid = (flag: string, text: string, why: string, accepted: string): UserError =>
  new UserError(`invalid ${flag} '${text}': ${why}`, argLoc(flag, text), accepted);

/** `500ms`, `60s`, `2m`, `1h`, or a plain number of seconds. */
export function parseDuration(flag: string, text: string): number {
  const accepted = `give a positive duration: a number with an optional unit ms, s (the default), m or h, e.g. ${flag} 60s or ${flag} 2m`;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) throw invalid(flag, text, 'expected a duration such as 60s, 2m or 500ms', accepted);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  const ms = Math.round(Number(m[1]) * unit);
  if (ms <= 0) throw invalid(flag, text, 'must be positive', accepted);
  if (!Number.isSafeInteger(ms)) throw invalid(flag, text, 'is too long', accepted);
  return ms;
}

/** A whole number in [min, max] (`--runs`, `--jobs`). */
export function parseCount(flag: string, text: string, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const accepted = `give a whole number ${max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`}, e.g. ${flag} ${Math.max(min, 1)}`;
  if (!/^\s*\d+\s*$/.test(text)) throw invalid(flag, text, 'expected a whole number', accepted);
  const n = Number(text);
  if (n < min) throw invalid(flag, text, `must be at least ${min}`, accepted);
  if (!Number.isSafeInteger(n) || n > max) throw invalid(flag, text, `must be at most ${max}`, accepted);
  return n;
}

/** `--jobs N`: worker threads, 1 to MAX_JOBS. */
export const parseJobs = (text: string): number => parseCount('--jobs', text, 1, MAX_JOBS);

/** A 32-bit seed; any integer is accepted and folded into 32 bits. */
export function parseSeed(text: string): number {
  if (!/^\s*-?\d+\s*$/.test(text)) {
    throw invalid('--seed', text, 'expected an integer', 'give any integer, e.g. --seed 42 (it is folded into 32 bits); the summary prints the seed of every campaign');
  }
  return Number(BigInt.asIntN(32, BigInt(text.trim())));
}

/** `--shard i/N` with 0 ≤ i < N. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m || Number(m[2]) < 1 || Number(m[1]) >= Number(m[2]) || !Number.isSafeInteger(Number(m[2]))) {
    throw invalid('--shard', text, 'expected i/N with 0 <= i < N', 'shards are numbered from 0: give i/N with 0 <= i < N, e.g. --shard 0/4 … --shard 3/4');
  }
  return { index: Number(m[1]), count: Number(m[2]) };
}

export const defaultJobs = (): number => Math.min(MAX_JOBS, Math.max(1, availableParallelism()));

/** A seed for campaigns that were given none; it is printed, so the campaign can be repeated. */
export const freshSeed = (): number => Number(BigInt.asIntN(32, BigInt(Date.now())));
