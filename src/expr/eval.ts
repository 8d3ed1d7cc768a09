// Evaluation of expressions over an environment of variables. Func accesses are delegated to the
// caller, since their meaning differs between algorithms (fig. 2.6) and target programs (fig. 2.8).
import { UserError } from '../diag.js';
import type { Expr } from './ast.js';
import { applyOpRule } from './ops.js';
import { type Value, showValue } from './value.js';

export interface ExprTraceEvent {
  readonly rule: string;
  readonly expr: Expr;
  readonly args: readonly Value[];
  readonly value: Value;
}

export interface EvalHooks {
  access?: (func: string, args: readonly Value[], e: Expr) => Value;
  trace?: (ev: ExprTraceEvent) => void;
}

/** Evaluates every argument (nothing short-circuits, §2.4.1), then the operator. */
export function evalExpr(e: Expr, env: ReadonlyMap<string, Value>, hooks: EvalHooks = {}): Value {
  switch (e.k) {
    case 'const':
      return e.value;
    case 'var': {
      const v = env.get(e.name);
      if (v === undefined) throw new UserError(`unbound variable '${e.name}'`, e.loc, 'bind it with --param NAME=INT');
      return v;
    }
    case 'hole':
      throw new UserError('cannot evaluate a bounds hole', e.loc, 'fill the holes first');
    case 'access': {
      const args = e.args.map((a) => evalExpr(a, env, hooks));
      if (!hooks.access) throw new UserError(`func access '${e.func}' is not allowed here`, e.loc);
      return hooks.access(e.func, args, e);
    }
    case 'op': {
      const args = e.args.map((a) => evalExpr(a, env, hooks));
      const { value, rule } = applyOpRule(e.op, args);
      hooks.trace?.({ rule, expr: e, args, value });
      return value;
    }
  }
}

export function showTraceEvent(ev: ExprTraceEvent): string {
  return `[${ev.rule}] ${ev.expr.k === 'op' ? ev.expr.op : ''}(${ev.args.map(showValue).join(', ')}) = ${showValue(ev.value)}`;
}
