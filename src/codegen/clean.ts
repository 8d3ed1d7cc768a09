// [C-CLEAN] (spec/codegen.md): which loop nests may run without error tags. Error values enter a
// run only through reads of points whose tag is not 0 (unwritten points, or points written with
// an error) and through error constants (def. 2.6). A nest that allocates nothing, holds no error
// constant and reads only buffers whose every tag is 0 therefore computes integers only: every
// store in it writes tag 0, so the buffers it reads stay clean while it runs, and its reads need
// not load tags at all. Whether the buffers are clean is known only at run time; this module
// finds the nests and what the run-time test must cover.
import { walkExpr } from '../expr/ast.js';
import { isError } from '../expr/value.js';
import { stmtExprs } from '../target-semantics/holes.js';
import type { Stmt } from '../target-semantics/ast.js';
import { someStmt } from '../target-semantics/walk.js';

type Loop = Extract<Stmt, { k: 'for' }>;

/** A nest that may run tag-free: the funcs whose buffers it reads, and the variables with tags it uses. */
export interface CleanNest {
  readonly reads: readonly string[];
  /** let-bound variables of enclosing statements whose value may be an error: the test requires integers */
  readonly taggedVars: readonly string[];
}

/**
 * The nest of loop `s`, if it can have a tag-free variant: nothing allocated inside (a fresh
 * allocation is all err.mem), no error constant, and at least one read (without reads the tags
 * are already known to be 0 where the code is emitted). `tagged` says which variables in scope
 * may hold error values.
 */
export function cleanNest(s: Loop, tagged: (name: string) => boolean): CleanNest | undefined {
  if (someStmt(s.body, (x) => x.k === 'allocate')) return undefined;
  const reads = new Set<string>();
  const vars = new Set<string>();
  let errorConst = false;
  for (const e of stmtExprs(s)) {
    walkExpr(e, (y) => {
      if (y.k === 'access') reads.add(y.func);
      else if (y.k === 'const' && isError(y.value)) errorConst = true;
      else if (y.k === 'var' && tagged(y.name)) vars.add(y.name);
    });
  }
  if (errorConst || reads.size === 0) return undefined;
  return { reads: [...reads], taggedVars: [...vars] };
}
