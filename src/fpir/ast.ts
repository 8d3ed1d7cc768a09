// FPIR expressions (spec/fpir.md, [FPIR-SYNTAX]): typed vectors of lanes, built from variables,
// constants, wrapping casts, primitive integer operations (Halide IR's, Pitchfork §2.2), select,
// and the fixed-point instructions of Pitchfork's table 1. Every node carries its element type,
// computed once by the type checker (typing.ts); the lane count is the evaluator's concern, since
// every FPIR operation is lane-wise.
import type { Loc } from '../diag.js';
import type { ScalarType } from './types.js';

/** Primitive integer operations: arithmetic wraps, comparisons give bool (spec/fpir.md, [FPIR-PRIM]). */
const PRIM_OPS = ['+', '-', '*', '/', '%', 'min', 'max', '<<', '>>', '&', '|', '^', '<', '<=', '>', '>=', '==', '!='] as const;
export type PrimOp = (typeof PRIM_OPS)[number];

/** The instructions of Pitchfork's table 1, plus `saturating_shl` (its §8.4). */
export const FP_OPS = [
  'extending_add', 'extending_sub', 'extending_mul',
  'widening_add', 'widening_sub', 'widening_mul', 'widening_shl', 'widening_shr',
  'abs', 'absd', 'saturating_cast', 'saturating_narrow', 'saturating_add', 'saturating_sub',
  'halving_add', 'halving_sub', 'rounding_halving_add', 'rounding_shl', 'rounding_shr',
  'mul_shr', 'rounding_mul_shr', 'saturating_shl',
] as const;
export type FpOp = (typeof FP_OPS)[number];

export type FExpr =
  | { readonly k: 'var'; readonly name: string; readonly type: ScalarType; readonly loc?: Loc }
  | { readonly k: 'const'; readonly value: bigint; readonly type: ScalarType; readonly loc?: Loc }
  /** A wrapping cast (Halide's `cast<t>`): the value modulo 2^bits, read in `type`. */
  | { readonly k: 'cast'; readonly type: ScalarType; readonly arg: FExpr; readonly loc?: Loc }
  | { readonly k: 'prim'; readonly op: PrimOp; readonly args: readonly [FExpr, FExpr]; readonly type: ScalarType; readonly loc?: Loc }
  | { readonly k: 'select'; readonly args: readonly [FExpr, FExpr, FExpr]; readonly type: ScalarType; readonly loc?: Loc }
  /** An FPIR instruction; for `saturating_cast` the node's type is the target type. */
  | { readonly k: 'fp'; readonly op: FpOp; readonly args: readonly FExpr[]; readonly type: ScalarType; readonly loc?: Loc };

function childrenOf(e: FExpr): readonly FExpr[] {
  switch (e.k) {
    case 'var':
    case 'const':
      return [];
    case 'cast':
      return [e.arg];
    default:
      return e.args;
  }
}

/** The variables of an expression, each once, in order of first occurrence. */
export function varsOf(e: FExpr): Extract<FExpr, { k: 'var' }>[] {
  const out = new Map<string, Extract<FExpr, { k: 'var' }>>();
  const go = (x: FExpr): void => {
    if (x.k === 'var') {
      if (!out.has(x.name)) out.set(x.name, x);
    } else childrenOf(x).forEach(go);
  };
  go(e);
  return [...out.values()];
}
