// Static checks shared by both executors, run before execution: a program given to an executor
// must be in Tgt (no holes, fig. 2.7), every variable must be bound by the header, a let or a loop
// that encloses it, and every func accessed must be allocated somewhere with the same arity.
// These are bad input (UserError, exit 2), not stuck states: fig. 2.8 gives them no meaning.
import { CLI_LOC, UserError } from '../diag.js';
import { type Expr, walkExpr } from '../expr/ast.js';
import type { Int } from '../expr/value.js';
import type { Input } from '../alg-semantics/ast.js';
import type { Stmt, TgtProgram } from './ast.js';
import { assertHoleFree } from './holes.js';

/** What the executors learn from the static check: the arity of every allocated func. */
export interface CheckedTgt {
  readonly arity: ReadonlyMap<string, number>;
}

/**
 * Lexical scoping with no shadowing: a let or loop may not rebind a name already in scope. Fig. 2.8
 * keeps Σ flat ([LET] never removes its binding, [FOR-STOP] removes x outright), so with shadowing
 * the literal rules and lexical scoping would disagree; without it they coincide (spec/target.md,
 * "Scoping").
 */
export function checkTgt(p: TgtProgram): CheckedTgt {
  assertHoleFree(p);
  const arity = new Map<string, number>();
  collectAllocs(p.body, arity);
  const bound = new Set<string>([...p.params, ...p.window.flatMap((w) => [w.min, w.len])]);
  checkStmt(p.body, bound, arity, p);
  return { arity };
}

function collectAllocs(s: Stmt, arity: Map<string, number>): void {
  switch (s.k) {
    case 'allocate': {
      const prev = arity.get(s.func);
      if (prev !== undefined && prev !== s.dims.length) {
        throw new UserError(`'${s.func}' is allocated with ${s.dims.length} dimensions here and ${prev} elsewhere`, s.loc);
      }
      arity.set(s.func, s.dims.length);
      return;
    }
    case 'seq':
      for (const b of s.body) collectAllocs(b, arity);
      return;
    case 'if':
      collectAllocs(s.then, arity);
      collectAllocs(s.else, arity);
      return;
    case 'for':
    case 'let':
    case 'label':
      collectAllocs(s.body, arity);
      return;
    default:
      return;
  }
}

function checkAccess(func: string, n: number, arity: ReadonlyMap<string, number>, p: TgtProgram, loc: Stmt['loc']): void {
  const a = arity.get(func);
  if (a === undefined) {
    throw new UserError(`unknown buffer '${func}': the program never allocates it`, loc ?? p.loc, `add \`allocate ${func}(…)\` before its first use`);
  }
  if (a !== n) throw new UserError(`'${func}' has ${a} dimensions but is accessed with ${n} indices`, loc ?? p.loc);
}

function checkExpr(e: Expr, bound: ReadonlySet<string>, arity: ReadonlyMap<string, number>, p: TgtProgram, at: Stmt): void {
  walkExpr(e, (x) => {
    if (x.k === 'var' && !bound.has(x.name)) {
      throw new UserError(`unbound variable '${x.name}'`, x.loc ?? at.loc ?? p.loc, 'bind it with let, a loop, or declare it in the pipeline header');
    }
    if (x.k === 'access') checkAccess(x.func, x.args.length, arity, p, x.loc ?? at.loc);
  });
}

function bind(name: string, bound: ReadonlySet<string>, s: Stmt, p: TgtProgram): Set<string> {
  if (bound.has(name)) {
    throw new UserError(`'${name}' is already bound here`, s.loc ?? p.loc, 'rename the inner binding: target programs do not allow shadowing');
  }
  return new Set(bound).add(name);
}

function checkStmt(s: Stmt, bound: ReadonlySet<string>, arity: ReadonlyMap<string, number>, p: TgtProgram): void {
  const ex = (e: Expr) => checkExpr(e, bound, arity, p, s);
  switch (s.k) {
    case 'nop':
      return;
    case 'assert':
      return ex(s.cond);
    case 'seq':
      for (const b of s.body) checkStmt(b, bound, arity, p);
      return;
    case 'allocate':
      for (const d of s.dims) {
        ex(d.min);
        ex(d.len);
      }
      return;
    case 'store':
      ex(s.value);
      s.idx.forEach(ex);
      checkAccess(s.func, s.idx.length, arity, p, s.loc);
      return;
    case 'if':
      ex(s.cond);
      checkStmt(s.then, bound, arity, p);
      checkStmt(s.else, bound, arity, p);
      return;
    case 'for':
      ex(s.min);
      ex(s.len);
      checkStmt(s.body, bind(s.var, bound, s, p), arity, p);
      return;
    case 'let':
      ex(s.value);
      checkStmt(s.body, bind(s.var, bound, s, p), arity, p);
      return;
    case 'label':
      checkStmt(s.body, bound, arity, p);
      return;
  }
}

/**
 * [TGT-REALIZE]'s substitution [p̄ = c̄]: the values of the header's names for an input (def. 2.1).
 * Missing, unknown or mis-sized input is bad input.
 */
export function bindInput(p: TgtProgram, input: Input): Map<string, Int> {
  const where = CLI_LOC; // the input comes from --window and --param
  if (input.window.length !== p.window.length) {
    throw new UserError(
      `'${p.output}' has ${p.window.length} output dimensions but the window gives ${input.window.length}`,
      where,
      `pass --window with ${p.window.length} MIN+LEN pairs`,
    );
  }
  const env = new Map<string, Int>();
  for (const name of p.params) {
    const v = input.params.get(name);
    if (v === undefined) throw new UserError(`missing parameter '${name}'`, where, `pass --param ${name}=INT`);
    env.set(name, v);
  }
  for (const name of input.params.keys()) {
    if (!p.params.includes(name)) {
      throw new UserError(`unknown parameter '${name}'`, where, p.params.length ? `the parameters are ${p.params.join(', ')}` : 'the program has no parameters');
    }
  }
  p.window.forEach((w, i) => {
    const [min, len] = input.window[i]!;
    env.set(w.min, min);
    env.set(w.len, len);
  });
  return env;
}
