// What changed between two loop nests (loop-tree.ts) of one algorithm: loops split, fused or
// renamed, nodes moved to another place, loops whose traversal or bounds changed, nodes added or
// removed. Nodes are matched by their identity (loop names are unique, lemma 2.4; a func is
// allocated and labelled once per specialization), not by position, so a block that compute-at
// moves (§2.8.3) reads as one move rather than as lines deleted and added again
// (spec/report.md, [REPORT-TREE-DIFF]).
import type { DirectiveCall } from '../schedule/plugin.js';
import { callPlace, printCall } from '../schedule/print.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { loopTree, type LoopTree, nodeHead, type TreeNode, TRAV_WORD, treeNodes } from './loop-tree.js';

export type ChangeKind = 'split' | 'fused' | 'renamed' | 'replaced' | 'moved' | 'kind' | 'bounds' | 'added' | 'removed';

export interface TreeChange {
  readonly kind: ChangeKind;
  /** the nodes of the new tree the change concerns (none for a removal) */
  readonly after: readonly string[];
  /** the nodes of the old tree it concerns (none for an addition) */
  readonly before: readonly string[];
  readonly text: string;
  /** the directive that made the change, where it is known; `base`: a directive of the base schedule whose change this one does not make */
  readonly by?: { readonly directive: string; readonly base: boolean };
}

/** How a change names its directive: `by [SPLIT] split f.x by 3 (s.sched:1:1)`. */
export function showBy(c: TreeChange): string {
  return c.by ? (c.by.base ? `undoes the base's ${c.by.directive}` : `by ${c.by.directive}`) : '';
}

interface Placed {
  readonly node: TreeNode;
  readonly parent: TreeNode | undefined;
  readonly index: number;
}

function index(tree: LoopTree): Map<string, Placed> {
  const m = new Map<string, Placed>();
  const go = (ns: readonly TreeNode[], parent: TreeNode | undefined) => ns.forEach((n) => (m.set(n.key, { node: n, parent, index: m.size }), go(n.children, n)));
  go(tree.roots, undefined);
  return m;
}

/** A node as a change names it: its identity (`for f.s0.x`, `allocate g`). */
const short = (n: TreeNode) => n.key;
/** Where a node sits: `inside for f.s0.xo`, or `at the top level`. */
const where = (p: TreeNode | undefined) => (p ? `inside ${short(p)}` : 'at the top level');
const STRUCTURAL: readonly ChangeKind[] = ['split', 'fused', 'renamed', 'replaced', 'added'];
const loopName = (key: string) => key.slice('for '.length);

/**
 * The changes that turn tree `a` into tree `b` (implements [REPORT-TREE-DIFF]), in a fixed order:
 * loops replaced (split, fused, renamed), then the nodes of `b` in program order (moved, kind,
 * bounds, added), then the nodes of `a` that are gone.
 */
export function diffTrees(a: LoopTree, b: LoopTree): TreeChange[] {
  const [ia, ib] = [index(a), index(b)];
  const both = (k: string) => ia.has(k) && ib.has(k);
  const changes: TreeChange[] = [];

  // Loops replaced by others: the old variable survives as a `let` of the new loops' variables
  // (split and fuse keep it so, §2.8.1). Each group of old and new loops linked so is one change.
  const gone = [...ia.values()].filter((p) => p.node.k === 'for' && !ib.has(p.node.key)).map((p) => p.node.key);
  const fresh = new Set([...ib.values()].filter((p) => p.node.k === 'for' && !ia.has(p.node.key)).map((p) => p.node.name));
  const reads = (v: string, seen = new Set<string>()): string[] => {
    if (seen.has(v)) return [];
    seen.add(v);
    return (b.derived[v] ?? []).flatMap((u) => (fresh.has(u) ? [u] : reads(u, seen)));
  };
  const groups: { before: string[]; after: string[] }[] = [];
  for (const old of gone) {
    const made = [...new Set(reads(loopName(old)))].map((n) => `for ${n}`);
    if (made.length === 0) continue;
    const joined = groups.filter((g) => g.after.some((k) => made.includes(k)));
    const g = { before: [old, ...joined.flatMap((j) => j.before)], after: [...new Set([...made, ...joined.flatMap((j) => j.after)])] };
    for (const j of joined) groups.splice(groups.indexOf(j), 1);
    groups.push(g);
  }
  const grouped = new Set(groups.flatMap((g) => [...g.before, ...g.after]));
  for (const g of groups) {
    g.before.sort((x, y) => ia.get(x)!.index - ia.get(y)!.index);
    g.after.sort((x, y) => ib.get(x)!.index - ib.get(y)!.index);
    const [olds, news] = [g.before.map(loopName).join(', '), g.after.map(loopName).join(', ')];
    const kind: ChangeKind = g.before.length === 1 ? (g.after.length === 1 ? 'renamed' : 'split') : g.after.length === 1 ? 'fused' : 'replaced';
    const verb = { split: 'split into', fused: 'fused into', renamed: 'renamed', replaced: 'replaced by' }[kind as 'split'];
    changes.push({ kind, before: g.before, after: g.after, text: `loop ${olds} ${verb} ${news}` });
  }

  // Where a surviving node sits: the nearest node around it that both trees have.
  const anchor = (m: Map<string, Placed>, k: string): string => {
    let p = m.get(k)!.parent;
    while (p && !both(p.key)) p = m.get(p.key)!.parent;
    return p?.key ?? '';
  };
  // Survivors that keep their anchor but change places among their siblings (a reorder of blocks).
  const reordered = new Set<string>();
  const siblings = new Map<string, string[]>();
  for (const k of ib.keys()) if (both(k) && anchor(ia, k) === anchor(ib, k)) siblings.set(anchor(ib, k), [...(siblings.get(anchor(ib, k)) ?? []), k]);
  for (const ks of siblings.values()) for (const k of outOfOrder(ks, (x) => ia.get(x)!.index)) reordered.add(k);

  for (const [k, { node, parent }] of ib) {
    if (!ia.has(k)) {
      if (!grouped.has(k) && !(parent && !ia.has(parent.key) && !grouped.has(parent.key))) changes.push({ kind: 'added', before: [], after: [k], text: `${nodeHead(node)} added ${where(parent)}` });
      continue;
    }
    const old = ia.get(k)!;
    if (anchor(ia, k) !== anchor(ib, k)) changes.push({ kind: 'moved', before: [k], after: [k], text: `${short(node)} moved: was ${where(old.parent)}, now ${where(parent)}` });
    else if (reordered.has(k)) changes.push({ kind: 'moved', before: [k], after: [k], text: `${short(node)} moved among its siblings ${where(parent)}` });
    if (node.trav !== old.node.trav) changes.push({ kind: 'kind', before: [k], after: [k], text: `loop ${node.name}: ${TRAV_WORD[old.node.trav!]} → ${TRAV_WORD[node.trav!]}` });
    if (node.bounds !== old.node.bounds) changes.push({ kind: 'bounds', before: [k], after: [k], text: `${short(node)}: ${old.node.bounds} → ${node.bounds}` });
  }
  for (const [k, { node, parent }] of ia) {
    if (ib.has(k) || grouped.has(k) || (parent && !ib.has(parent.key) && !grouped.has(parent.key))) continue;
    changes.push({ kind: 'removed', before: [k], after: [], text: `${nodeHead(node)} removed ${where(parent)}` });
  }
  return changes;
}

