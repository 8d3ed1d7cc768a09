// Bounds holes in Tgt? programs (def. 2.14): listing them, and the substitution [Γ]T that turns a
// program with holes into a hole-free one (def. 2.15).
import { UserError } from '../diag.js';
import { type Expr, type Hole, holeKey } from '../expr/ast.js';
import type { Stmt, TgtProgram } from './ast.js';

/** A completion Γ: a hole-free expression for each hole, keyed by `holeKey`. */
export type Completion = ReadonlyMap<string, Expr>;

function mapExpr(e: Expr, f: (h: Hole) => Expr): Expr {
  switch (e.k) {
    case 'hole':
      return f(e.hole);
    case 'access':
    case 'op':
      return { ...e, args: e.args.map((a) => mapExpr(a, f)) };
    default:
      return e;
  }
}

/** Applies `f` to every expression of a statement, rebuilding only the expression positions. */
export function mapStmtExprs(s: Stmt, f: (e: Expr) => Expr): Stmt {
  switch (s.k) {
    case 'nop':
      return s;
    case 'assert':
      return { ...s, cond: f(s.cond) };
    case 'seq':
      return { ...s, body: s.body.map((b) => mapStmtExprs(b, f)) };
    case 'allocate':
      return { ...s, dims: s.dims.map((d) => ({ ...d, min: f(d.min), len: f(d.len) })) };
    case 'store':
      return { ...s, idx: s.idx.map(f), value: f(s.value) };
    case 'if':
      return { ...s, cond: f(s.cond), then: mapStmtExprs(s.then, f), else: mapStmtExprs(s.else, f) };
    case 'for':
      return { ...s, min: f(s.min), len: f(s.len), body: mapStmtExprs(s.body, f) };
    case 'let':
      return { ...s, value: f(s.value), body: mapStmtExprs(s.body, f) };
    case 'label':
      return { ...s, body: mapStmtExprs(s.body, f) };
  }
}

/** The expressions a statement evaluates itself, not those of the statements nested in it. */
export function ownExprs(s: Stmt): Expr[] {
  switch (s.k) {
    case 'assert':
      return [s.cond];
    case 'allocate':
      return s.dims.flatMap((d) => [d.min, d.len]);
    case 'store':
      return [...s.idx, s.value];
    case 'if':
      return [s.cond];
    case 'for':
      return [s.min, s.len];
    case 'let':
      return [s.value];
    default:
      return [];
  }
}

/** Every expression of a statement, in program order (a walk: nothing is rebuilt). */
export function stmtExprs(s: Stmt, out: Expr[] = []): Expr[] {
  switch (s.k) {
    case 'nop':
      break;
    case 'assert':
      out.push(s.cond);
      break;
    case 'seq':
      for (const b of s.body) stmtExprs(b, out);
      break;
    case 'allocate':
      for (const d of s.dims) out.push(d.min, d.len);
      break;
    case 'store':
      out.push(...s.idx, s.value);
      break;
    case 'if':
      out.push(s.cond);
      stmtExprs(s.then, out);
      stmtExprs(s.else, out);
      break;
    case 'for':
      out.push(s.min, s.len);
      stmtExprs(s.body, out);
      break;
    case 'let':
      out.push(s.value);
      stmtExprs(s.body, out);
      break;
    case 'label':
      stmtExprs(s.body, out);
      break;
  }
  return out;
}

function collectHoles(e: Expr, out: Map<string, Hole>): void {
  if (e.k === 'hole') out.set(holeKey(e.hole), e.hole);
  else if (e.k === 'access' || e.k === 'op') for (const a of e.args) collectHoles(a, out);
}

const HOLES = new WeakMap<TgtProgram, readonly Hole[]>();

/** The distinct holes of a program, in order of first occurrence (memoized: programs are immutable). */
export function holesOf(p: TgtProgram): Hole[] {
  let hs = HOLES.get(p);
  if (!hs) {
    const out = new Map<string, Hole>();
    for (const e of stmtExprs(p.body)) collectHoles(e, out);
    HOLES.set(p, (hs = [...out.values()]));
  }
  return [...hs];
}

/** Refuses a program that still has holes, naming them (an executor needs a Tgt program). */
export function assertHoleFree(p: TgtProgram): void {
  const hs = holesOf(p);
  if (hs.length === 0) return;
  const shown = hs.slice(0, 6).map(holeKey).join(' ');
  throw new UserError(
    `program still has holes: ${shown}${hs.length > 6 ? ` … (${hs.length} in all)` : ''}`,
    p.loc,
    'fill them with a bounds engine (refsem exec --engine …) or by hand before running',
  );
}

/** [Γ]T: replaces every hole by its expression in Γ. Holes missing from Γ are an error. */
export function fillHoles(p: TgtProgram, gamma: Completion): TgtProgram {
  const missing = new Set<string>();
  const f = (h: Hole): Expr => {
    const key = holeKey(h);
    const e = gamma.get(key);
    if (e === undefined) {
      missing.add(key);
      return { k: 'hole', hole: h };
    }
    return e;
  };
  const body = mapStmtExprs(p.body, (e) => mapExpr(e, f));
  if (missing.size > 0) {
    throw new UserError(`completion leaves holes unfilled: ${[...missing].join(' ')}`, p.loc);
  }
  return { ...withoutHints(p), body };
}


/** The program without its bounds hints: they are consumed once the holes are filled (§2.8.5). */
export function withoutHints(p: TgtProgram): TgtProgram {
  const { hints: _hints, ...rest } = p;
  return rest;
}
