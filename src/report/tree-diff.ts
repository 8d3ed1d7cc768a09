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
  /** the parent's identity in the diff */
  readonly up: string | undefined;
  readonly index: number;
}

const baseKey = (n: TreeNode) => n.key.replace(/#\d+$/, '');
const firstLoop = (n: TreeNode): string | undefined => n.children.map((c) => (c.k === 'for' ? c.key : firstLoop(c))).find((x) => x !== undefined);

/**
 * The nodes of a tree by their identity in a diff: their key, except for a name that occurs more
 * than once in either tree (a stage label that specialize copies, §2.8.1), which is told apart by
 * the first loop inside it (loop names are unique, lemma 2.4) rather than by its place in the order.
 */
function index(tree: LoopTree, repeated: ReadonlySet<string>): Map<string, Placed> {
  const m = new Map<string, Placed>();
  const ids = new Map<TreeNode, string>();
  const id = (n: TreeNode) => (repeated.has(baseKey(n)) && n.k !== 'for' ? `${baseKey(n)} around ${firstLoop(n) ?? n.key}` : n.key);
  const go = (ns: readonly TreeNode[], parent: TreeNode | undefined) =>
    ns.forEach((n) => {
      // two copies around the same loop (or none) fall back on their keys
      const k = m.has(id(n)) ? n.key : id(n);
      ids.set(n, k);
      m.set(k, { node: n, parent, up: parent && ids.get(parent), index: m.size });
      go(n.children, n);
    });
  go(tree.roots, undefined);
  return m;
}

/** Names that occur more than once in either tree. */
function repeats(...trees: LoopTree[]): Set<string> {
  const out = new Set<string>();
  for (const t of trees) {
    const seen = new Set<string>();
    for (const n of treeNodes(t)) (seen.has(baseKey(n)) ? out.add(baseKey(n)) : seen.add(baseKey(n)));
  }
  return out;
}

/** A node as a change names it: its identity (`for f.s0.x`, `allocate g`). */
const short = (n: TreeNode) => n.key;
/** Where a node sits: `inside for f.s0.xo`, or `at the top level`. */
const where = (p: TreeNode | undefined) => (p ? `inside ${short(p)}` : 'at the top level');
const STRUCTURAL: readonly ChangeKind[] = ['split', 'fused', 'renamed', 'replaced', 'added'];

/**
 * The changes that turn tree `a` into tree `b`, in a fixed order:
 * loops replaced (split, fused, renamed), then the nodes of `b` in program order (moved, kind,
 * bounds, added), then the nodes of `a` that are gone.
 */
export function diffTrees(a: LoopTree, b: LoopTree): TreeChange[] {
  // implements [REPORT-TREE-DIFF]
  const repeated = repeats(a, b);
  const [ia, ib] = [index(a, repeated), index(b, repeated)];
  const both = (id: string | undefined) => id !== undefined && ia.has(id) && ib.has(id);
  const keyA = (id: string) => ia.get(id)!.node.key;
  const keyB = (id: string) => ib.get(id)!.node.key;
  const changes: TreeChange[] = [];

  // Loops replaced by others: the old variable survives as a `let` of the new loops' variables
  // (split and fuse keep it so, §2.8.1), or, from a schedule that split to one that did not, the
  // new variable was a `let` of the old ones. Each group of loops linked so is one change.
  const gone = new Map([...ia].filter(([id, p]) => p.node.k === 'for' && !ib.has(id)).map(([id, p]) => [p.node.name, id]));
  const fresh = new Map([...ib].filter(([id, p]) => p.node.k === 'for' && !ia.has(id)).map(([id, p]) => [p.node.name, id]));
  const reads = (derived: LoopTree['derived'], loops: Map<string, string>, v: string, seen = new Set<string>()): string[] => {
    if (seen.has(v)) return [];
    seen.add(v);
    return (derived[v] ?? []).flatMap((u) => (loops.has(u) ? [loops.get(u)!] : reads(derived, loops, u, seen)));
  };
  const links = [
    ...[...gone].flatMap(([name, id]) => reads(b.derived, fresh, name).map((to) => [id, to] as const)),
    ...[...fresh].flatMap(([name, id]) => reads(a.derived, gone, name).map((from) => [from, id] as const)),
  ];
  const groups: { before: string[]; after: string[] }[] = [];
  for (const [from, to] of links) {
    const joined = groups.filter((g) => g.before.includes(from) || g.after.includes(to));
    for (const j of joined) groups.splice(groups.indexOf(j), 1);
    groups.push({ before: [...new Set([from, ...joined.flatMap((j) => j.before)])], after: [...new Set([to, ...joined.flatMap((j) => j.after)])] });
  }
  const grouped = new Set(groups.flatMap((g) => [...g.before, ...g.after]));
  for (const g of groups) {
    g.before.sort((x, y) => ia.get(x)!.index - ia.get(y)!.index);
    g.after.sort((x, y) => ib.get(x)!.index - ib.get(y)!.index);
    const [olds, news] = [g.before.map((id) => ia.get(id)!.node.name).join(', '), g.after.map((id) => ib.get(id)!.node.name).join(', ')];
    const kind: ChangeKind = g.before.length === 1 ? (g.after.length === 1 ? 'renamed' : 'split') : g.after.length === 1 ? 'fused' : 'replaced';
    const verb = { split: 'split into', fused: 'fused into', renamed: 'renamed', replaced: 'replaced by' }[kind as 'split'];
    changes.push({ kind, before: g.before.map(keyA), after: g.after.map(keyB), text: `loop ${olds} ${verb} ${news}` });
  }

  // Where a surviving node sits: the nearest node around it that both trees have.
  const anchor = (m: Map<string, Placed>, id: string): string => {
    let up = m.get(id)!.up;
    while (up !== undefined && !both(up)) up = m.get(up)!.up;
    return up ?? '';
  };
  // A node moved when the surviving nodes around it differ, unless the node it now sits in moved
  // the same way (what is inside a moved block, or the body of two swapped loops, did not move).
  const around = (m: Map<string, Placed>, id: string): Set<string> => {
    const out = new Set<string>();
    for (let up = m.get(id)!.up; up !== undefined; up = m.get(up)!.up) if (both(up)) out.add(up);
    return out;
  };
  const shifts = new Map<string, string>();
  const shift = (id: string): string => {
    if (shifts.has(id)) return shifts.get(id)!;
    const [x, y] = [around(ia, id), around(ib, id)];
    const d = [...[...x].filter((k) => !y.has(k)).map((k) => `-${k}`), ...[...y].filter((k) => !x.has(k)).map((k) => `+${k}`)].sort().join('\n');
    shifts.set(id, d);
    return d;
  };
  const moved = (id: string): boolean => shift(id) !== '' && shift(id) !== (anchor(ib, id) === '' ? '' : shift(anchor(ib, id)));
  // Survivors that keep their anchor but change places among their siblings (a reorder of blocks).
  const reordered = new Set<string>();
  const siblings = new Map<string, string[]>();
  for (const id of ib.keys()) {
    if (!both(id) || moved(id) || anchor(ia, id) !== anchor(ib, id)) continue;
    const at = siblings.get(anchor(ib, id));
    if (at) at.push(id);
    else siblings.set(anchor(ib, id), [id]);
  }
  for (const ids of siblings.values()) for (const id of outOfOrder(ids, (x) => ia.get(x)!.index)) reordered.add(id);
  // Only the outermost node added or removed is listed: what is inside it came or went with it.
  const inner = (other: Map<string, Placed>, up: string | undefined) => up !== undefined && !other.has(up) && !grouped.has(up);

  for (const [id, { node, parent, up }] of ib) {
    if (!ia.has(id)) {
      if (!grouped.has(id) && !inner(ia, up)) changes.push({ kind: 'added', before: [], after: [node.key], text: `${nodeHead(node)} added ${where(parent)}` });
      continue;
    }
    const old = ia.get(id)!;
    const k = [node.key];
    if (moved(id)) changes.push({ kind: 'moved', before: [old.node.key], after: k, text: `${short(node)} moved: was ${where(old.parent)}, now ${where(parent)}` });
    else if (reordered.has(id)) changes.push({ kind: 'moved', before: [old.node.key], after: k, text: `${short(node)} moved among its siblings ${where(parent)}` });
    if (node.trav !== old.node.trav) changes.push({ kind: 'kind', before: [old.node.key], after: k, text: `loop ${node.name}: ${TRAV_WORD[old.node.trav!]} → ${TRAV_WORD[node.trav!]}` });
    if (node.bounds !== old.node.bounds) changes.push({ kind: 'bounds', before: [old.node.key], after: k, text: `${short(node)}: ${old.node.bounds} → ${node.bounds}` });
  }
  for (const [id, { node, parent, up }] of ia) {
    if (ib.has(id) || grouped.has(id) || inner(ib, up)) continue;
    changes.push({ kind: 'removed', before: [node.key], after: [], text: `${nodeHead(node)} removed ${where(parent)}` });
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

/** The change that undoes a change of this kind. */
const INVERSE: Readonly<Record<ChangeKind, ChangeKind>> = {
  split: 'fused', fused: 'split', added: 'removed', removed: 'added', renamed: 'renamed', replaced: 'replaced', moved: 'moved', kind: 'kind', bounds: 'bounds',
};

/**
 * Names the directive behind each change of a diff between two schedules' final trees, by the
 * first of these tests that some directive passes, the schedule's last such directive before the
 * base's: a change of the same kind to one of the same nodes (in the base: the inverse change, a
 * split for a fuse); the change that made the node (a split fixes its loops' bounds; in the base,
 * made the node that is gone); any change to one of the same nodes. A base directive is one whose
 * change this schedule does not make; a change no directive touched names none (spec/report.md,
 * [REPORT-TREE-DIFF]).
 */
export function attribute(changes: readonly TreeChange[], steps: readonly StepChanges[], baseSteps: readonly StepChanges[]): TreeChange[] {
  const meets = (x: readonly string[], y: readonly string[]) => x.some((k) => y.includes(k));
  const keys = (c: TreeChange) => [...c.before, ...c.after];
  type Test = (c: TreeChange, d: TreeChange) => boolean;
  const tests: [Test, Test][] = [
    [(c, d) => d.kind === c.kind && meets(keys(d), keys(c)), (c, d) => d.kind === INVERSE[c.kind] && meets(keys(d), keys(c))],
    [(c, d) => STRUCTURAL.includes(d.kind) && meets(d.after, c.after), (c, d) => STRUCTURAL.includes(d.kind) && meets(d.after, c.before)],
    [(c, d) => meets(keys(d), keys(c)), (c, d) => meets(keys(d), keys(c))],
  ];
  const last = (list: readonly StepChanges[], c: TreeChange, test: Test) => [...list].reverse().find((s) => s.changes.some((d) => test(c, d)))?.by;
  return changes.map((c) => {
    for (const [mine, base] of tests) {
      const here = last(steps, c, mine);
      if (here) return { ...c, by: { directive: here, base: false } };
      const there = last(baseSteps, c, base);
      if (there) return { ...c, by: { directive: there, base: true } };
    }
    return c;
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
