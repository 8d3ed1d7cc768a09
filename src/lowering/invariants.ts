// The structural invariants that lowering establishes and every scheduling directive must keep
// (§2.6): lemma 2.4 (every loop is named by ⟨func, stage, specialization, variable⟩, uniquely) and
// lemma 2.5 (producers are computed before their consumers' assignments, and allocated before
// they are computed). Both checkers return the violations they find; an empty list means the
// invariant holds.
import { walkExpr } from '../expr/ast.js';
import type { Pipeline } from '../alg-semantics/ast.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { parseLoopName, showLoopName, stageLabel } from '../target-semantics/loop-name.js';
import { printHead } from '../target-semantics/print.js';
import { type ForStmt, children, loopsOf, visitStmts } from '../target-semantics/walk.js';

/** Rule IDs of spec/lowering.md; every violation message starts with one. */
export const LOOP_NAMING = 'LOOP-NAMING';
export const DOMINANCE = 'DOMINANCE';

/**
 * Lemma 2.4: every loop's induction variable spells a name ⟨f, i, j, v⟩, no two loops share one,
 * and the loop sits inside `label f` and, within it, inside the stage label `f.s<i>`.
 */
export function checkLoopNaming(t: TgtProgram): string[] {
  const found: string[] = [];
  const fail = (m: string) => found.push(`[${LOOP_NAMING}] ${m}`);
  const seen = new Map<string, ForStmt>();
  for (const l of loopsOf(t)) {
    if (!l.name) {
      fail(`loop '${l.stmt.var}' is not named ⟨func, stage, specialization, variable⟩ (expected f.s<i>.v or f.s<i>.k<j>.v): ${printHead(l.stmt)}`);
      continue;
    }
    const key = showLoopName(l.name);
    if (key !== l.stmt.var) fail(`loop '${l.stmt.var}' should be spelled '${key}'`);
    const before = seen.get(key);
    if (before !== undefined) fail(`two loops are named ${key}: ${printHead(before)} and ${printHead(l.stmt)}`);
    else seen.set(key, l.stmt);
    const fAt = l.labels.lastIndexOf(l.name.func);
    const sAt = l.labels.lastIndexOf(stageLabel(l.name.func, l.name.stage));
    if (fAt < 0) fail(`loop ${key} is not inside 'label ${l.name.func}'`);
    else if (sAt < fAt) fail(`loop ${key} is not inside 'label ${stageLabel(l.name.func, l.name.stage)}' within 'label ${l.name.func}'`);
  }
  return found;
}

/**
 * Facts that hold after a statement has run to completion on every path: `alloc f` (f has been
 * allocated) and `done f` (the statement `label f`, which holds all of f's loops, has finished).
 * A loop may run zero times and an if runs one branch, so facts from inside a loop do not
 * escape it and an if keeps only the facts both branches establish.
 */
function established(s: Stmt, funcs: ReadonlySet<string>): Set<string> {
  switch (s.k) {
    case 'allocate':
      return new Set([`alloc ${s.func}`]);
    case 'seq':
      return new Set(s.body.flatMap((b) => [...established(b, funcs)]));
    case 'label': {
      const inner = established(s.body, funcs);
      if (funcs.has(s.name)) inner.add(`done ${s.name}`);
      return inner;
    }
    case 'let':
      return established(s.body, funcs);
    case 'if': {
      const b = established(s.else, funcs);
      return new Set([...established(s.then, funcs)].filter((x) => b.has(x)));
    }
    default:
      return new Set();
  }
}

/**
 * Calls f on every statement, in program order, with the facts that dominate it (hold whenever it
 * starts) and the names of its enclosing labels, outermost first. Shared with the scheduler's
 * dominance check (src/schedule/dominance.ts).
 */
export function withDominators(
  s: Stmt,
  funcs: ReadonlySet<string>,
  f: (s: Stmt, dom: ReadonlySet<string>, labels: readonly string[]) => void,
  dom: ReadonlySet<string> = new Set(),
  labels: readonly string[] = [],
): void {
  f(s, dom, labels);
  const inner = s.k === 'label' ? [...labels, s.name] : labels;
  if (s.k === 'seq') {
    const acc = new Set(dom);
    for (const b of s.body) {
      withDominators(b, funcs, f, new Set(acc), inner);
      for (const x of established(b, funcs)) acc.add(x);
    }
  } else {
    for (const [, c] of children(s)) withDominators(c, funcs, f, dom, inner);
  }
}

