// Printing schedules in the syntax read by parse.ts; parseSchedule(printSchedule(s)) = s up to
// locations (property-tested in test/schedule/syntax.test.ts).
import type { Expr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import type { ArgRecord, ArgValue, Directive, DirectiveCall, ParamType, Schedule } from './plugin.js';
import { showLoc } from '../diag.js';

function printValue(type: ParamType, v: ArgValue): string {
  if (type === 'expr') return printExpr(v as Expr, 'tgt');
  if (type === 'exprs') return (v as readonly Expr[]).map((e) => printExpr(e, 'tgt')).join(', ');
  if (type === 'loops' || type === 'names') return (v as readonly string[]).join(', ');
  return String(v);
}

/** The text of a call after the directive's name. */
export function printArgs(d: Directive, args: object): string {
  if (d.print) return d.print(args);
  const rec = args as ArgRecord;
  return (d.params ?? [])
    .filter((p) => rec[p.name] !== undefined)
    .map((p) => `${p.key ? `${p.key} ` : ''}${printValue(p.type, rec[p.name]!)}`)
    .join(' ');
}

export function printCall(c: DirectiveCall): string {
  const rest = printArgs(c.directive, c.args);
  return rest ? `${c.directive.name} ${rest}` : c.directive.name;
}

/**
 * Where a call was written, or that no line wrote it: a translated schedule adds calls for what it
 * leaves unsaid (Halide's defaults, spec/halide-schedules.md), and those have no line of their own.
 */
export function callPlace(c: DirectiveCall): string {
  return c.loc ? showLoc(c.loc) : 'a default: no line of the schedule';
}

export function printSchedule(s: Schedule): string {
  return s.calls.map((c) => printCall(c) + '\n').join('');
}

/** The syntax of a directive for error hints, e.g. `split LOOP [into NAMES] by EXPR [tail guard|shift|round]`. */
export function usage(d: Directive): string {
  if (!d.params) return `${d.name} …`;
  const shown = d.params.map((p) => {
    const val = typeof p.type === 'object' ? p.type.choice.join('|') : p.type.toUpperCase();
    const s = p.key ? `${p.key} ${val}` : val;
    return p.optional ? `[${s}]` : s;
  });
  return [d.name, ...shown].join(' ');
}
