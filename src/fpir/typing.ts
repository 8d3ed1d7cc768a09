// The FPIR type checker (spec/fpir.md, [FPIR-TYPING]): builds typed nodes and rejects ill-typed
// ones with a located message. FPIR never converts implicitly: operands of different types meet
// only through a cast or an instruction that says how (widening_*, extending_*), so a mixed-width
// expression without a cast is an error, not a silent promotion as in C.
import { UserError, type Loc } from '../diag.js';
import type { FExpr, FpOp, PrimOp } from './ast.js';
import { INSTRUCTIONS } from './instructions.js';
import { isComparison, isShift, primResultType } from './prim.js';
import { BOOL, type ScalarType, typeEq, typeName } from './types.js';

/** The rule every typing rejection names. */
export const TYPING = 'FPIR-TYPING';

const fail = (msg: string, loc: Loc | undefined, hint?: string): never => {
  throw new UserError(`[${TYPING}] ${msg}`, loc, hint);
};

export function mkPrim(op: PrimOp, a: FExpr, b: FExpr, loc?: Loc): FExpr {
  if (a.type.bits === 1 && !isComparison(op) && !['&', '|', '^'].includes(op)) fail(`'${op}' does not apply to bool`, loc);
  if (!isShift(op) && !typeEq(a.type, b.type)) {
    fail(`'${op}' on mixed types ${typeName(a.type)} and ${typeName(b.type)}`, loc, `cast one operand, e.g. ${typeName(a.type)}(…), or use a widening_/extending_ instruction`);
  }
  return { k: 'prim', op, args: [a, b], type: primResultType(op, a.type), ...(loc ? { loc } : {}) };
}

export function mkSelect(c: FExpr, a: FExpr, b: FExpr, loc?: Loc): FExpr {
  if (!typeEq(c.type, BOOL)) fail(`select needs a bool condition, got ${typeName(c.type)}`, loc, 'compare, e.g. select(x_u8 > y_u8, …)');
  if (!typeEq(a.type, b.type)) fail(`select on mixed types ${typeName(a.type)} and ${typeName(b.type)}`, loc, 'cast one branch');
  return { k: 'select', args: [c, a, b], type: a.type, ...(loc ? { loc } : {}) };
}

export function mkFp(op: FpOp, args: readonly FExpr[], target: ScalarType | undefined, loc?: Loc): FExpr {
  const ins = INSTRUCTIONS.get(op)!;
  if (args.length !== ins.arity) fail(`${op} takes ${ins.arity} operand${ins.arity === 1 ? '' : 's'}, got ${args.length}`, loc);
  if (target !== undefined && op !== 'saturating_cast') fail(`${op} takes no type argument`, loc);
  if (args.some((a) => a.type.bits === 1)) fail(`${op} does not apply to bool`, loc);
  const t = ins.typing(args.map((a) => a.type), target);
  if (typeof t === 'string') return fail(`${op}: ${t}`, loc);
  return { k: 'fp', op, args, type: t, ...(loc ? { loc } : {}) };
}

export function mkCast(type: ScalarType, arg: FExpr, loc?: Loc): FExpr {
  return { k: 'cast', type, arg, ...(loc ? { loc } : {}) };
}