/**
 * The funcs each stage of each func refers to, other than the func itself: "f appears in g" of
 * lemma 2.5, read per stage (docs/proofs/halide.md, "Lemma 2.5 per stage").
 */
function producersOf(p: Pipeline): Map<string, Set<string>[]> {
  const out = new Map<string, Set<string>[]>();
  for (const g of p.funcs) {
    out.set(g.name, g.stages.map((u) => {
      const uses = new Set<string>();
      for (const e of [...u.lhs, u.rhs, u.pred, ...u.rdom.flatMap((r) => [r.min, r.len])]) {
        walkExpr(e, (x) => {
          if (x.k === 'access' && x.func !== g.name) uses.add(x.func);
        });
      }
      return uses;
    }));
  }
  return out;
}

/** The stage of func g whose statement encloses a statement, from its labels (undefined: none). */
export function enclosingStage(g: string, labels: readonly string[]): number | undefined {
  for (let k = labels.length - 1; k >= 0; k--) {
    const l = labels[k]!;
    if (!l.startsWith(`${g}.s`)) continue;
    const i = Number(l.slice(g.length + 2));
    if (Number.isInteger(i) && l === stageLabel(g, i)) return i;
  }
  return undefined;
}

/** The funcs the program allocates: a func of the algorithm it does not allocate was inlined. */
function allocated(t: TgtProgram): Set<string> {
  const out = new Set<string>();
  visitStmts(t.body, (s) => void (s.k === 'allocate' && out.add(s.func)));
  return out;
}

/**
 * The producers a func reads in the program: an inlined producer (spec/schedule.md, [INLINE]) is
 * replaced by the producers its definition reads, since those reads now sit in the consumer.
 */
function computedProducers(direct: ReadonlyMap<string, readonly ReadonlySet<string>[]>, present: ReadonlySet<string>): Map<string, Set<string>[]> {
  const all = new Map([...direct].map(([g, st]) => [g, new Set(st.flatMap((u) => [...u]))]));
  const expand = (f: string, seen: Set<string>): string[] =>
    present.has(f) ? [f] : seen.has(f) ? [] : (seen.add(f), [...(all.get(f) ?? [])].flatMap((h) => expand(h, seen)));
  return new Map([...direct].map(([g, st]) => [g, st.map((fs) => new Set([...fs].flatMap((f) => expand(f, new Set()))))]));
}

/**
 * Lemma 2.5, per stage: for every func f used in stage i of g, `label f` (all of f's loops) has
 * completed before each assignment of stage i of g starts; and `allocate f` dominates every loop of
 * f and every assignment to f. An assignment outside any stage label of g answers for all stages.
 */
export function checkDominance(t: TgtProgram, p: Pipeline): string[] {
  const found: string[] = [];
  const fail = (m: string) => found.push(`[${DOMINANCE}] ${m}`);
  const funcs = new Set(p.funcs.map((f) => f.name));
  const producers = computedProducers(producersOf(p), allocated(t));
  withDominators(t.body, funcs, (s, dom, labels) => {
    if (s.k === 'store') {
      const stages = producers.get(s.func) ?? [];
      const i = enclosingStage(s.func, labels);
      for (const f of new Set((i === undefined ? stages : stages.slice(i, i + 1)).flatMap((u) => [...u]))) {
        if (!dom.has(`done ${f}`)) fail(`the loops for ${f} do not dominate the assignment to ${s.func}: ${printHead(s)}`);
      }
      if (!dom.has(`alloc ${s.func}`)) fail(`allocate ${s.func} does not dominate the assignment: ${printHead(s)}`);
    } else if (s.k === 'for') {
      const n = parseLoopName(s.var);
      if (n && !dom.has(`alloc ${n.func}`)) fail(`allocate ${n.func} does not dominate loop ${s.var}`);
    }
  });
  return found;
}
