// Human-readable display of a realization: a row for 1-D funcs, a grid for 2-D funcs (rows are
// the second dimension), one grid per slice for more dimensions.
import { type Int, type Value, showValue } from '../expr/value.js';
import { add } from '../expr/ops.js';
import type { Realization } from './fast-eval.js';

function range([min, len]: readonly [Int, Int]): Int[] {
  const out: Int[] = [];
  for (let i = 0, c = min; i < Number(len); i++, c = add(c, 1)) out.push(c);
  return out;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, j) => Math.max(...rows.map((r) => r[j]!.length)));
  return rows.map((r) => r.map((cell, j) => cell.padStart(widths[j]!)).join('  ')).join('\n');
}

/** `vars` names the dimensions (the output func's pure variables). */
export function showRealization(r: Realization, vars: readonly string[]): string {
  const n = r.window.length;
  if (n === 0) return `${r.func}() = ${showValue(r.values[0]!)}`;
  if (r.values.length === 0) return `${r.func}: empty window`;
  const xs = range(r.window[0]!).map(String);
  if (n === 1) return table([[vars[0]!, ...xs], [r.func, ...r.values.map(showValue)]]);
  const ys = range(r.window[1]!);
  const w = xs.length;
  const plane = ys.length * w;
  const grid = (vals: readonly Value[]) =>
    table([[`${vars[1]}\\${vars[0]}`, ...xs], ...ys.map((y, j) => [String(y), ...vals.slice(j * w, (j + 1) * w).map(showValue)])]);
  if (n === 2) return grid(r.values);
  const out: string[] = [];
  const outer = r.window.slice(2);
  for (let k = 0; k * plane < r.values.length; k++) {
    let rest = k;
    const coords = outer.map(([m, l], d) => {
      const v = add(m, rest % Number(l));
      rest = Math.floor(rest / Number(l));
      return `${vars[d + 2]} = ${v}`;
    });
    out.push(`${r.func} at ${coords.join(', ')}:`, grid(r.values.slice(k * plane, (k + 1) * plane)));
  }
  return out.join('\n');
}
