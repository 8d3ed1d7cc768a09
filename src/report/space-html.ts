// The iteration-space picture (iteration-space.ts) as SVG: the output window as a grid of cells,
// each coloured by the tile, the loop iteration or the parallel worker that wrote it, and over it,
// for the tile a reader picks, the region a producer allocated there and the points it computed
// there, points also computed by another tile marked as recomputed. The cells and their colours
// are in the SVG itself; the overlay and the animation in loop order are drawn by `initSpaces`.
import { escapeHtml } from './escape.js';
import { cellTile, type IterationSpace } from './iteration-space.js';

/** Colour of group `g` in the picture: hues far apart for neighbouring groups. */
export const groupColour = (g: number): string => `hsl(${Math.round((g * 137.508) % 360)},62%,74%)`;

/** The colourings a reader can choose: by tile, by the iteration of each loop, by parallel worker. */
function modes(s: IterationSpace): { label: string; loop?: string; group: (cell: readonly number[]) => number }[] {
  const tiles = new Map<string, number>();
  const tile = (c: readonly number[]) => {
    const k = cellTile(s, c);
    return tiles.get(k) ?? tiles.set(k, tiles.size).get(k)!;
  };
  const worker = s.loops.findIndex((l) => l.parallel);
  return [
    { label: 'tile', group: tile },
    ...s.loops.map((l, i) => ({ label: `iteration of ${l.name}`, loop: l.name, group: (c: readonly number[]) => c[i]! })),
    ...(worker >= 0 ? [{ label: `parallel worker (${s.loops[worker]!.name})`, group: (c: readonly number[]) => c[worker]! }] : []),
  ];
}

/** The picture's cell size in pixels: readable for small windows, whole for large ones. */
const cellSize = (cols: number) => Math.max(4, Math.min(22, Math.floor(640 / Math.max(1, cols))));

