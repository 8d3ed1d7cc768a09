// What each built-in directive must satisfy for its rewrite to be sound (spec/effects.md,
// "Obligations of the directives"), and the generic route that recognises a plug-in's rewrite from
// the programs before and after.
import type { Expr } from '../expr/ast.js';
import type { Obligation } from '../effects/obligation.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { printStmt } from '../target-semantics/print.js';
import { type ForStmt, type StmtPath, children, stmtAt } from '../target-semantics/walk.js';
import { labelOf, nestedLoop, resolveLoop, rewrap } from './loops.js';

const loopPath = (t: TgtProgram, loop: string): StmtPath => resolveLoop(t, loop).path;

/**
 * What no effect condition states: a stage stores at a point a value that depends on
 * the point alone (def. 2.7), and the completion computes every point that is read (def. 2.4) —
 * the bounds engine's promise, which `refsem bounds --verify` checks.
 */
export const COVERAGE = 'the completion computes every point read (def. 2.4), and a stage stores at a point a value of that point alone (def. 2.7)';

export function splitObligations(t: TgtProgram, a: { loop: string; factor: Expr; tail?: string }): Obligation[] {
  const loop = loopPath(t, a.loop);
  if ((a.tail ?? 'guard') === 'guard') return [{ k: 'split-exact', t, loop, factor: a.factor }];
  return [
    { k: 'independent', t, loop },
    { k: 'delegated', what: `the points a ${a.tail} tail adds are points of the func's single pure stage ([SPLIT-TAIL]); ${COVERAGE}` },
  ];
}

export const fuseObligations = (t: TgtProgram, a: { loop: string }): Obligation[] => [{ k: 'fuse-exact', t, loop: loopPath(t, a.loop) }];

export const swapObligations = (t: TgtProgram, a: { loop: string }): Obligation[] => [{ k: 'reorder', t, loop: loopPath(t, a.loop) }];

export function traverseObligations(t: TgtProgram, a: { loop: string; order: 'serial' | 'parallel' }): Obligation[] {
  const l = resolveLoop(t, a.loop);
  return a.order === 'parallel' ? [{ k: 'parallel', t, loop: l.path }] : [{ k: 'serial', loop: l.stmt.var, trav: a.order }];
}

export const orderObligations = (trav: 'vectorize' | 'unroll') => (t: TgtProgram, a: { loop: string }): Obligation[] =>
  [{ k: 'serial', loop: resolveLoop(t, a.loop).stmt.var, trav }];

export const specializeObligations = (t: TgtProgram, a: { func: string }, _ctx: unknown, after: TgtProgram): Obligation[] =>
  [{ k: 'copies', before: t, after, func: a.func }];

/** Bounds-phase directives add hints for the engine, and assertions, whose failure is an allowed outcome (def. 2.3). */
export const boundsObligations = (t: TgtProgram, _a: unknown, _ctx: unknown, after: TgtProgram): Obligation[] => [{ k: 'unchanged', before: t, after }];

/**
 * The statements of the blocks passed on the way from `from` down `rest`: those before (or after)
 * the path. Undefined when the way passes a loop or a branch and `closed` asks for none (a
 * statement taken out of a loop or a branch would run another number of times).
 */
function sideItems(t: TgtProgram, from: StmtPath, rest: StmtPath, side: 'before' | 'after', closed = false): StmtPath[] | undefined {
  const out: StmtPath[] = [];
  let path = from;
  for (const step of rest) {
    const s = stmtAt(t.body, path)!;
    if (s.k === 'seq') {
      const k = step as number;
      for (let i = 0; i < s.body.length; i++) if (side === 'before' ? i < k : i > k) out.push([...path, i]);
    } else if (closed && (s.k === 'for' || s.k === 'if')) {
      return undefined;
    }
    path = [...path, step];
  }
  return out;
}

const commonPrefix = (a: StmtPath, b: StmtPath): number => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/** The outermost loop on the way from `from` to `to` (inclusive), where `to` is a loop. */
function outermostLoop(t: TgtProgram, from: StmtPath, to: StmtPath): StmtPath {
  for (let n = from.length; n <= to.length; n++) if (stmtAt(t.body, to.slice(0, n))?.k === 'for') return to.slice(0, n);
  return to;
}

/**
 * compute-at f at ℓ moves `label f` (P) to the start of ℓ's body: P commutes with every statement
 * it moves past, and nothing the loops it enters do touches what P reads or writes, so running P
 * again in each iteration recomputes the same values (together with COVERAGE).
 */
