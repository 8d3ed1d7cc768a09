// The heap of the reference-counted machine (thesis ch. 4, fig. 4.7; spec/perceus.md, "The heap
// machine") at one step, as a graph: its live cells with their constructor or closure and
// reference count, and an edge from each field that holds a cell to that cell. Cells reserved as
// reuse tokens (§4.2.4) are shown as such. Read off the machine's live set; nothing is inferred
// (spec/report.md, [REPORT-HEAP]).
import { type Cell, RESERVED, type RV, STATIC } from '../perceus/heap-code.js';

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

/**
 * A cell the step just allocated through a reuse token ([CONRU-R], §4.2.4): the memory of the cell
 * that drop-reuse freed earlier holds the new constructor. `was` is that freed cell as it was.
 */
export interface HeapReuse {
  readonly id: number;
  /** the freed cell's constructor and fields, `Cons(1, #2)` */
  readonly was: string;
  /** the step after which the cell was first seen reserved as a token */
  readonly reservedAt: number;
}

export interface HeapGraph {
  /** the machine step the heap is seen after (as the report's stepper counts, from 1) */
  readonly step: number;
  readonly cells: readonly HeapCell[];
  readonly edges: readonly HeapEdge[];
  /** cells this step allocated in the memory of a freed cell: drawn as a reuse arrow from the freed cell */
  readonly reused?: readonly HeapReuse[];
}

const isCell = (v: RV): v is Cell => typeof v === 'object' && v.rc !== STATIC;
const showField = (v: RV): string => (typeof v !== 'object' ? String(v) : v.rc === STATIC ? (v.con?.name ?? 'NULL') : `#${v.id}`);

/** The graph of the live cells, cells by id, edges by cell then field. */
export function heapGraph(live: ReadonlySet<Cell>, step: number, reused: readonly HeapReuse[] = []): HeapGraph {
  // implements [REPORT-HEAP]
  const cells = [...live].sort((a, b) => a.id - b.id);
  return {
    step,
    cells: cells.map((c) => ({ id: c.id, shape: c.con ? c.con.name : 'closure', rc: c.rc === RESERVED ? 'reserved' : c.rc, fields: c.fields.map(showField) })),
    edges: cells.flatMap((c) => c.fields.flatMap((f, i) => (isCell(f) ? [{ from: c.id, field: i, to: f.id }] : []))),
    ...(reused.length > 0 ? { reused } : {}),
  };
}

/**
 * Follows a run hook by hook and tells which cells each hook's heap holds in reused memory: a cell
 * seen reserved as a token (drop-reuse, §4.2.4) and seen again holding a count was allocated there
 * by [CONRU-R] (implements [REPORT-HEAP-REUSE]). The machine keeps a reused cell's id, so the id
 * links the token to the new constructor; a token freed unused ([DROP-TOKEN-R]) is forgotten.
 */
export function reuseWatcher(): (live: ReadonlySet<Cell>, step: number) => HeapReuse[] {
  const tokens = new Map<number, { was: string; reservedAt: number }>();
  return (live, step) => {
    const reused: HeapReuse[] = [];
    const seen = new Set<number>();
    for (const c of live) {
      seen.add(c.id);
      const token = tokens.get(c.id);
      if (c.rc === RESERVED) {
        if (!token) tokens.set(c.id, { was: `${c.con ? c.con.name : 'closure'}(${c.fields.map(showField).join(', ')})`, reservedAt: step });
      } else if (token) (reused.push({ id: c.id, ...token }), tokens.delete(c.id));
    }
    for (const id of tokens.keys()) if (!seen.has(id)) tokens.delete(id);
    return reused.sort((a, b) => a.id - b.id);
  };
}

/**
 * The cells one a line, `#3 Cons(1, #2) rc=1`, or `(empty heap)`: the heap the stepper prints
 * beside each step. The page script calls this function's own source, so it uses nothing outside
 * its argument.
 */
export function heapText(g: Pick<HeapGraph, 'cells'>): string {
  if (g.cells.length === 0) return '(empty heap)';
  return g.cells.map((c) => `#${c.id} ${c.shape}(${c.fields.join(', ')}) ${c.rc === 'reserved' ? 'reserved for reuse' : `rc=${c.rc}`}`).join('\n');
}

/** The cells as `heapText` prints them, then one edge a line, `#3.1 → #2`, then the step's reuses. */
export function printHeapGraph(g: HeapGraph): string {
  const edges = g.edges.map((e) => `#${e.from}.${e.field} → #${e.to}\n`);
  const reused = (g.reused ?? []).map((r) => `#${r.id} reuses the memory of freed #${r.id} ${r.was} (a token since step ${r.reservedAt})\n`);
  return `heap after step ${g.step}: ${g.cells.length} cell${g.cells.length === 1 ? '' : 's'}, ${g.edges.length} edge${g.edges.length === 1 ? '' : 's'}\n${g.cells.length ? `${heapText(g)}\n` : ''}${edges.join('')}${reused.join('')}`;
}

/**
 * The graph as SVG: a cell is a box in the column of its depth (the longest path to it from a cell
 * no other cell points to), its reference count in a badge; an arrow leaves each field that holds
 * a live cell. A cell allocated in reused memory gets a dashed arrow from a ghost of the freed
 * cell it replaced, drawn right under it. A fixed layout from the ids alone, so the
 * same heap is drawn the same way. The page script draws each step with this function's own source
 * (`initHeaps`), so it uses nothing outside its argument.
 */
