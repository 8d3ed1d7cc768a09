// The one traversal of target-language statements (the syntax of fig. 2.7, run by the machine of
// fig. 2.8). Scheduling directives (§2.8) name loops, not positions, so the program is addressed
// by paths: a directive resolves a loop name to the path of its `for`, rewrites the statement at
// that path and shares everything else. Lowering's invariant checks, bounds inference, code
// generation and the fuzzers walk statements the same way, so every consumer sees one order
// (pre-order, program order) and one notion of path.
import type { Stmt, TgtProgram } from './ast.js';
import { type LoopName, parseLoopName } from './loop-name.js';

/** One step from a statement to a child: an index into a block, or a named sub-statement. */
export type PathStep = number | 'body' | 'then' | 'else';
export type StmtPath = readonly PathStep[];

export type ForStmt = Extract<Stmt, { k: 'for' }>;

/** A statement with its path. */
export interface Site<S extends Stmt = Stmt> {
  readonly stmt: S;
  readonly path: StmtPath;
}

export interface LoopInfo extends Site<ForStmt> {
  /** The parsed name, or undefined when the induction variable is not of the form f.s<i>[.k<j>].v. */
  readonly name: LoopName | undefined;
  /** Names of the enclosing labels, outermost first. */
  readonly labels: readonly string[];
}

/** The immediate sub-statements of s with the step that reaches each. */
export function children(s: Stmt): [PathStep, Stmt][] {
  switch (s.k) {
    case 'seq':
      return s.body.map((b, i) => [i, b]);
    case 'if':
      return [['then', s.then], ['else', s.else]];
    case 'for':
    case 'let':
    case 'label':
      return [['body', s.body]];
    default:
      return [];
  }
}

/** s with each immediate sub-statement replaced by f of it (in the order of `children`). */
export function mapChildren(s: Stmt, f: (c: Stmt, step: PathStep) => Stmt): Stmt {
  switch (s.k) {
    case 'seq':
      return { ...s, body: s.body.map((b, i) => f(b, i)) };
    case 'if':
      return { ...s, then: f(s.then, 'then'), else: f(s.else, 'else') };
    case 'for':
    case 'let':
    case 'label':
      return { ...s, body: f(s.body, 'body') };
    default:
      return s;
  }
}

/** Every statement with its path and enclosing labels, in program order (pre-order). */
export function visitStmts(s: Stmt, f: (s: Stmt, path: StmtPath, labels: readonly string[]) => void, path: StmtPath = [], labels: readonly string[] = []): void {
  f(s, path, labels);
  const inner = s.k === 'label' ? [...labels, s.name] : labels;
  for (const [step, c] of children(s)) visitStmts(c, f, [...path, step], inner);
}

/** The first statement, in program order, of which `p` holds, with its path from s. */
export function findStmt(s: Stmt, p: (s: Stmt) => boolean): Site | undefined {
  if (p(s)) return { stmt: s, path: [] };
  for (const [step, c] of children(s)) {
    const hit = findStmt(c, p);
    // The path is built on the way out, so a search that fails allocates none.
    if (hit) return { stmt: hit.stmt, path: [step, ...hit.path] };
  }
  return undefined;
}

/** Does `p` hold of `s` or of any statement inside it? */
export function someStmt(s: Stmt, p: (s: Stmt) => boolean): boolean {
  return findStmt(s, p) !== undefined;
}

/** The statement at a path, or undefined if the path leads nowhere. */
export function stmtAt(s: Stmt, path: StmtPath): Stmt | undefined {
  let cur: Stmt | undefined = s;
  for (const step of path) {
    cur = cur && children(cur).find(([k]) => k === step)?.[1];
  }
  return cur;
}

/** Rebuilds s with the statement at `path` replaced by f of it, sharing everything else. */
export function replaceAt(s: Stmt, path: StmtPath, f: (s: Stmt) => Stmt): Stmt {
  if (path.length === 0) return f(s);
  const [step, ...rest] = path;
  let found = false;
  const out = mapChildren(s, (c, k) => {
    if (k !== step) return c;
    found = true;
    return replaceAt(c, rest, f);
  });
  if (!found) throw new Error(`internal: no statement at step ${String(step)} of a ${s.k}`);
  return out;
}

/** Removes the statement at `path`: dropped from its block, or replaced by nop elsewhere. */
export function removeAt(s: Stmt, path: StmtPath): Stmt {
  const last = path[path.length - 1];
  if (typeof last === 'number') {
    return replaceAt(s, path.slice(0, -1), (blk) => {
      const body = (blk as Extract<Stmt, { k: 'seq' }>).body.filter((_, i) => i !== last);
      return body.length === 1 ? body[0]! : { ...blk, k: 'seq', body } as Stmt;
    });
  }
  return replaceAt(s, path, () => ({ k: 'nop' }));
}

/** `replaceAt` on the body of a program, with a path from `loopsOf(t)`: how directives rewrite a loop. */
export function replaceInProgram(t: TgtProgram, path: StmtPath, f: (s: Stmt) => Stmt): TgtProgram {
  return { ...t, body: replaceAt(t.body, path, f) };
}

const LOOPS = new WeakMap<TgtProgram, readonly LoopInfo[]>();

/**
 * Every for loop of the program, in program order, with its parsed name and its path from
 * `t.body`. Kept per program: programs are immutable, and a directive's `generate` and `validate`
 * resolve loops of the same program over and over (each call gets its own array).
 */
export function loopsOf(t: TgtProgram): LoopInfo[] {
  let ls = LOOPS.get(t);
  if (!ls) {
    const found: LoopInfo[] = [];
    visitStmts(t.body, (s, path, labels) => {
      if (s.k === 'for') found.push({ name: parseLoopName(s.var), stmt: s, path, labels });
    });
    LOOPS.set(t, (ls = found));
  }
  return [...ls];
}

/** Is `inner` a path strictly inside `outer`? */
export function isInside(inner: StmtPath, outer: StmtPath): boolean {
  return inner.length > outer.length && outer.every((s, i) => inner[i] === s);
}