/** The keys of `ks` outside one longest run that keeps the order `pos` gives them (few siblings: quadratic is fine). */
function outOfOrder(ks: readonly string[], pos: (k: string) => number): string[] {
  const p = ks.map(pos);
  const len = p.map(() => 1);
  const prev = p.map(() => -1);
  for (let i = 0; i < p.length; i++) for (let j = 0; j < i; j++) if (p[j]! < p[i]! && len[j]! + 1 > len[i]!) (len[i] = len[j]! + 1, (prev[i] = j));
  let best = len.indexOf(Math.max(0, ...len));
  const keep = new Set<number>();
  for (; best >= 0; best = prev[best]!) keep.add(best);
  return ks.filter((_, i) => !keep.has(i));
}

/** The changes one directive made: the trees before and after it. */
export interface StepChanges {
  readonly by: string;
  readonly changes: readonly TreeChange[];
}

/**
 * Names the directive behind each change of a diff between two schedules' final trees: the last
 * directive of the schedule that made a change of the same kind to one of the same nodes, else the
 * one that made the node (a split, say, fixes its loops' bounds), else the last that touched it at
 * all; failing those, the same search in the base schedule, whose change this schedule does not
 * make. A change no directive touched keeps no name (spec/report.md, [REPORT-TREE-DIFF]).
 */
export function attribute(changes: readonly TreeChange[], steps: readonly StepChanges[], baseSteps: readonly StepChanges[]): TreeChange[] {
  const keys = (c: TreeChange) => [...c.before, ...c.after];
  const tests: ((c: TreeChange, d: TreeChange) => boolean)[] = [
    (c, d) => d.kind === c.kind && keys(d).some((k) => keys(c).includes(k)),
    (c, d) => STRUCTURAL.includes(d.kind) && d.after.some((k) => c.after.includes(k)),
    (c, d) => keys(d).some((k) => keys(c).includes(k)),
  ];
  const find = (c: TreeChange, list: readonly StepChanges[]) => {
    for (const test of tests) {
      for (let i = list.length - 1; i >= 0; i--) if (list[i]!.changes.some((d) => test(c, d))) return list[i]!.by;
    }
    return undefined;
  };
  return changes.map((c) => {
    const here = find(c, steps);
    if (here) return { ...c, by: { directive: here, base: false } };
    const base = find(c, baseSteps);
    return base ? { ...c, by: { directive: base, base: true } } : c;
  });
}

/** The nodes of a tree each change marks, by key, with the kinds of change: for drawing marks on the new tree. */
export function marksOf(tree: LoopTree, changes: readonly TreeChange[]): Map<string, ChangeKind[]> {
  const m = new Map<string, ChangeKind[]>();
  const keys = new Set(treeNodes(tree).map((n) => n.key));
  for (const c of changes) for (const k of c.after) if (keys.has(k)) m.set(k, [...(m.get(k) ?? []), c.kind]);
  return m;
}

/** A directive as a change names it: `[SPLIT] split f.x by 3 (s.sched:1:1)`. */
export function directiveName(c: DirectiveCall): string {
  return `${c.directive.rule ? `[${c.directive.rule}] ` : ''}${printCall(c)} (${callPlace(c)})`;
}

/** The changes of each directive of a schedule, from the program before it to the one after. */
export function stepChanges(t0: TgtProgram, steps: readonly { readonly call: DirectiveCall; readonly t: TgtProgram }[]): StepChanges[] {
  let prev = loopTree(t0);
  return steps.map(({ call, t }) => {
    const next = loopTree(t);
    const changes = diffTrees(prev, next);
    prev = next;
    return { by: directiveName(call), changes };
  });
}
