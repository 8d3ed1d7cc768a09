// A loop nest (loop-tree.ts) as HTML: nested lists whose inner nodes fold (`<details>`), each loop
// naming its traversal, and, after a directive, the changes it made (tree-diff.ts) listed above
// the tree and marked on its nodes. Subtrees the directive left alone start folded, so the change
// is what the eye meets (spec/report.md, [REPORT-TREE], [REPORT-TREE-DIFF]). Plain HTML: the
// page's script is not needed to read or fold it.
import { escapeHtml } from './escape.js';
import { type LoopTree, nodeHead, type TreeNode, TRAV_WORD } from './loop-tree.js';
import { type ChangeKind, marksOf, showBy, type TreeChange } from './tree-diff.js';

const size = (n: TreeNode): number => 1 + n.children.reduce((a, c) => a + size(c), 0);

/** A node's line, its parts tagged for the style: the keyword, the traversal, the rest. */
function headHtml(n: TreeNode): string {
  const head = nodeHead(n);
  if (n.k !== 'for') return `<span class="kw">${n.k}</span>${escapeHtml(head.slice(n.k.length))}`;
  const word = TRAV_WORD[n.trav!];
  return `<span class="kw">for</span> <span class="trav ${n.trav}">${word}</span>${escapeHtml(head.slice(`for ${word}`.length))}`;
}

/**
 * The tree, with the changes that mark each node (`changes` of the directive that made it, none
 * for T0). With no changes every node is open; with some, only the paths to marked nodes, and
 * unless `whole`, a subtree with no mark is one line saying how many nodes it holds as before (a
 * report of many directives would otherwise repeat its whole program at each, spec/report.md).
 */
export function loopTreeHtml(tree: LoopTree, changes?: readonly TreeChange[], whole = true): string {
  const marks = changes ? marksOf(tree, changes) : new Map<string, ChangeKind[]>();
  const marked = (n: TreeNode): boolean => marks.has(n.key) || n.children.some(marked);
  const node = (n: TreeNode): string => {
    const m = marks.get(n.key);
    const cls = `n-${n.k}${m ? ` changed ${m.map((k) => `c-${k}`).join(' ')}` : ''}`;
    const badge = m ? ` <span class="badge">${escapeHtml(m.join(', '))}</span>` : '';
    const line = `${headHtml(n)}${badge}`;
    if (n.children.length === 0) return `<li class="${cls}" data-key="${escapeHtml(n.key)}">${line}</li>`;
    if (changes && !whole && !marked(n)) return `<li class="${cls}" data-key="${escapeHtml(n.key)}">${line} <span class="same">… ${size(n) - 1} more node${size(n) === 2 ? '' : 's'} as before</span></li>`;
    const open = !changes || marked(n) ? ' open' : '';
    return `<li class="${cls}" data-key="${escapeHtml(n.key)}"><details${open}><summary>${line}</summary><ul>${n.children.map(node).join('')}</ul></details></li>`;
  };
  const list = changes
    ? changes.length === 0
      ? '<p class="nochange">No change to the loop nest.</p>'
      : `<ul class="changes">${changes.map((c) => `<li class="c-${c.kind}"><span class="badge">${c.kind}</span> ${escapeHtml(c.text)}${c.by ? ` <span class="by">${escapeHtml(showBy(c))}</span>` : ''}</li>`).join('')}</ul>`
    : '';
  return `<div class="looptree">${list}<ul class="tree">${tree.roots.map(node).join('')}</ul></div>`;
}

export const TREE_STYLE = `.looptree ul.tree,.looptree ul.tree ul{list-style:none;margin:0;padding-left:1.2em;font:13px/1.5 ui-monospace,monospace}.looptree ul.tree{padding-left:0;overflow:auto}
.looptree ul.tree li{white-space:nowrap}.looptree details{margin-left:0}.looptree summary{cursor:pointer}.looptree .kw{color:#1565c0;font-weight:600}
.looptree .trav{border-radius:3px;padding:0 .3em}.looptree .trav.parallel{background:#ffe0b2}.looptree .trav.vectorize{background:#e1bee7}.looptree .trav.unroll{background:#c8e6c9}.looptree .trav.serial{color:#777}
.looptree li.changed>details>summary,.looptree li.changed:not(:has(details)){background:#fff3c4}.looptree .badge{font:11px system-ui,sans-serif;background:#6a3d9a;color:#fff;border-radius:3px;padding:0 .35em}
.looptree ul.changes{margin:.3em 0;padding-left:1.2em;overflow-wrap:anywhere}.looptree .by,.looptree .same{color:#555;font-size:12px}`;
