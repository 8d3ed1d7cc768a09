// Abstract syntax of algorithms (fig. 2.5a).
import type { Loc } from '../diag.js';
import { type Expr, stripExprLocs } from '../expr/ast.js';
import type { Int } from '../expr/value.js';

/** One reduction variable of an rdom: r = (min, len). r_1 is innermost (§2.4.1). */
export interface RVar {
  readonly name: string;
  readonly min: Expr;
  readonly len: Expr;
  readonly loc?: Loc;
}

/**
 * A stage `rdom(r̄ = Ī) in (ē) <- e_b if e_p`. The pure stage U_0 = e is represented as
 * `rdom() in (x̄) <- e if 1` with `pure` set, exactly the reading §2.4.1 gives it.
 */
export interface Stage {
  readonly pure: boolean;
  readonly rdom: readonly RVar[];
  readonly lhs: readonly Expr[];
  readonly rhs: Expr;
  readonly pred: Expr;
  readonly loc?: Loc;
}

export interface Func {
  readonly name: string;
  readonly vars: readonly string[];
  readonly stages: readonly Stage[]; // stages[0] is the pure stage
  readonly loc?: Loc;
}

/** `pipeline f(p̄) = D`: `output` names the output func, which must be the last one. */
export interface Pipeline {
  readonly output: string;
  readonly params: readonly string[];
  readonly funcs: readonly Func[];
  readonly loc?: Loc;
}

/** An input z = ⟨(I_1 … I_n), (c_1 … c_m)⟩ (fig. 2.5a, def. 2.1): output window and parameters. */
export interface Input {
  readonly window: readonly (readonly [min: Int, len: Int])[];
  readonly params: ReadonlyMap<string, Int>;
}

/** The pipeline without source locations, for comparing trees (e.g. the print/parse round trip). */
export function stripPipelineLocs(p: Pipeline): Pipeline {
  return {
    output: p.output,
    params: p.params,
    funcs: p.funcs.map((f) => ({
      name: f.name,
      vars: f.vars,
      stages: f.stages.map((s) => ({
        pure: s.pure,
        rdom: s.rdom.map((r) => ({ name: r.name, min: stripExprLocs(r.min), len: stripExprLocs(r.len) })),
        lhs: s.lhs.map(stripExprLocs),
        rhs: stripExprLocs(s.rhs),
        pred: stripExprLocs(s.pred),
      })),
    })),
  };
}
