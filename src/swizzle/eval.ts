// The evaluator (spec/swizzle.md, [SWZ-EVAL]): runs a program whose holes are filled, statement by
// statement, and compares the last array with the goal.
import type { Filling, Stmt, SwzProgram } from './ast.js';
import { SRC_ZERO, type Gather } from './gathers.js';
import { sizeOf } from './shape.js';
import { BOTTOM, type Terms, ZERO } from './term.js';

// implements [SWZ-GATHER]
/** [SWZ-GATHER] out[k] = the argument cell src[k] reads, or 0, or ⊥. */
export function applyGather(g: Gather, args: readonly Int32Array[]): Int32Array {
  const input = args.length === 1 ? args[0]! : concat(args);
  const out = new Int32Array(g.src.length);
  const src = g.src;
  for (let k = 0; k < src.length; k++) {
    const s = src[k]!;
    out[k] = s >= 0 ? input[s]! : s === SRC_ZERO ? ZERO : BOTTOM;
  }
  return out;
}

function concat(args: readonly Int32Array[]): Int32Array {
  const out = new Int32Array(args.reduce((n, a) => n + a.length, 0));
  let o = 0;
  for (const a of args) {
    out.set(a, o);
    o += a.length;
  }
  return out;
}

/** [SWZ-FOLD] Each row of the last dimension becomes one multiset. */
export function applyFold(terms: Terms, input: Int32Array, cells: number): Int32Array {
  const k = input.length / cells;
  const out = new Int32Array(cells);
  for (let i = 0; i < cells; i++) out[i] = terms.fold(input.subarray(i * k, (i + 1) * k));
  return out;
}

/** The value of statement i, given the values of the statements before it and the choice for it. */
export function evalStmt(p: SwzProgram, i: number, vals: readonly Int32Array[], choice: number): Int32Array {
  const s: Stmt = p.stmts[i]!;
  switch (s.rhs.k) {
    case 'lit': return s.rhs.terms;
    case 'fold': return applyFold(p.terms, vals[s.rhs.arg]!, sizeOf(s.shape));
    case 'gather': return applyGather(s.rhs.choices[choice]!, s.rhs.args.map((a) => vals[a]!));
  }
}

// implements [SWZ-EVAL]
/** Every array of the program, holes taking the choices of the filling (in statement order). */
export function evaluate(p: SwzProgram, filling: Filling = []): Int32Array[] {
  const vals: Int32Array[] = [];
  let h = 0;
  p.stmts.forEach((s, i) => {
    const hole = s.rhs.k === 'gather' && s.rhs.hole !== undefined;
    vals.push(evalStmt(p, i, vals, hole ? filling[h++] ?? 0 : 0));
  });
  return vals;
}

/** The first cell where the goal and the last array differ, or -1. */
export function goalMismatch(p: SwzProgram, vals: readonly Int32Array[]): number {
  const g = p.goal;
  if (!g) return -1;
  const v = vals[g.stmt]!;
  for (let k = 0; k < v.length; k++) if (v[k] !== g.terms[k]) return k;
  return -1;
}
