// Abstract syntax of the target language Tgt / Tgt? (fig. 2.7). One representation serves both:
// a program is in Tgt exactly when it contains no hole expressions.
import type { Loc } from '../diag.js';
import type { Expr, RefLabel } from '../expr/ast.js';

/**
 * Loop traversal. serial and parallel are fig. 2.7's τ; vectorize and unroll are the practical
 * orders of §2.8.6, semantically serial.
 */
export type Trav = 'serial' | 'parallel' | 'vectorize' | 'unroll';

/** One allocated dimension: the func's dimension name and its (min, len) interval. */
export interface AllocDim {
  readonly dim: string;
  readonly min: Expr;
  readonly len: Expr;
}

export type Stmt =
  | { readonly k: 'nop'; readonly loc?: Loc }
  | { readonly k: 'assert'; readonly cond: Expr; readonly loc?: Loc }
  | { readonly k: 'seq'; readonly body: readonly Stmt[]; readonly loc?: Loc }
  | { readonly k: 'allocate'; readonly func: string; readonly dims: readonly AllocDim[]; readonly loc?: Loc }
  | {
      readonly k: 'store';
      readonly func: string;
      readonly ref: RefLabel;
      readonly idx: readonly Expr[];
      readonly value: Expr;
      readonly loc?: Loc;
    }
  | { readonly k: 'if'; readonly cond: Expr; readonly then: Stmt; readonly else: Stmt; readonly loc?: Loc }
  | {
      readonly k: 'for';
      readonly var: string;
      readonly trav: Trav;
      readonly min: Expr;
      readonly len: Expr;
      readonly body: Stmt;
      readonly loc?: Loc;
    }
  | { readonly k: 'let'; readonly var: string; readonly value: Expr; readonly body: Stmt; readonly loc?: Loc }
  | { readonly k: 'label'; readonly name: string; readonly body: Stmt; readonly loc?: Loc };

/**
 * `pipeline f(p̄, x̄^min, x̄^len) : s` (fig. 2.7, fig. 2.9). `params` lists the user parameters;
 * `window` lists, per output dimension, the names of its min and len parameters (lowering names
 * them `x.min` and `x.len` after the output func's pure variable x).
 */
export interface TgtProgram {
  readonly output: string;
  /** Bounds-phase directives (§2.8.5) recorded for the bounds engine; absent when none. */
  readonly hints?: readonly BoundsHint[];
  readonly params: readonly string[];
  readonly window: readonly { readonly dim: string; readonly min: string; readonly len: string }[];
  readonly body: Stmt;
  readonly loc?: Loc;
}

/**
 * What the bounds-phase directives (§2.8.5) tell the bounds engine about the compute bounds of a
 * func's final stage in one dimension. Expressions are startup expressions (def. 2.9).
 */
export type BoundsHint =
  | { readonly k: 'bound'; readonly func: string; readonly dim: string; readonly min: Expr; readonly len: Expr; readonly loc?: Loc }
  | { readonly k: 'bound-extent'; readonly func: string; readonly dim: string; readonly len: Expr; readonly loc?: Loc }
  | {
      readonly k: 'align-bounds';
      readonly func: string;
      readonly dim: string;
      readonly modulus: Expr;
      readonly remainder: Expr;
      readonly loc?: Loc;
    };
