// Index expressions are simplified before emission (spec/codegen.md [C-INDEX]): the subscripts of
// reads and stores are rewritten with the simplifier's `integers` rules, which hold there because
// a subscript without reads, holes, error constants or let-bound variables is made of loop
// variables, parameters and integer constants, all integers (spec/simplify.md [SIMP-DOMAIN]).
// Subscripts that read memory are left as they are: a rule could drop a read, and with it the
// out-of-bounds failure the reference reports first.
import { type Expr, walkExpr } from '../expr/ast.js';
import { isError } from '../expr/value.js';
import { BUILTIN_RULE_SET } from '../simplify/builtin-rules.js';
import { simplifyWith } from '../simplify/simplify.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { mapStmtExprs, ownExprs } from '../target-semantics/holes.js';
import { mapChildren, visitStmts } from '../target-semantics/walk.js';

// implements [C-INDEX]
export function simplifyIndices(t: TgtProgram): TgtProgram {
  const lets = new Set<string>();
  visitStmts(t.body, (s) => void (s.k === 'let' && lets.add(s.var)));
  const integral = (e: Expr): boolean => {
    let ok = true;
    walkExpr(e, (x) => {
      if (x.k === 'access' || x.k === 'hole' || (x.k === 'const' && isError(x.value)) || (x.k === 'var' && lets.has(x.name))) ok = false;
    });
    return ok;
  };
  const index = (e: Expr): Expr => (integral(e) ? simplifyWith(e, BUILTIN_RULE_SET, { domain: 'integers' }) : e);
  const reads = (e: Expr): Expr => {
    if (e.k === 'access') return { ...e, args: e.args.map((a) => index(reads(a))) };
    return e.k === 'op' ? { ...e, args: e.args.map(reads) } : e;
  };
  const stores = (s: Stmt): Stmt => {
    const inner = mapChildren(s, stores);
    return inner.k === 'store' ? { ...inner, idx: inner.idx.map(index) } : inner;
  };
  return { ...t, body: stores(mapStmtExprs(t.body, reads)) };
}

/** Every subscript of a read or a store in a program, in program order. */
export function subscripts(t: TgtProgram): Expr[] {
  const out: Expr[] = [];
  const reads = (e: Expr) => walkExpr(e, (x) => void (x.k === 'access' && out.push(...x.args)));
  visitStmts(t.body, (s) => {
    for (const e of ownExprs(s)) reads(e);
    if (s.k === 'store') out.push(...s.idx);
  });
  return out;
}
