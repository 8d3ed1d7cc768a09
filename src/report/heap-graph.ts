// The heap of the reference-counted machine (thesis ch. 4, fig. 4.7; spec/perceus.md, "The heap
// machine") at one step, as a graph: its live cells with their constructor or closure and
// reference count, and an edge from each field that holds a cell to that cell. Cells reserved as
// reuse tokens (§4.2.4) are shown as such. Read off the machine's live set; nothing is inferred
// (spec/report.md, [REPORT-HEAP]).
import { type Cell, RESERVED, type RV, STATIC } from '../perceus/heap-code.js';
import { escapeHtml } from './escape.js';

export interface HeapCell {
  readonly id: number;
  /** the constructor's name, or `closure` */
  readonly shape: string;
  /** the reference count, or `reserved` for a cell kept for reuse */
  readonly rc: number | 'reserved';
  /** each field as the heap shows it: an integer, a static constructor, or `#id` of a cell */
  readonly fields: readonly string[];
}

export interface HeapEdge {
  readonly from: number;
  /** the field's place, from 0 */
  readonly field: number;
  readonly to: number;
}

export interface HeapGraph {
  /** the machine step the heap is seen after (as the report's stepper counts, from 1) */
  readonly step: number;
  readonly cells: readonly HeapCell[];
  readonly edges: readonly HeapEdge[];
}

const isCell = (v: RV): v is Cell => typeof v === 'object' && v.rc !== STATIC;
const showField = (v: RV): string => (typeof v !== 'object' ? String(v) : v.rc === STATIC ? (v.con?.name ?? 'NULL') : `#${v.id}`);

/** The graph of the live cells, cells by id, edges by cell then field. */
export function heapGraph(live: ReadonlySet<Cell>, step: number): HeapGraph {
  // implements [REPORT-HEAP]
  const cells = [...live].sort((a, b) => a.id - b.id);
  return {
    step,
    cells: cells.map((c) => ({ id: c.id, shape: c.con ? c.con.name : 'closure', rc: c.rc === RESERVED ? 'reserved' : c.rc, fields: c.fields.map(showField) })),
    edges: cells.flatMap((c) => c.fields.flatMap((f, i) => (isCell(f) ? [{ from: c.id, field: i, to: f.id }] : []))),
  };
}

/** One cell a line, `#3 Cons(1, #2) rc=1`, then one edge a line, `#3.1 → #2`. */
export function printHeapGraph(g: HeapGraph): string {
  const cells = g.cells.map((c) => `#${c.id} ${c.shape}(${c.fields.join(', ')}) ${c.rc === 'reserved' ? 'reserved for reuse' : `rc=${c.rc}`}`);
  const edges = g.edges.map((e) => `#${e.from}.${e.field} → #${e.to}`);
  return `heap after step ${g.step}: ${g.cells.length} cell${g.cells.length === 1 ? '' : 's'}, ${g.edges.length} edge${g.edges.length === 1 ? '' : 's'}\n${[...cells, ...edges].join('\n')}${g.cells.length ? '\n' : ''}`;
}

/**
 * The graph as SVG: a cell is a box in the column of its depth (the longest path to it from a cell
 * no other cell points to), its reference count in a badge; an arrow leaves each field that holds
 * a cell. A fixed layout from the ids alone, so the same heap is drawn the same way.
 */
export function heapGraphSvg(g: HeapGraph): string {
  const depth = new Map<number, number>(g.cells.map((c) => [c.id, 0]));
  // The heap is acyclic (λ1 has no mutation; a reused cell gets fields that exist already), so n
  // passes settle the depths; the bound keeps a malformed heap from looping.
  for (let pass = 0; pass < g.cells.length; pass++) {
    let moved = false;
    for (const e of g.edges) {
      if (depth.get(e.to)! < depth.get(e.from)! + 1 && depth.get(e.from)! + 1 < g.cells.length) (depth.set(e.to, depth.get(e.from)! + 1), (moved = true));
    }
    if (!moved) break;
  }
  const [W, H, GX, GY] = [150, 34, 60, 16];
  const rows = new Map<number, number>();
  const at = new Map<number, { x: number; y: number }>();
  for (const c of g.cells) {
    const d = depth.get(c.id)!;
    const r = rows.get(d) ?? 0;
    rows.set(d, r + 1);
    at.set(c.id, { x: 10 + d * (W + GX), y: 10 + r * (H + GY) });
  }
  const width = 20 + Math.max(1, ...[...rows.keys()].map((d) => d + 1)) * (W + GX);
  const height = 20 + Math.max(1, ...rows.values()) * (H + GY);
  const box = (c: HeapCell) => {
    const { x, y } = at.get(c.id)!;
    const text = `#${c.id} ${c.shape}(${c.fields.join(', ')})`;
    const badge = c.rc === 'reserved' ? 'reuse' : `rc ${c.rc}`;
    return `<g class="cell${c.rc === 'reserved' ? ' reserved' : ''}" data-cell="${c.id}"><rect x="${x}" y="${y}" width="${W}" height="${H}" rx="4"/><text x="${x + 6}" y="${y + 21}">${escapeHtml(text.length > 22 ? `${text.slice(0, 21)}…` : text)}</text><text class="rc" x="${x + W - 4}" y="${y - 3}">${badge}</text><title>${escapeHtml(text)}</title></g>`;
  };
  const arrow = (e: HeapEdge) => {
    const [a, b] = [at.get(e.from)!, at.get(e.to)!];
    return `<line x1="${a.x + W}" y1="${a.y + H / 2}" x2="${b.x}" y2="${b.y + H / 2}" marker-end="url(#heap-arrow)" data-edge="${e.from}.${e.field}"/>`;
  };
  return [
    `<svg class="heap" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="heap after step ${g.step}">`,
    '<defs><marker id="heap-arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L8,4L0,8z"/></marker></defs>',
    `<g class="edges">${g.edges.map(arrow).join('')}</g>`,
    g.cells.map(box).join(''),
    '</svg>',
  ].join('');
}

export const HEAP_STYLE = `.heapwrap{overflow:auto;max-width:100%}svg.heap .cell rect{fill:#e3f2fd;stroke:#1565c0}svg.heap .cell.reserved rect{fill:#f3e5f5;stroke:#6a3d9a;stroke-dasharray:4 2}
svg.heap text{font:12px ui-monospace,monospace}svg.heap text.rc{text-anchor:end;font:bold 11px system-ui,sans-serif;fill:#c62828}svg.heap .edges line{stroke:#555;stroke-width:1.5}svg.heap marker path{fill:#555}`;
