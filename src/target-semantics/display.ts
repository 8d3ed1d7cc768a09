// Rendering outcomes of target programs for people (the CLI) and as the JSON shape of
// docs/architecture.md ("Contracts": `{"func", "window", "values"}`, plus `"outcome"` when stuck).
import { showLoc } from '../diag.js';
import { printExpr } from '../expr/print.js';
import { type Int, type Value, showValue, valueToJson } from '../expr/value.js';
import { forEachPoint } from '../expr/window.js';
import { type Buffer, type Outcome, type Overlaps, type Stuck, bufferIndex } from './outcome.js';

const point = (func: string, p: readonly Value[]) => `${func}[${p.map(showValue).join(', ')}]`;

/** What went wrong, in one line. */
export function showStuck(s: Stuck): string {
  const at = 'site' in s ? `${s.site.loc ? ` at ${showLoc(s.site.loc)}` : ''} in \`${s.site.stmt}\`` : '';
  switch (s.kind) {
    case 'assert-failed':
      return `assertion failed: ${printExpr(s.cond, 'tgt')} is 0${at}`;
    case 'rdom-failure':
      return `rdom failure: ${s.var} ranges over (${s.min}, ${s.len}), a negative extent${at}`;
    case 'oob-read':
    case 'oob-write':
      return `out-of-bounds ${s.kind === 'oob-read' ? 'read' : 'write'} of ${point(s.func, s.point)}; ${s.func} is allocated over ${s.bounds.map(([m, l]) => `(${m}, ${l})`).join(' × ')}${at}`;
    case 'error-in-control':
      return `error value ${showValue(s.value)} used as ${s.what}${at}`;
    case 'data-race':
      return `data race on ${point(s.func, s.point)}: iterations ${s.loopVar} = ${s.iterations[0]} (${s.access[0]}) and ${s.loopVar} = ${s.iterations[1]} (${s.access[1]}) of a parallel loop${at}`;
    case 'unallocated':
      return `'${s.func}' is accessed but not allocated${at}`;
    case 'budget-exceeded':
      return `step budget of ${s.steps} exhausted`;
  }
}

/** A buffer: one line per row for two dimensions, one line otherwise. */
export function showBuffer(b: Buffer): string {
  const head = `${b.func} over ${b.dims.map((d) => `${d.dim} in (${d.min}, ${d.len})`).join(', ')}`;
  const vals = b.data.map(showValue);
  if (b.dims.length !== 2) return `${head}:\n  ${vals.join(' ')}`;
  const w = Number(b.dims[0]!.len);
  const rows: string[] = [];
  for (let i = 0; i < vals.length; i += w) rows.push('  ' + vals.slice(i, i + w).join(' '));
  return `${head}:\n${rows.join('\n')}`;
}

/** The overlapping writes of equal values a finished run made ([PAR-OVERLAP]), in one line. */
export function showOverlaps(o: Overlaps): string {
  return `${o.count} write${o.count === 1 ? '' : 's'} of a value another iteration of a parallel loop had written to the same point, checked equal ([PAR-OVERLAP]); the first: ${point(o.func, o.point)} by ${o.loopVar} = ${o.iterations[0]} and ${o.loopVar} = ${o.iterations[1]}`;
}

export function showOutcome(o: Outcome): string {
  const after = `after ${o.steps} step${o.steps === 1 ? '' : 's'}`;
  if (o.kind === 'stuck') return `stuck ${after}: ${showStuck(o.stuck)}`;
  return `done ${after}: ${showBuffer(o.output)}${o.overlaps ? `\nnote: ${showOverlaps(o.overlaps)}` : ''}`;
}

/** The JSON contract of docs/architecture.md; a stuck run has no values but its outcome. */
/**
 * the JSON shape of docs/architecture.md for a run: the output func's values on the requested window (not the
 * whole, possibly larger, allocation), so that it compares directly with `refsem run`. A stuck
 * run, or an output allocation that does not cover the window, adds "outcome" instead of values.
 */
export function outcomeJson(o: Outcome, func: string, window: readonly (readonly [Int, Int])[]): object {
  const head = { func, window: window.map((iv) => iv.map(valueToJson)) };
  if (o.kind === 'stuck') return { ...head, outcome: { kind: o.stuck.kind, message: showStuck(o.stuck), steps: o.steps } };
  const values: (number | string)[] = [];
  let missing: readonly Int[] | undefined;
  forEachPoint(window, (c) => {
    const at = missing ? undefined : bufferIndex(o.output, c as Int[]);
    if (at === undefined) missing ??= c as Int[];
    else values.push(valueToJson(o.output.data[at]!));
  });
  if (missing === undefined) return { ...head, values, ...(o.overlaps ? { overlaps: { ...o.overlaps, point: o.overlaps.point.map(valueToJson), iterations: o.overlaps.iterations.map(valueToJson) } } : {}) };
  const bounds = o.output.dims.map((d) => `[${d.min}, ${d.len}]`).join(' × ');
  return { ...head, outcome: { kind: 'window-not-covered', message: `the output allocation ${bounds} does not contain the window point (${missing.join(', ')})`, steps: o.steps } };
}
