// Dominance as the compute and storage phases need it (§2.8.3, §2.8.4, lemma 2.5): after moving
// `label f` or `allocate f`, every access to f — in a store, a guard, a let, a loop bound — and
// every assignment of a func that reads f must still run after f has been computed (unless it is
// inside f's own statement), and everything touching f after f has been allocated. Lemma 2.5 is
// also checked by src/lowering/invariants.ts against the algorithm; this check works on the
// program alone and names the consumer left behind.
import { walkExpr } from '../expr/ast.js';
import { enclosingStage, withDominators } from '../lowering/invariants.js';
import { stageLabel } from '../target-semantics/loop-name.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { printHead } from '../target-semantics/print.js';
import { visitStmts } from '../target-semantics/walk.js';
import { ownExprs } from '../target-semantics/holes.js';
import { funcsOf } from './loops.js';

export interface Violation {
  /** `compute`: f read before `label f` completed; `alloc`: f used before `allocate f` ran. */
  readonly kind: 'compute' | 'alloc';
  readonly func: string;
  /** The func whose statement makes the access (innermost enclosing func label), if any. */
  readonly consumer: string | undefined;
  /** The accessing statement, printed head only. */
  readonly at: string;
  /**
   * Whether that statement reads f itself. An assignment of a stage that reads f elsewhere (in
   * another specialization, or a read outside the stage's label) is a violation because lemma 2.5
   * speaks of all of that stage's assignments.
   */
  readonly reads: boolean;
}

/** The func a statement belongs to: the innermost enclosing func label. */
function innermostFunc(labels: readonly string[], funcs: ReadonlySet<string>): string | undefined {
  return [...labels].reverse().find((l) => funcs.has(l));
}

function stageKey(g: string, labels: readonly string[]): string {
  const i = enclosingStage(g, labels);
  return i === undefined ? g : stageLabel(g, i);
}

/** The funcs a statement's own expressions access. */
function accessedBy(s: Stmt): Set<string> {
  const out = new Set<string>();
  for (const e of ownExprs(s)) walkExpr(e, (x) => void (x.k === 'access' && out.add(x.func)));
  return out;
}

/**
 * For each stage that reads other funcs outside their own statements, the funcs it reads: keyed
 * `g.s<i>`, or `g` for a read outside any stage label of its func g, which then answers for all
 * of g's stages.
 */
function readsByStage(t: TgtProgram, funcs: ReadonlySet<string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  visitStmts(t.body, (s, _path, labels) => {
    const reader = innermostFunc(labels, funcs);
    if (reader === undefined) return;
    for (const f of accessedBy(s)) {
      if (f === reader) continue;
      const key = stageKey(reader, labels);
      const set = out.get(key) ?? new Set<string>();
      set.add(f);
      out.set(key, set);
    }
  });
  return out;
}

/**
 * The violations of every func, found in one walk: the directives ask about each func of one
 * program in turn (compute-at checks all of them after a move), so the answers are kept per
 * program, which is immutable.
 */
const violationsByProgram = new WeakMap<TgtProgram, Map<string, Violation[]>>();

function allViolations(t: TgtProgram): Map<string, Violation[]> {
  const known = violationsByProgram.get(t);
  if (known) return known;
  const funcs = new Set(funcsOf(t));
  const stageReads = readsByStage(t, funcs);
  const none = new Set<string>();
  const out = new Map<string, Violation[]>();
  withDominators(t.body, funcs, (s, dom, labels) => {
    const consumer = innermostFunc(labels, funcs);
    const accessed = accessedBy(s);
    // A consumer's assignment answers for its whole stage: the funcs any part of that stage reads.
    const stageReadsOf = s.k === 'store' ? new Set([...(stageReads.get(s.func) ?? none), ...(stageReads.get(stageKey(s.func, labels)) ?? none)]) : none;
    const concerned = new Set([...accessed, ...stageReadsOf]);
    if (s.k === 'store') concerned.add(s.func);
    if (s.k === 'label') concerned.add(s.name);
    for (const f of concerned) {
      const reads = accessed.has(f);
      const report = (kind: Violation['kind']) => {
        const list = out.get(f) ?? [];
        list.push({ kind, func: f, consumer, at: printHead(s), reads });
        out.set(f, list);
      };
      const writes = s.k === 'store' && s.func === f;
      // Only f's own statements may touch f before it completes (its stages build on each other);
      // another func's statement nested inside f's label (compute-at into a producer's loop) may not.
      const insideF = consumer === f;
      if ((reads || writes || (s.k === 'label' && s.name === f)) && !dom.has(`alloc ${f}`)) report('alloc');
      if ((reads || stageReadsOf.has(f)) && !insideF && !dom.has(`done ${f}`)) report('compute');
    }
  });
  violationsByProgram.set(t, out);
  return out;
}

/**
 * Every access to `f`, every assignment of a stage that reads f (lemma 2.5 per stage speaks of all
 * of that stage's assignments, not only those that read f) and every statement of f's own that is
 * not dominated as it must be, in program order.
 */
export function dominanceViolations(t: TgtProgram, f: string): Violation[] {
  return allViolations(t).get(f) ?? [];
}
