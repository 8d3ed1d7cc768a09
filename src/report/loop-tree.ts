// The loop nest of a target program (fig. 2.7) as a tree: its loops with their traversal order
// and bounds, the allocations and labels (the realization of each func and stage), and the stores.
// It is what a schedule changes (§2.8: directives rewrite loops, move labels and allocations), so
// a learner reads the effect of a directive here without the expressions around it. Everything is
// read off the program's statements; nothing is inferred from the schedule (spec/report.md,
// [REPORT-TREE]).
import { freeVars, refKey } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import type { Stmt, TgtProgram, Trav } from '../target-semantics/ast.js';
import { children, visitStmts } from '../target-semantics/walk.js';

export type TreeNodeKind = 'for' | 'allocate' | 'label' | 'store';

export interface TreeNode {
  readonly k: TreeNodeKind;
  /** the loop's induction variable, the allocated or stored func, the label */
  readonly name: string;
  /** the node's identity within its tree: `for f.s0.x`, `allocate g`, `label g.s0`, `store g@s1`; `#2`, `#3` … on repeats */
  readonly key: string;
  /** loops only */
  readonly trav?: Trav;
  /** loops: `(min, len)`; allocations: `x in (min, len), …`; stores: `[index, …]` (Tgt syntax) */
  readonly bounds: string;
  readonly children: readonly TreeNode[];
}

export interface LoopTree {
  readonly output: string;
  readonly roots: readonly TreeNode[];
  /**
   * Variables a `let` defines from loop variables, with the variables its value reads: how a split
   * or a fuse keeps the old loop variable (§2.8.1). The diff of two trees reads them (tree-diff.ts).
   */
  readonly derived: Readonly<Record<string, readonly string[]>>;
}

const ex = (e: Parameters<typeof printExpr>[0]) => printExpr(e, 'tgt');

/** How a loop's traversal reads in the tree: every loop says its kind, serial ones too. */
export const TRAV_WORD: Readonly<Record<Trav, string>> = { serial: 'serial', parallel: 'parallel', vectorize: 'vectorized', unroll: 'unrolled' };

/**
 * The loop nest of `t`. `for`, `allocate`, `label` and `store` are
 * nodes; blocks, lets, conditionals, assertions and nops are not, and their statements are the
 * children of the nearest node around them, in program order (both branches of an `if`).
 */
export function loopTree(t: TgtProgram): LoopTree {
  // implements [REPORT-TREE]
  const seen = new Map<string, number>();
  const identity = (base: string) => {
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}#${n}`;
  };
  const nodes = (s: Stmt): TreeNode[] => {
    const inner = () => children(s).flatMap(([, c]) => nodes(c));
    switch (s.k) {
      case 'for': {
        const key = identity(`for ${s.var}`);
        return [{ k: 'for', name: s.var, key, trav: s.trav, bounds: `(${ex(s.min)}, ${ex(s.len)})`, children: inner() }];
      }
      case 'allocate':
        return [{ k: 'allocate', name: s.func, key: identity(`allocate ${s.func}`), bounds: s.dims.map((d) => `${d.dim} in (${ex(d.min)}, ${ex(d.len)})`).join(', '), children: [] }];
      case 'label': {
        const key = identity(`label ${s.name}`);
        return [{ k: 'label', name: s.name, key, bounds: '', children: inner() }];
      }
      case 'store': {
        const name = `${s.func}${refKey(s.ref)}`;
        return [{ k: 'store', name, key: identity(`store ${name}`), bounds: `[${s.idx.map(ex).join(', ')}]`, children: [] }];
      }
      default:
        return inner();
    }
  };
  const derived: Record<string, string[]> = {};
  visitStmts(t.body, (s) => {
    if (s.k === 'let') derived[s.var] = [...freeVars(s.value)].sort();
  });
  return { output: t.output, roots: nodes(t.body), derived };
}

/** A node's line in the tree: `for parallel f.s0.yo in (0, 4)`, `allocate g(x in (…))`, `label g`, `store f[x, y]`. */
export function nodeHead(n: TreeNode): string {
  switch (n.k) {
    case 'for':
      return `for ${TRAV_WORD[n.trav!]} ${n.name} in ${n.bounds}`;
    case 'allocate':
      return `allocate ${n.name}(${n.bounds})`;
    case 'label':
      return `label ${n.name}`;
    case 'store':
      return `store ${n.name}${n.bounds}`;
  }
}

/** Every node in program order (pre-order). */
export function treeNodes(tree: LoopTree): TreeNode[] {
  const out: TreeNode[] = [];
  const go = (n: TreeNode) => (out.push(n), n.children.forEach(go));
  tree.roots.forEach(go);
  return out;
}

/**
 * The tree as text, one node a line under `loop nest of <output>`, drawn with box lines;
 * `note(node)` adds a remark after a node's line (what a diff says of it).
 */
export function printLoopTree(tree: LoopTree, note: (n: TreeNode) => string | undefined = () => undefined): string {
  const lines = [`loop nest of ${tree.output}`];
  const go = (ns: readonly TreeNode[], pad: string) =>
    ns.forEach((n, i) => {
      const last = i === ns.length - 1;
      const remark = note(n);
      lines.push(`${pad}${last ? '└─ ' : '├─ '}${nodeHead(n)}${remark ? `   ← ${remark}` : ''}`);
      go(n.children, pad + (last ? '   ' : '│  '));
    });
  go(tree.roots, '');
  return lines.join('\n') + '\n';
}