export function heapGraphSvg(g: HeapGraph): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const depth = new Map<number, number>(g.cells.map((c) => [c.id, 0]));
  // The heap is acyclic (λ1 has no mutation; a reused cell gets fields that exist already), so n
  // passes settle the depths; the bound keeps a malformed heap from looping. A token's fields may
  // name cells its drop already freed: those are not drawn.
  const edges = g.edges.filter((e) => depth.has(e.from) && depth.has(e.to));
  for (let pass = 0; pass < g.cells.length; pass++) {
    let moved = false;
    for (const e of edges) {
      if (depth.get(e.to)! < depth.get(e.from)! + 1 && depth.get(e.from)! + 1 < g.cells.length) (depth.set(e.to, depth.get(e.from)! + 1), (moved = true));
    }
    if (!moved) break;
  }
  const reused = new Map((g.reused ?? []).map((r) => [r.id, r]));
  const [W, H, GX, GY] = [150, 34, 60, 16];
  const rows = new Map<number, number>();
  const at = new Map<number, { x: number; y: number }>();
  const ghostAt = new Map<number, { x: number; y: number }>();
  const place = (d: number) => {
    const r = rows.get(d) ?? 0;
    rows.set(d, r + 1);
    return { x: 10 + d * (W + GX), y: 10 + r * (H + GY) };
  };
  // A ghost takes the row right under its cell, so the reuse arrow crosses no other box.
  for (const c of g.cells) {
    at.set(c.id, place(depth.get(c.id)!));
    if (reused.has(c.id)) ghostAt.set(c.id, place(depth.get(c.id)!));
  }
  const width = 20 + Math.max(1, ...[...rows.keys()].map((d) => d + 1)) * (W + GX);
  const height = 20 + Math.max(1, ...rows.values()) * (H + GY);
  const label = (text: string, x: number, y: number) => `<text x="${x + 6}" y="${y + 21}">${esc(text.length > 22 ? `${text.slice(0, 21)}…` : text)}</text><title>${esc(text)}</title>`;
  const box = (c: HeapCell) => {
    const { x, y } = at.get(c.id)!;
    const badge = c.rc === 'reserved' ? 'reuse' : `rc ${c.rc}`;
    return `<g class="cell${c.rc === 'reserved' ? ' reserved' : ''}" data-cell="${c.id}"><rect x="${x}" y="${y}" width="${W}" height="${H}" rx="4"/><text class="rc" x="${x + W - 4}" y="${y - 3}">${badge}</text>${label(`#${c.id} ${c.shape}(${c.fields.join(', ')})`, x, y)}</g>`;
  };
  const arrow = (e: HeapEdge) => {
    const [a, b] = [at.get(e.from)!, at.get(e.to)!];
    return `<line x1="${a.x + W}" y1="${a.y + H / 2}" x2="${b.x}" y2="${b.y + H / 2}" marker-end="url(#heap-arrow)" data-edge="${e.from}.${e.field}"/>`;
  };
  const ghost = (r: HeapReuse) => {
    const { x, y } = ghostAt.get(r.id)!;
    const to = at.get(r.id)!;
    return `<g class="ghost" data-reused="${r.id}"><rect x="${x}" y="${y}" width="${W}" height="${H}" rx="4"/>${label(`freed #${r.id} ${r.was}`, x, y)}<text class="rc" x="${x + W - 4}" y="${y - 3}">token since step ${r.reservedAt}</text></g><line class="reuse" x1="${x + 14}" y1="${y}" x2="${to.x + 14}" y2="${to.y + H}" marker-end="url(#heap-reuse)" data-reuse="${r.id}"/>`;
  };
  return [
    `<svg class="heap" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="heap after step ${g.step}">`,
    '<defs><marker id="heap-arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L8,4L0,8z"/></marker>',
    '<marker id="heap-reuse" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path class="reuse" d="M0,0L8,4L0,8z"/></marker></defs>',
    `<g class="edges">${edges.map(arrow).join('')}</g>`,
    g.cells.map(box).join(''),
    [...reused.values()].filter((r) => at.has(r.id)).map(ghost).join(''),
    '</svg>',
  ].join('');
}

export const HEAP_STYLE = `.heapwrap{overflow:auto;max-width:100%}svg.heap .cell rect{fill:#e3f2fd;stroke:#1565c0}svg.heap .cell.reserved rect{fill:#f3e5f5;stroke:#6a3d9a;stroke-dasharray:4 2}
svg.heap text{font:12px ui-monospace,monospace}svg.heap text.rc{text-anchor:end;font:bold 11px system-ui,sans-serif;fill:#c62828}svg.heap .edges line{stroke:#555;stroke-width:1.5}svg.heap marker path{fill:#555}
svg.heap .ghost rect{fill:#fafafa;stroke:#999;stroke-dasharray:3 3}svg.heap .ghost text{fill:#777}svg.heap line.reuse{stroke:#6a3d9a;stroke-width:2;stroke-dasharray:6 3}svg.heap marker path.reuse{fill:#6a3d9a}`;
