// Option values of the fuzzing commands: durations (`60s`, `2m`), shards (`i/N`), job counts.
import { availableParallelism } from 'node:os';
import { UserError } from '../diag.js';
import type { Shard } from './seed.js';

const CLI = { file: '<command line>', line: 1, col: 1 };

/** `500ms`, `60s`, `2m`, `1h`, or a plain number of seconds. */
export function parseDuration(flag: string, text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) throw new UserError(`invalid ${flag} '${text}': expected a duration such as 60s, 2m or 500ms`, CLI);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  const ms = Math.round(Number(m[1]) * unit);
  if (ms <= 0) throw new UserError(`invalid ${flag} '${text}': must be positive`, CLI);
  return ms;
}

export function parseCount(flag: string, text: string, min = 1): number {
  if (!/^\s*\d+\s*$/.test(text)) throw new UserError(`invalid ${flag} '${text}': expected a whole number`, CLI);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) throw new UserError(`invalid ${flag} '${text}': must be at least ${min}`, CLI);
  return n;
}

/** A 32-bit seed; any integer is accepted and folded into 32 bits. */
export function parseSeed(text: string): number {
  if (!/^\s*-?\d+\s*$/.test(text)) throw new UserError(`invalid --seed '${text}': expected an integer`, CLI);
  return Number(BigInt.asIntN(32, BigInt(text.trim())));
}

/** `--shard i/N` with 0 ≤ i < N. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m || Number(m[2]) < 1 || Number(m[1]) >= Number(m[2])) {
    throw new UserError(`invalid --shard '${text}': expected i/N with 0 <= i < N, e.g. 0/4`, CLI, 'shards are numbered from 0');
  }
  return { index: Number(m[1]), count: Number(m[2]) };
}

export const defaultJobs = (): number => Math.max(1, availableParallelism());

/** A seed for campaigns that were given none; it is printed, so the campaign can be repeated. */
export const freshSeed = (): number => Number(BigInt.asIntN(32, BigInt(Date.now())));