export function spaceHtml(s: IterationSpace): string {
  if (s.window.length === 0 || s.window.length > 2) return '<p>The picture draws one- and two-dimensional windows.</p>';
  const dims = (p: readonly number[]) => [p[0]!, p[1] ?? 0] as const;
  const flat = s.producers.filter((p) => p.tiles.every((t) => t.points.every((q) => q.length === s.window.length)));
  // The grid spans the window and every region a producer allocated or computed.
  const [[wx, wl], [wy, wh]] = [s.window[0]!, s.window[1] ?? [0, 1]];
  let [x0, x1, y0, y1] = [wx, wx + wl, wy, wy + wh];
  for (const p of flat) {
    for (const t of p.tiles) {
      const a = t.alloc?.length === s.window.length ? [dims(t.alloc.map(([m]) => m)), dims(t.alloc.map(([m, l]) => m + l - 1))] : [];
      for (const [x, y] of [...t.points.map(dims), ...a]) [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x + 1), Math.min(y0, y), Math.max(y1, y + 1)];
    }
  }
  if (s.conflict?.point.length === s.window.length) {
    const [x, y] = dims(s.conflict.point);
    [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x + 1), Math.min(y0, y), Math.max(y1, y + 1)];
  }
  const c = cellSize(x1 - x0);
  const ms = modes(s);
  const rects: string[] = [];
  let i = 0;
  for (let y = wy; y < wy + wh; y++) {
    for (let x = wx; x < wx + wl; x++, i++) {
      const cell = s.cells[i];
      const at = `x="${(x - x0) * c}" y="${(y - y0) * c}" width="${c}" height="${c}" data-p="${s.window.length === 1 ? x : `${x},${y}`}"`;
      if (!cell) {
        rects.push(`<rect ${at} class="unwritten" fill="#eee"/>`);
        continue;
      }
      const g = ms.map((m) => m.group(cell));
      rects.push(`<rect ${at} data-tile="${escapeHtml(cellTile(s, cell))}" data-g="${g.join(',')}" data-o="${s.order[i]}" fill="${groupColour(g[0]!)}"/>`);
    }
  }
  const k = s.conflict;
  const conflict = k && k.point.length === s.window.length
    ? `<g class="conflict"><rect x="${(k.point[0]! - x0) * c}" y="${((k.point[1] ?? 0) - y0) * c}" width="${c}" height="${c}"/><text x="${(k.point[0]! - x0) * c + c / 2}" y="${((k.point[1] ?? 0) - y0) * c + c * 0.75}">×</text></g>`
    : '';
  const window = `<rect class="window" x="${(wx - x0) * c}" y="${(wy - y0) * c}" width="${wl * c}" height="${wh * c}"/>`;
  const data = JSON.stringify({ x0, y0, c, oneD: s.window.length === 1, producers: flat }).replace(/<\//g, '<\\/');
  const producerOptions = flat.map((p) => `<option value="${escapeHtml(p.func)}">${escapeHtml(p.func)}</option>`).join('');
  const loops = s.loops.map((l) => `<code>${escapeHtml(l.name)}</code>${l.parallel ? ' (parallel)' : ''}`).join(', ');
  return [
    '<div class="space">',
    `<div class="controls"><label>Colour by <select class="colour">${ms.map((m, k) => `<option value="${k}"${m.loop ? ` data-loop="${escapeHtml(m.loop)}"` : ''}>${escapeHtml(m.label)}</option>`).join('')}</select></label>`,
    flat.length > 0 ? ` <label>Producer <select class="producer">${producerOptions}</select></label>` : '',
    ' <button type="button" class="play">play in loop order</button></div>',
    `<svg class="grid" xmlns="http://www.w3.org/2000/svg" width="${(x1 - x0) * c}" height="${(y1 - y0) * c}" viewBox="0 0 ${(x1 - x0) * c} ${(y1 - y0) * c}" role="img" aria-label="iteration space of ${escapeHtml(s.func)}">`,
    `<g class="cells">${rects.join('')}</g>${window}<g class="overlay"></g>${conflict}</svg>`,
    k ? `<p class="conflict-text">The run stopped at a ${escapeHtml(k.text)}; the cell marked × is that point of <code>${escapeHtml(k.func)}</code>.</p>` : '',
    `<p class="caption">Loops around the stores of <code>${escapeHtml(s.func)}</code>: ${loops || 'none'}. Click a cell to see what its tile computes; hover a loop of a loop nest to colour by its iterations.</p><p class="linkinfo"></p>`,
    `<script type="application/json" class="spacedata">${data}</script>`,
    '</div>',
  ].join('');
}

/** The DOM the picture's script uses (the core is compiled without the DOM's types). */
interface SvgNode {
  querySelector(selector: string): SvgNode | null;
  querySelectorAll(selector: string): ArrayLike<SvgNode>;
  closest(selector: string): SvgNode | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  addEventListener(type: string, f: (e: { target: SvgNode | null }) => void): void;
  textContent: string | null;
  innerHTML: string;
  value: string;
  /** set by `initSpaces`: colour the cells by mode `k` of the selector (the page's links use it) */
  colourBy?: (k: string) => void;
  /** set by `initSpaces`: overlay producer `f` if the picture has it (the page's links use it) */
  showProducer?: (f: string) => boolean;
}

interface SpaceData {
  readonly x0: number;
  readonly y0: number;
  readonly c: number;
  readonly oneD: boolean;
  readonly producers: readonly { func: string; tiles: readonly { tile: string; alloc?: readonly (readonly [number, number])[]; points: readonly (readonly number[])[] }[] }[];
}

/**
 * Makes the pictures of a page answer: the colouring selector, a click on a cell drawing what its
 * tile allocated and computed of the chosen producer, and the animation in loop order. Embedded
 * in the HTML file as its own source, so it uses nothing outside its argument.
 */
