// Parsing of the option values shared by several commands (--window, --param, --max-points).
import { CLI_LOC, UserError, argLoc } from '../diag.js';
import { type Int, intFromString } from '../expr/value.js';

const INT = /^-?\d+$/;


function argError(flag: string, value: string, want: string, hint?: string): UserError {
  return new UserError(`invalid ${flag} '${value}': ${want}`, argLoc(flag, value), hint);
}

/** A UserError raised without a location, e.g. for a --point or --window value: at the command line. */
export function atCommandLine(e: unknown): unknown {
  return e instanceof UserError && e.loc === undefined ? new UserError(e.message, CLI_LOC, e.hint) : e;
}

/** `MIN+LEN[,MIN+LEN…]`, e.g. `0+6`, `-3+5,0+4`. */
export function parseWindow(text: string): [Int, Int][] {
  const dims = text.split(',');
  return dims.map((d) => {
    const m = /^\s*(-?\d+)\s*\+\s*(-?\d+)\s*$/.exec(d);
    if (!m) throw argError('--window', text, 'expected MIN+LEN for each dimension', 'write e.g. --window 0+6 or --window=-3+5,0+4');
    const len = intFromString(m[2]!);
    if (len < 0) throw argError('--window', text, 'a window length may not be negative', 'MIN may be negative, LEN must be 0 or more, e.g. -3+5');
    return [intFromString(m[1]!), len];
  });
}

/** `NAME=INT`, repeatable; later settings of the same name are rejected. */
export function parseParams(items: readonly string[]): Map<string, Int> {
  const out = new Map<string, Int>();
  for (const it of items) {
    const m = /^([A-Za-z_][A-Za-z0-9_']*)=(.*)$/.exec(it);
    if (!m || !INT.test(m[2]!.trim())) throw argError('--param', it, 'expected NAME=INTEGER', 'write e.g. --param n=10');
    if (out.has(m[1]!)) throw argError('--param', it, `parameter '${m[1]}' is given twice`, 'give each parameter once');
    out.set(m[1]!, intFromString(m[2]!.trim()));
  }
  return out;
}

/** An integer option in [min, max]; `max` guards options whose value sizes a loop or an array. */
export function parseIntOption(flag: string, text: string, min = 0n, max?: bigint): Int {
  const range = `give an integer${max === undefined ? ` of at least ${min}` : ` from ${min} to ${max}`}, e.g. ${flag} ${min > 1n ? min : 1n}`;
  if (!INT.test(text.trim())) throw argError(flag, text, 'expected an integer', range);
  const v = intFromString(text.trim());
  if (BigInt(v) < min) throw argError(flag, text, `must be at least ${min}`, range);
  if (max !== undefined && BigInt(v) > max) throw argError(flag, text, `must be at most ${max}`, range);
  return v;
}

/** Collector for repeatable options in commander. */
export const collect = (v: string, acc: string[]): string[] => [...acc, v];

/** `--executor fast|machine`: which target executor runs a program. */
export function parseExecutor(text: string): 'fast' | 'machine' {
  if (text !== 'fast' && text !== 'machine') throw argError('--executor', text, 'no such executor', 'use --executor fast or --executor machine');
  return text;
}
