// What must hold for a rewrite to be sound (spec/effects.md, "Safety conditions"): the primitive
// conditions of §3.5.7–3.5.8 and those the directives of fig. 2.11 need besides, each stated on a
// program and the paths of the statements involved. They are plain data; `prove-z3.ts` decides them.
import type { Expr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import type { TgtProgram, Trav } from '../target-semantics/ast.js';
import { printStmt } from '../target-semantics/print.js';
import { type StmtPath, stmtAt } from '../target-semantics/walk.js';

export type Obligation =
  /** s_a; s_b ⇝ s_b; s_a (def. 3.8), the two statements at their own places in t; s_b may contain s_a,
   *  left out of it (`without`: a statement leaving a loop or a branch, against the rest of it) */
  | { readonly k: 'commutes'; readonly t: TgtProgram; readonly a: StmtPath; readonly b: StmtPath; readonly without?: StmtPath }
  /** s_a; s_b ⇝ s_b (def. 3.9) */
  | { readonly k: 'shadows'; readonly t: TgtProgram; readonly a: StmtPath; readonly b: StmtPath }
  /** for x: W[for y: s] ⇝ for y: for x: W[s] (§3.5.8, loop reordering); `loop` is the outer loop */
  | { readonly k: 'reorder'; readonly t: TgtProgram; readonly loop: StmtPath }
  /** for x: (s₁; s₂) ⇝ (for x: s₁); (for x: s₂), split before item `at` of the body (§3.5.8) */
  | { readonly k: 'fission'; readonly t: TgtProgram; readonly loop: StmtPath; readonly at: number }
  /** for x: s ⇝ s (§3.5.8, loop removal) */
  | { readonly k: 'remove-loop'; readonly t: TgtProgram; readonly loop: StmtPath }
  /** the loop may run in parallel: distinct iterations touch no common point, one of them modifying it */
  | { readonly k: 'parallel'; readonly t: TgtProgram; readonly loop: StmtPath }
  /** iterations commute pairwise and each is idempotent, so repeated or reordered iterations are harmless */
  | { readonly k: 'independent'; readonly t: TgtProgram; readonly loop: StmtPath }
  /** no value of `buf` written in one iteration is read by a later one (a fresh buffer per iteration is
   *  equivalent), the computation of `buf` in an iteration covering that iteration's reads ([EFF-COVER]) */
  | { readonly k: 'private'; readonly t: TgtProgram; readonly loop: StmtPath; readonly buf: string }
  /** nothing the statements `by` do modifies what the statement at `stmt` reads or modifies; `by` may
   *  contain the statement, left out of them (`without`) */
  | { readonly k: 'stable'; readonly t: TgtProgram; readonly stmt: StmtPath; readonly by: readonly StmtPath[]; readonly without?: StmtPath }
  /** the split of the loop by `factor` (guard tail) visits exactly its iterations, in order */
  | { readonly k: 'split-exact'; readonly t: TgtProgram; readonly loop: StmtPath; readonly factor: Expr }
  /** the fuse of the loop with the loop inside it visits exactly their iteration pairs, in order */
  | { readonly k: 'fuse-exact'; readonly t: TgtProgram; readonly loop: StmtPath }
  /** the loop at `loop` of t, replaced in `after` by a nest of loops, lets and guards around its body
   *  (at `body`), visits its points: `points`, each point of its range and no other; `order`, in
   *  increasing order, each once */
  | { readonly k: 'reindex'; readonly t: TgtProgram; readonly loop: StmtPath; readonly after: TgtProgram; readonly body: StmtPath; readonly part: 'points' | 'order' }
  /** the condition holds wherever the statement at `at` runs: a guard dropped around it, or added */
  | { readonly k: 'guard'; readonly t: TgtProgram; readonly at: StmtPath; readonly cond: Expr }
  /** every access to `buf` lies inside the statement at `within` (a buffer allocated, or computed, in a loop) */
  | { readonly k: 'confined'; readonly t: TgtProgram; readonly buf: string; readonly within: StmtPath }
  /** the loop's new traversal is serial: a parallel loop's iterations may already run in this order */
  | { readonly k: 'serial'; readonly loop: string; readonly trav: Trav }
  /** the statement is the same as before up to a renaming of specialization copies (lemma 2.9) */
  | { readonly k: 'copies'; readonly before: TgtProgram; readonly after: TgtProgram; readonly func: string }
  /** the rewrite leaves the statements unchanged (bounds-phase directives change only the hints) */
  | { readonly k: 'unchanged'; readonly before: TgtProgram; readonly after: TgtProgram }
  /** left to another check on purpose: what checks it and why it is not an effect condition */
  | { readonly k: 'delegated'; readonly what: string }
  /** the analysis has nothing to say: why */
  | { readonly k: 'unmodelled'; readonly why: string };

/** The answer to one obligation: unknown is never a success. */
export type Answer =
  | { readonly k: 'proved'; readonly how?: string }
  | { readonly k: 'refuted'; readonly witness: Readonly<Record<string, string>>; readonly why: string }
  | { readonly k: 'unknown'; readonly reason: string }
  | { readonly k: 'delegated'; readonly to: string };

/** implements [OBL-SHOW]: an answer as the rest of a line. */
export function showAnswer(a: Answer): string {
  switch (a.k) {
    case 'proved':
      return `proved${a.how ? ` (${a.how})` : ''}`;
    case 'refuted':
      return `refuted: ${a.why}${Object.keys(a.witness).length ? `; witness ${Object.entries(a.witness).map(([k, v]) => `${k} = ${v}`).join(', ')}` : ''}`;
    case 'unknown':
      return `unknown: ${a.reason}`;
    case 'delegated':
      return `relies on: ${a.to}`;
  }
}

/** A statement named briefly: a loop by its variable, a label by its name, else its first line. */
function brief(t: TgtProgram, path: StmtPath): string {
  const s = stmtAt(t.body, path);
  if (!s) return `(no statement at ${path.join('.')})`;
  if (s.k === 'for') return s.var;
  if (s.k === 'label') return `label ${s.name}`;
  const line = printStmt(s).trim().split('\n')[0]!;
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

/** One line naming an obligation and what it is about. */
export function describeObligation(o: Obligation): string {
  switch (o.k) {
    case 'commutes':
      return `commutes ${brief(o.t, o.a)} ; ${brief(o.t, o.b)}${o.without ? ' (the rest of it)' : ''}`;
    case 'shadows':
      return `shadows ${brief(o.t, o.a)} ; ${brief(o.t, o.b)}`;
    case 'reorder':
    case 'remove-loop':
    case 'parallel':
    case 'independent':
    case 'fuse-exact':
      return `${o.k} ${brief(o.t, o.loop)}`;
    case 'fission':
      return `fission ${brief(o.t, o.loop)} before item ${o.at}`;
    case 'private':
      return `private ${o.buf} in ${brief(o.t, o.loop)}`;
    case 'stable':
      return `stable ${brief(o.t, o.stmt)} under ${o.by.map((b) => brief(o.t, b)).join(', ') || 'nothing'}${o.without ? ' (the rest of it)' : ''}`;
    case 'reindex':
      return `reindex ${brief(o.t, o.loop)} (${o.part === 'points' ? 'its points' : 'their order'})`;
    case 'guard':
      return `guard ${printExpr(o.cond, 'tgt')} around ${brief(o.t, o.at)}`;
    case 'confined':
      return `confined ${o.buf} to ${brief(o.t, o.within)}`;
    case 'split-exact':
      return `split-exact ${brief(o.t, o.loop)} by ${printExpr(o.factor, 'tgt')}`;
    case 'serial':
      return `serial ${o.loop} (${o.trav})`;
    case 'copies':
      return `copies of ${o.func}`;
    case 'unchanged':
      return 'unchanged statements';
    case 'delegated':
      return 'delegated';
    case 'unmodelled':
      return 'not modelled';
  }
}