export function computeAtObligations(t: TgtProgram, a: { func: string; loop: string }): Obligation[] {
  const p = labelOf(t, a.func)!.path;
  const l = loopPath(t, a.loop);
  const c = commonPrefix(p, l);
  const delegated: Obligation = { k: 'delegated', what: COVERAGE };
  const unmodelled = (why: string): Obligation[] => [{ k: 'unmodelled', why }];
  if (c === l.length) {
    // P already inside ℓ: it moves to the front of ℓ's body.
    const past = sideItems(t, [...l, 'body'], p.slice(l.length + 1), 'before', true);
    return past ? [...past.map((b): Obligation => ({ k: 'commutes', t, a: p, b })), delegated] : unmodelled(`'${a.func}' would leave a loop or branch`);
  }
  const block = p.slice(0, c);
  if (stmtAt(t.body, block)?.k !== 'seq' || c === p.length) return unmodelled(`'${a.func}' and ${a.loop} do not share a block`);
  const [i, j] = [p[c] as number, l[c] as number];
  const out = sideItems(t, [...block, i], p.slice(c + 1), 'after', true);
  if (!out) return unmodelled(`'${a.func}' would leave a loop or branch`);
  // P enters the loops and branches on the way to ℓ: it runs with them, which `stable` covers.
  const into = sideItems(t, [...block, j], l.slice(c + 1), i < j ? 'before' : 'after')!;
  const siblings: StmtPath[] = [];
  for (let k = Math.min(i, j) + 1; k < Math.max(i, j); k++) siblings.push([...block, k]);
  // Moving P earlier, into a loop that ran before it, passes that loop's whole body too.
  const past = [...out, ...siblings, ...into, ...(i > j ? [l] : [])];
  return [
    ...past.map((b): Obligation => ({ k: 'commutes', t, a: p, b })),
    { k: 'stable', t, stmt: p, by: [outermostLoop(t, [...block, j], l)] },
    delegated,
  ];
}

/** store-at f at ℓ: a fresh buffer per iteration of ℓ is the same as one buffer when no value of f flows between iterations. */
export const storeAtObligations = (t: TgtProgram, a: { func: string; loop: string }): Obligation[] => [
  { k: 'private', t, loop: loopPath(t, a.loop), buf: a.func },
  { k: 'delegated', what: COVERAGE },
];

/** inline f: evaluating f's definition where it is read gives what `label f` stored when nothing after it changes what it reads. */
export function inlineObligations(t: TgtProgram, a: { func: string }): Obligation[] {
  const p = labelOf(t, a.func)!.path;
  const block = p.slice(0, -1);
  const s = stmtAt(t.body, block);
  const after = s?.k === 'seq' ? s.body.map((_, k) => [...block, k]).slice((p[p.length - 1] as number) + 1) : [];
  return [{ k: 'stable', t, stmt: p, by: after }, { k: 'delegated', what: COVERAGE }];
}

/** The first place, in program order, where two statements differ in anything but their children. */
function firstDifference(a: Stmt, b: Stmt, path: StmtPath = []): StmtPath | undefined {
  if (printStmt(a) === printStmt(b)) return undefined;
  const ca = children(a);
  const cb = children(b);
  const shallow = (s: Stmt) => JSON.stringify({ ...s, body: undefined, then: undefined, else: undefined, loc: undefined });
  if (a.k !== b.k || ca.length !== cb.length || (a.k !== 'seq' && shallow(a) !== shallow(b))) return path;
  for (let i = 0; i < ca.length; i++) {
    const d = firstDifference(ca[i]![1], cb[i]![1], [...path, ca[i]![0]]);
    if (d) return d;
  }
  return path;
}

/**
 * implements [OBL-GENERIC]: a plug-in's rewrite read off the programs before and after: a loop whose traversal
 * alone changed (parallel: `parallel`; serial: `serial`), or two nested loops exchanged as by
 * `swap` (`reorder`). Anything else is unknown.
 */
export function genericObligations(before: TgtProgram, after: TgtProgram): Obligation[] {
  const at = firstDifference(before.body, after.body);
  if (at === undefined) return [{ k: 'unchanged', before, after }];
  const b = stmtAt(before.body, at)!;
  const a = stmtAt(after.body, at)!;
  if (b.k === 'for' && a.k === 'for') {
    if (a.var === b.var && printStmt({ ...a, trav: b.trav }) === printStmt(b)) {
      return [a.trav === 'parallel' ? { k: 'parallel', t: before, loop: at } : { k: 'serial', loop: a.var, trav: a.trav }];
    }
    const nest = nestedLoop(b as ForStmt);
    if (nest && nest.inner.var === a.var && a.body.k === 'for' && a.body.var === b.var) {
      const exchanged = { ...nest.inner, body: { ...b, body: rewrap(nest.wrappers, nest.inner.body) } };
      if (printStmt(exchanged) === printStmt(a)) return [{ k: 'reorder', t: before, loop: at }];
    }
  }
  return [{ k: 'unmodelled', why: 'the generic route recognises a changed traversal and two exchanged nested loops, and this rewrite is neither' }];
}
