// Dominance as the compute and storage phases need it (§2.8.3, §2.8.4, lemma 2.5): after moving
// `label f` or `allocate f`, every access to f — in a store, a guard, a let, a loop bound — and
// every assignment of a func that reads f must still run after f has been computed (unless it is
// inside f's own statement), and everything touching f after f has been allocated. Lemma 2.5 is
// also checked by src/lowering/invariants.ts against the algorithm; this check works on the
// program alone and names the consumer left behind.
import { walkExpr } from '../expr/ast.js';
import { enclosingStage, withDominators } from '../lowering/invariants.js';
import { stageLabel } from '../target-semantics/loop-name.js';
import type { TgtProgram } from '../target-semantics/ast.js';
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

/**
 * The stages whose statements read f outside f's own statements, as `g.s<i>` (or `g` for a read
 * outside any stage label of its func g, which then answers for all of g's stages).
 */
function readingStages(t: TgtProgram, f: string, funcs: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  visitStmts(t.body, (s, _path, labels) => {
    const reader = innermostFunc(labels, funcs);
    if (reader === f || reader === undefined) return;
    for (const e of ownExprs(s)) {
      walkExpr(e, (x) => {
        if (x.k === 'access' && x.func === f) out.add(stageKey(reader, labels));
      });
    }
  });
  return out;
}

function stageKey(g: string, labels: readonly string[]): string {
  const i = enclosingStage(g, labels);
  return i === undefined ? g : stageLabel(g, i);
}

/**
 * Every access to `f`, every assignment of a stage that reads f (lemma 2.5 per stage speaks of all
 * of that stage's assignments, not only those that read f) and every statement of f's own that is
 * not dominated as it must be.
 */
export function dominanceViolations(t: TgtProgram, f: string): Violation[] {
  const funcs = new Set(funcsOf(t));
  const stages = readingStages(t, f, funcs);
  const readsF = (g: string, labels: readonly string[]) => stages.has(g) || stages.has(stageKey(g, labels));
  const out: Violation[] = [];
  withDominators(t.body, funcs, (s, dom, labels) => {
    const consumer = innermostFunc(labels, funcs);
    let reads = false;
    for (const e of ownExprs(s)) walkExpr(e, (x) => void (x.k === 'access' && x.func === f && (reads = true)));
    const report = (kind: Violation['kind']) => out.push({ kind, func: f, consumer, at: printHead(s), reads });
    const writes = s.k === 'store' && s.func === f;
    // Only f's own statements may touch f before it completes (its stages build on each other);
    // another func's statement nested inside f's label (compute-at into a producer's loop) may not.
    const insideF = consumer === f;
    if ((reads || writes || (s.k === 'label' && s.name === f)) && !dom.has(`alloc ${f}`)) report('alloc');
    const consumerStore = s.k === 'store' && readsF(s.func, labels);
    if ((reads || consumerStore) && !insideF && !dom.has(`done ${f}`)) report('compute');
  });
  return out;
}
