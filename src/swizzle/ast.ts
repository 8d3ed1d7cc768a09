// A swizzle program (spec/swizzle.md, [SWZ-PROGRAM]): single-assignment statements over arrays of a
// fixed shape, each a literal, a gather (or a hole: a set of gathers) of earlier arrays, or a fold
// of the last dimension of an earlier array, and a goal: a literal the last array must equal.
import type { Loc } from '../diag.js';
import type { Gather, Opts } from './gathers.js';
import type { Shape } from './shape.js';
import type { Terms } from './term.js';

// implements [SWZ-PROGRAM]
export type Rhs =
  | { readonly k: 'lit'; readonly terms: Int32Array }
  | {
      readonly k: 'gather';
      /** the set's name for a hole (`?name`), undefined for a gather written out */
      readonly hole?: string;
      /** the gather's or set's name as written, and its options */
      readonly fn: string;
      readonly opts: Opts;
      /** indices of the statements read, in order */
      readonly args: readonly number[];
      /** one gather, or a hole's choices */
      readonly choices: readonly Gather[];
    }
  | { readonly k: 'fold'; readonly arg: number };

export interface Stmt {
  readonly name: string;
  readonly shape: Shape;
  readonly rhs: Rhs;
  readonly loc: Loc;
}

export interface Goal {
  /** the statement whose array must equal the goal: always the last one */
  readonly stmt: number;
  readonly terms: Int32Array;
  /** as written: a builtin goal's name and options, or undefined for a literal */
  readonly builtin?: string;
  readonly loc: Loc;
}

export interface SwzProgram {
  readonly file: string;
  readonly terms: Terms;
  readonly stmts: readonly Stmt[];
  readonly goal?: Goal;
}

/** A choice for every hole, in statement order: index into that hole's choices. */
export type Filling = readonly number[];

export function holesOf(p: SwzProgram): number[] {
  return p.stmts.flatMap((s, i) => (s.rhs.k === 'gather' && s.rhs.hole !== undefined ? [i] : []));
}