export function initSpaces(root: { querySelectorAll(selector: string): ArrayLike<unknown> }): void {
  for (const el of Array.from(root.querySelectorAll('.space')) as SvgNode[]) {
    const data = JSON.parse(el.querySelector('.spacedata')!.textContent!) as SpaceData;
    const cells = Array.from(el.querySelectorAll('.cells rect[data-g]'));
    const colour = el.querySelector('select.colour')!;
    const producer = el.querySelector('select.producer');
    const overlay = el.querySelector('.overlay')!;
    const caption = el.querySelector('.caption')!;
    const hue = (g: number) => `hsl(${Math.round((g * 137.508) % 360)},62%,74%)`;
    let tile = cells[0]?.getAttribute('data-tile') ?? '';
    const recolour = () => {
      const m = Number(colour.value);
      for (const r of cells) r.setAttribute('fill', hue(Number(r.getAttribute('data-g')!.split(',')[m])));
    };
    const draw = () => {
      for (const r of cells) r.setAttribute('stroke', r.getAttribute('data-tile') === tile ? '#222' : 'none');
      const p = data.producers.find((x) => x.func === producer?.value);
      if (!p) return void (overlay.innerHTML = '');
      const here = p.tiles.find((t) => t.tile === tile);
      const count = new Map<string, number>();
      for (const t of p.tiles) for (const q of t.points) count.set(q.join(','), (count.get(q.join(',')) ?? 0) + 1);
      const px = (q: readonly number[]) => [(q[0]! - data.x0) * data.c, ((data.oneD ? 0 : q[1]!) - data.y0) * data.c];
      const parts: string[] = [];
      if (here?.alloc) {
        const [ax, ay] = px(here.alloc.map(([m]) => m));
        const [w, h] = [here.alloc[0]![1] * data.c, (data.oneD ? 1 : here.alloc[1]![1]) * data.c];
        parts.push(`<rect class="alloc" x="${ax}" y="${ay}" width="${w}" height="${h}"/>`);
      }
      let again = 0;
      for (const q of here?.points ?? []) {
        const [x, y] = px(q);
        const twice = count.get(q.join(','))! > 1;
        if (twice) again++;
        parts.push(`<circle class="${twice ? 'computed recomputed' : 'computed'}" data-p="${q.join(',')}" cx="${x! + data.c / 2}" cy="${y! + data.c / 2}" r="${Math.max(1.5, data.c / 4)}"/>`);
      }
      overlay.innerHTML = parts.join('');
      const region = here?.alloc ? here.alloc.map(([m, l]) => `[${m}, ${m + l})`).join(' × ') : 'nothing';
      caption.textContent = `Tile ${tile || '(outside every tile)'}: ${p.func} allocated ${region} and computed ${here?.points.length ?? 0} points, ${again} of them also computed by another tile.`;
    };
    colour.addEventListener('change', recolour);
    el.colourBy = (k) => ((colour.value = k), recolour());
    el.showProducer = (f) => {
      if (!producer?.querySelector(`option[value="${f}"]`)) return false;
      producer.value = f;
      draw();
      return true;
    };
    producer?.addEventListener('change', draw);
    el.querySelector('.cells')!.addEventListener('click', (e) => {
      const r = e.target?.closest('rect[data-tile]');
      if (r) (tile = r.getAttribute('data-tile')!), draw();
    });
    el.querySelector('button.play')!.addEventListener('click', () => {
      const byOrder = cells.slice().sort((a, b) => Number(a.getAttribute('data-o')) - Number(b.getAttribute('data-o')));
      for (const r of cells) r.setAttribute('opacity', '0.15');
      let k = 0;
      const step = Math.max(1, Math.ceil(byOrder.length / 60));
      const timer = setInterval(() => {
        for (const r of byOrder.slice(k, k + step)) r.setAttribute('opacity', '1');
        k += step;
        if (k >= byOrder.length) clearInterval(timer);
      }, 30);
    });
    draw();
  }
}
