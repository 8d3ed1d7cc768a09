// A report as one self-contained HTML page: no server, no network, no external file. Sections
// follow the flow of a program (the algorithm, T0 … Tn with what each directive changed, the
// bounds, the output window, the machine step by step, a derivation), so reading the page top to
// bottom is reading the semantics in order. The few scripts inline here only move sliders and
// fold trees; everything shown is in the HTML itself.
import { type Folded, foldRepeats, NOT_EXPANDED } from '../alg-semantics/spec-eval.js';
import { escapeHtml } from './escape.js';
import { initSpaces, spaceHtml } from './space-html.js';
import { loopTreeHtml, TREE_STYLE } from './tree-html.js';
import { type HeapGraph, HEAP_STYLE, heapGraphSvg, heapText } from './heap-graph.js';
import type { DerivationNode, MachineStep, OutputTable, ReportModel, RuleRef, RuleText } from './model.js';

export interface RenderOptions {
  /** the spec's rules: an ID the page names opens its text in place; plain text without it */
  readonly rules?: ReadonlyMap<string, RuleText>;
  /** the page's host draws the picture of any program a reader picks (the playground, with `pictureOf`) */
  readonly pictureChoice?: boolean;
}

export { escapeHtml };

/**
 * A rule ID the spec defines links to its text in the page's own appendix (`#rule-ID`), which the
 * page script opens in a panel beside the step instead; unknown IDs stay plain text.
 */
function ruleLink(r: RuleRef | undefined, o: RenderOptions): string {
  if (!r) return '';
  const label = `[${escapeHtml(r.id)}]`;
  return o.rules?.has(r.id) ? `<a class="rule" href="#rule-${r.id}" data-rule="${r.id}">${label}</a>` : `<span class="rule">${label}</span>`;
}

/** Escapes text and links every `[RULE-ID]` in it (queries, errors, notes, traces name rules inline). */
function withRules(text: string, o: RenderOptions): string {
  return escapeHtml(text).replace(/\[([A-Z][A-Z0-9-]*)\]/g, (all, id: string) => (o.rules?.has(id) ? ruleLink({ id }, o) : all));
}

/** The text of every rule the page names, each under its own anchor: the page needs no spec beside it (implements [REPORT-RULES]). */
function rulesAppendix(parts: readonly string[], o: RenderOptions): string {
  const ids = [...new Set(parts.flatMap((body) => [...ruleIdsIn(body)]))].sort();
  if (ids.length === 0 || !o.rules) return '';
  const items = ids.map((id) => {
    const r = o.rules!.get(id)!;
    return `<div class="ruletext" id="rule-${id}"><h3>${escapeHtml(r.heading)} <small>${escapeHtml(r.chapter)}</small></h3><pre>${escapeHtml(r.text)}</pre></div>`;
  });
  return `<section id="rules"><h2>Rules named on this page</h2>${items.join('')}<aside id="rulepanel" hidden><button type="button" class="close" aria-label="close">×</button><div class="body"></div></aside></section>`;
}

/** The rule IDs a piece of HTML links, kept per piece: the big parts of a report repeat between playground builds. */
const linked = new Map<string, ReadonlySet<string>>();
function ruleIdsIn(html: string): ReadonlySet<string> {
  let ids = linked.get(html);
  if (!ids) {
    ids = new Set([...html.matchAll(/data-rule="([A-Z0-9-]+)"/g)].map((m) => m[1]!));
    if (linked.size > 64) linked.clear();
    linked.set(html, ids);
  }
  return ids;
}

export type DiffLine = { readonly op: ' ' | '+' | '-'; readonly line: string };

/**
 * Line diff of two programs by longest common subsequence. Programs of a schedule are a few
 * hundred lines at most; beyond `limit` cells the diff shows the whole change instead.
 */
export function lineDiff(a: readonly string[], b: readonly string[], limit = 4_000_000): DiffLine[] {
  if (a.length * b.length > limit) return [...a.map((line) => ({ op: '-' as const, line })), ...b.map((line) => ({ op: '+' as const, line }))];
  // The walk below takes an equal line as soon as it meets one, so lines equal from the start are
  // kept as they are and left out of the table: the same diff, for the cost of what follows them.
  let same = 0;
  while (same < a.length && same < b.length && a[same] === b[same]) same++;
  if (same > 0) return [...a.slice(0, same).map((line) => ({ op: ' ' as const, line })), ...lineDiff(a.slice(same), b.slice(same))];
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i * w + j] = a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  }
  const out: DiffLine[] = [];
  let [i, j] = [0, 0];
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) (out.push({ op: ' ', line: a[i]! }), i++, j++);
    else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) out.push({ op: '-', line: a[i++]! });
    else out.push({ op: '+', line: b[j++]! });
  }
  while (i < a.length) out.push({ op: '-', line: a[i++]! });
  while (j < b.length) out.push({ op: '+', line: b[j++]! });
  return out;
}

/**
 * A diff with each run of unchanged lines longer than twice `context` cut to its `context` first
 * and last lines, the cut replaced by its length: the change is seen without scrolling past the
 * whole program ([REPORT-TREE-DIFF]; the whole program stays one click away).
 */
export function foldUnchanged(diff: readonly DiffLine[], context = 3): (DiffLine | number)[] {
  const out: (DiffLine | number)[] = [];
  for (let i = 0; i < diff.length; ) {
    let j = i;
    while (j < diff.length && diff[j]!.op === ' ') j++;
    // a run at the start or end of the program needs context on one side only
    const keepBefore = i === 0 ? 0 : context;
    const keepAfter = j === diff.length ? 0 : context;
    if (j - i > keepBefore + keepAfter + 1) out.push(...diff.slice(i, i + keepBefore), j - i - keepBefore - keepAfter, ...diff.slice(j - keepAfter, j));
    else out.push(...diff.slice(i, j));
    for (i = j; i < diff.length && diff[i]!.op !== ' '; i++) out.push(diff[i]!);
  }
  return out;
}

/** A derivation with repeated sub-derivations folded, as `refsem explain` prints it. */
export function foldDerivation(root: DerivationNode): Folded<DerivationNode> {
  return foldRepeats(root, (n) => n.rule.id);
}

/**
 * A derivation drawn as a proof (fig. 2.6): a node's premises side by side over a line, its
 * judgement under the line, the rule's name at the line's right end (implements [REPORT-PROOF]).
 * The `open` top levels are drawn; below them each node's premises are one click away, so a
 * learner unfolds the proof from its conclusion up. A repeated sub-derivation names the first.
 */
function proofHtml(n: Folded<DerivationNode>, o: RenderOptions, open: number): string {
  const rule = n.node.rule.id === NOT_EXPANDED ? '<span class="rule notexp" title="below the depth shown: the value comes from the evaluator">not expanded</span>' : ruleLink(n.node.rule, o);
  const concl = `<div class="concl"><span class="dnum" id="d${n.id}">${n.id}</span> <code>${withRules(n.node.text, o)}</code></div>`;
  if (n.sameAs !== undefined) return `<div class="proof"><div class="premises"><a class="same" href="#d${n.sameAs}">same as ${n.sameAs}</a></div><div class="line">${rule}</div>${concl}</div>`;
  const above = n.children.map((c) => proofHtml(c, o, open - 1)).join('');
  const premises = n.children.length === 0 ? '' : open > 0 ? `<div class="premises">${above}</div>` : `<details class="premises"><summary>${n.children.length} premise${n.children.length === 1 ? '' : 's'}</summary><div class="premises">${above}</div></details>`;
  return `<div class="proof">${premises}<div class="line">${rule}</div>${concl}</div>`;
}

/** A colour from cold to hot for a value's place between the window's least and greatest values. */
function heat(v: string, lo: number, hi: number): string {
  const x = Number(v);
  if (!Number.isFinite(x)) return 'background:#ddd';
  const t = hi > lo ? (x - lo) / (hi - lo) : 0.5;
  return `background:hsl(${Math.round(230 - 230 * t)},75%,82%)`;
}

function outputHtml(t: OutputTable): string {
  const nums = t.values.map(Number).filter(Number.isFinite);
  const [lo, hi] = nums.length > 0 ? [Math.min(...nums), Math.max(...nums)] : [0, 0];
  const cell = (v: string) => `<td style="${heat(v, lo, hi)}">${escapeHtml(v)}</td>`;
  const dims = t.window;
  if (dims.length === 0) return `<table class="out"><tr>${cell(t.values[0] ?? '')}</tr></table>`;
  if (dims.length > 2) return `<pre>${escapeHtml(t.values.join(' '))}</pre>`;
  const [x0, xn] = dims[0]!;
  const [y0, yn] = dims[1] ?? [0, 1];
  const head = `<tr><th></th>${Array.from({ length: xn }, (_, i) => `<th>${x0 + i}</th>`).join('')}</tr>`;
  const rows = Array.from({ length: yn }, (_, j) => `<tr><th>${dims.length > 1 ? y0 + j : ''}</th>${Array.from({ length: xn }, (_, i) => cell(t.values[j * xn + i]!)).join('')}</tr>`);
  // A wide window scrolls inside its own box instead of spilling out of the page's column.
  return `<div class="outwrap"><table class="out">${head}${rows.join('')}</table></div>`;
}

/** Data for a page script, inside a `<script type="application/json">`: `</` cannot end the element early once escaped. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/<\//g, '<\\/');

/**
 * A machine's steps as data for the slider script, packed: a run of a tile is tens of thousands of
 * steps that name a dozen rules and repeat few texts, so each rule and each text is written once
 * and a step is a few characters of three columns (rule, text, line), each number as fixed-width
 * digits of `STEP_DIGITS`. Memory events and heaps are listed for the steps that have them.
 */
function stepsData(steps: readonly MachineStep[], o: RenderOptions): string {
  const rules: string[] = [];
  const texts: string[] = [];
  const index = (table: string[], seen: Map<string, number>, key: string) => seen.get(key) ?? (seen.set(key, table.push(key) - 1), table.length - 1);
  const funcs: string[] = [];
  const [ruleAt, textAt, funcAt] = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  const ruleCol: number[] = [];
  const textCol: number[] = [];
  const lineCol: number[] = [];
  const mem: [number, ...unknown[]][] = [];
  const heap: [number, number][] = [];
  steps.forEach((s, i) => {
    ruleCol.push(index(rules, ruleAt, s.rule.id));
    textCol.push(index(texts, textAt, s.text));
    lineCol.push(s.line ?? -1);
    if (s.mem) mem.push([i, s.mem.kind[0]!, index(funcs, funcAt, s.mem.func), s.mem.at.join(','), s.mem.value ?? '']);
    if (s.heap !== undefined) heap.push([i, s.heap]);
  });
  const widthOf = (xs: readonly number[]) => {
    const top = xs.reduce((m, x) => Math.max(m, x), 0);
    let width = 1;
    while (STEP_DIGITS.length ** width <= top) width++;
    return width;
  };
  // numbers are stored plus one, so that -1 (no line) packs too
  const col = (xs: readonly number[]) => {
    const width = widthOf(xs.map((x) => x + 1));
    return [width, xs.map((x) => packed(x + 1, width)).join('')];
  };
  // the steps of one statement are a run of one line: stored as (line, run length) pairs
  const runs = (xs: readonly number[]) => {
    const pairs: [number, number][] = [];
    for (const x of xs) {
      const last = pairs[pairs.length - 1];
      if (last && last[0] === x + 1) last[1]++;
      else pairs.push([x + 1, 1]);
    }
    const [wv, wn] = [widthOf(pairs.map(([v]) => v)), widthOf(pairs.map(([, n]) => n))];
    return [wv, wn, pairs.map(([v, n]) => packed(v, wv) + packed(n, wn)).join('')];
  };
  return scriptJson({
    rules: rules.map((id) => [id, ruleLink({ id }, o)]),
    texts: texts.map((t) => (t.includes('[') ? withRules(t, o) : escapeHtml(t))),
    rule: col(ruleCol),
    text: col(textCol),
    line: runs(lineCol),
    funcs,
    mem,
    heap,
  });
}

/** The digits of packed step columns: 64 characters that JSON and HTML leave as they are. */
const STEP_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.';
const packed = (n: number, width: number) => {
  let out = '';
  for (let k = 0; k < width; k++, n = Math.floor(n / STEP_DIGITS.length)) out = STEP_DIGITS[n % STEP_DIGITS.length]! + out;
  return out;
};

/** How a heap machine's stepper draws the heap: the distinct heaps of the run, and where to start. */
export interface StepperHeaps {
  readonly graphs: readonly Omit<HeapGraph, 'step'>[];
  /** the step (from 0) the slider starts at */
  readonly start: number;
}

/**
 * A stepper: a slider with previous/next, "next step of a rule" and "go to step", the step and
 * the four before it, the state after it; for the heap machine the heap after it as a graph,
 * drawn again at each step by `initSteppers` (implements [REPORT-STEPPER]).
 */
function stepperHtml(id: string, steps: readonly MachineStep[], o: RenderOptions, heaps?: StepperHeaps, program?: string): string {
  if (steps.length === 0) return '<p>No steps.</p>';
  const start = heaps?.start ?? 0;
  const rules = [...new Set(steps.map((s) => s.rule.id))].sort();
  const first = heaps && steps[start]?.heap !== undefined ? heaps.graphs[steps[start]!.heap!] : undefined;
  return [
    `<div class="stepper" data-steps="${id}">`,
    `<div class="stepnav"><button type="button" class="prev" aria-label="previous step">◀</button><input type="range" min="0" max="${steps.length - 1}" value="${start}" aria-label="step"><button type="button" class="next" aria-label="next step">▶</button> <span class="stepno">step ${start + 1} of ${steps.length}</span></div>`,
    `<div class="stepnav"><label>next step of <select class="rulekind">${rules.map((r) => `<option>${escapeHtml(r)}</option>`).join('')}</select></label> <button type="button" class="runto">run to it</button> <label>go to step <input type="number" class="goto" min="1" max="${steps.length}" value="${start + 1}"></label> <span class="stepmsg"></span></div>`,
    `<div class="steptext"></div><pre class="stepstate">${first ? escapeHtml(heapText(first)) : ''}</pre>`,
    program === undefined ? '' : `<h3>The program, at the statement of the step</h3><pre class="program">${program.split('\n').map((l, n) => `<span class="ln" data-line="${n}">${escapeHtml(l)}</span>`).join('\n')}</pre>`,
    steps.some((s) => s.mem) ? '<h3>The store after the step</h3><div class="memory"></div><h3>Reads and writes per buffer</h3><div class="timeline"></div>' : '',
    heaps ? `<h3 class="heapcap">${first ? `The heap after step ${start + 1}: ${first.cells.length} cells` : ''}</h3><div class="heapwrap">${first ? heapGraphSvg({ ...first, step: start + 1 }) : ''}</div><script type="application/json" class="heaps">${scriptJson(heaps.graphs)}</script>` : '',
    `<script type="application/json" class="steps" id="${id}">${stepsData(steps, o)}</script>`,
    '</div>',
  ].join('');
}

export const REPORT_STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222}
pre,code{font:13px/1.4 ui-monospace,monospace}pre{background:#f6f6f4;padding:.6em;overflow:auto}
h1,h2,h3,p,.verdict{overflow-wrap:anywhere}h2{border-bottom:1px solid #ccc;margin-top:1.6em}.rule{color:#6a3d9a;text-decoration:none;font-family:ui-monospace,monospace}
.diff .add{background:#e3f6e3}.diff .fold{color:#888;font-style:italic}.diff .del{background:#fbe4e4;text-decoration:line-through}.errors{background:#fdecea;border-left:4px solid #c62828;padding:.5em 1em}
.notes{background:#fff8e1;border-left:4px solid #f9a825;padding:.5em 1em}.verdict{padding:.5em 1em;margin:.5em 0;border-left:4px solid}.verdict.ok{background:#e8f5e9;border-color:#2e7d32}.verdict.differs{background:#fdecea;border-color:#c62828}.verdict.vacuous{background:#fff8e1;border-color:#f9a825}
.outwrap{overflow:auto;max-width:100%;max-height:40em}table.out{border-collapse:collapse}table.out td,table.out th{border:1px solid #ccc;padding:2px 6px;text-align:right;font:12px ui-monospace,monospace}
details{margin-left:1.2em}.dnum{color:#999;font-size:11px}.same{font-size:12px}
.proofwrap{overflow:auto;max-width:100%;padding:.5em}.proof{display:inline-flex;flex-direction:column;vertical-align:bottom;margin:0 .5em}.proof .premises{display:flex;justify-content:center;align-items:flex-end;gap:1em;margin:0}
.proof details.premises{display:block;text-align:center;font-size:12px;color:#555}.proof .line{display:flex;align-items:center;gap:.3em;margin:.1em 0}.proof .line::before{content:"";flex:1;min-width:2em;border-top:1.5px solid #333}.proof .line .rule{font-size:11px;white-space:nowrap}
.proof .concl{text-align:center;white-space:nowrap}.notexp{color:#777}
#programs li.linked>details>summary,#programs li.linked:not(:has(>details)),h3.linked,.fn.linked{background:#ffe082}.fn{cursor:help;border-bottom:1px dotted #999}.space.linked svg{outline:3px solid #ffb300}.linkinfo{font:12px ui-monospace,monospace;min-height:1.4em}.steptext{margin:.4em 0}.memory .buf{display:inline-block;vertical-align:top;margin:0 1em .5em 0}table.mem td.write{background:#ef9a9a;font-weight:bold}table.mem td.read{background:#90caf9;font-weight:bold}.timeline svg{max-width:100%;height:22px;display:block}.timeline .ticks{stroke:#555;stroke-width:1}.timeline .now{stroke:#c62828;stroke-width:2}.stepnav{margin:.3em 0}pre.program{max-height:22em;position:relative}pre.program .ln.now{background:#ffe082;outline:1px solid #f9a825}.stepnav .goto{width:6em}.stepmsg{color:#b71c1c}
#rulepanel{position:fixed;right:.5em;top:.5em;bottom:.5em;width:min(34em,92vw);overflow:auto;background:#fff;border:1px solid #888;box-shadow:0 2px 12px #0004;padding:.5em 1em;z-index:10}
#rulepanel .close{float:right;font-size:18px}#rulepanel pre,.ruletext pre{white-space:pre-wrap}
.space svg{max-width:100%;height:auto;display:block;margin:.4em 0}.space rect.window{fill:none;stroke:#333;stroke-width:2}.space .cells rect{cursor:pointer}
.space .alloc{fill:none;stroke:#c62828;stroke-width:2;stroke-dasharray:5 3}.space .computed{fill:#1565c0}.space .recomputed{fill:#c62828}.space .conflict rect{fill:none;stroke:#b71c1c;stroke-width:3}.space .conflict text{fill:#b71c1c;font:bold 16px sans-serif;text-anchor:middle}.conflict-text{color:#b71c1c}
${TREE_STYLE}
${HEAP_STYLE}`;

/** The little of the DOM the page script uses (the core is compiled without the DOM's types). */
export interface PageNode {
  querySelector(selector: string): PageNode | null;
  querySelectorAll(selector: string): ArrayLike<PageNode>;
  closest?(selector: string): PageNode | null;
  getAttribute?(name: string): string | null;
  setAttribute?(name: string, value: string): void;
  textContent: string | null;
  innerHTML: string;
  value?: string;
  hidden?: boolean;
  style?: { display: string };
  dataset?: Record<string, string | undefined>;
  addEventListener?(type: string, f: (e: PageEvent) => void): void;
}

export interface PageEvent {
  readonly target: PageNode | null;
  preventDefault(): void;
}

/**
 * Makes the steppers of a page work: each `.stepper` shows its step and the four before it, moves
 * by its slider, its previous/next buttons, to the next step of a chosen rule, or to a step by
 * number; a heap machine's stepper prints and draws the heap after the step with `heap` (the page
 * passes the own source of `heapText` and `heapGraphSvg`). The HTML file embeds this function's own source, and the playground
 * calls it after each update, so the two cannot drift apart. It uses nothing outside its arguments.
 */
export function initSteppers(root: PageNode, heap?: { text: (g: Pick<HeapGraph, 'cells'>) => string; svg: (g: HeapGraph) => string }): void {
  for (const el of Array.from(root.querySelectorAll('.stepper'))) {
    type Mem = [kind: string, func: string, at: string[], value: string];
    // the packed steps of `stepsData`, unpacked into one tuple per step: link, text, rule, heap, line, memory
    type Column = [width: number, digits: string];
    const packedSteps = JSON.parse(el.querySelector('script.steps')!.textContent!) as { rules: [string, string][]; texts: string[]; rule: Column; text: Column; line: [number, number, string]; funcs: string[]; mem: [step: number, kind: string, func: number, at: string, value: string][]; heap: [number, number][] };
    // STEP_DIGITS again: the page embeds this function's source without its module
    const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.';
    const number = (d: string, from: number, w: number) => {
      let n = 0;
      for (let k = from; k < from + w; k++) n = n * digits.length + digits.indexOf(d[k]!);
      return n;
    };
    const unpack = ([w, d]: Column, i: number) => number(d, i * w, w) - 1;
    const lines: number[] = [];
    const [wv, wn, runs] = packedSteps.line;
    for (let k = 0; k < runs.length; k += wv + wn) lines.push(...Array<number>(number(runs, k + wv, wn)).fill(number(runs, k, wv) - 1));
    const count = packedSteps.rule[1].length / packedSteps.rule[0];
    const data: [string, string, string, number, number, Mem?][] = [];
    for (let i = 0; i < count; i++) {
      const [id, link] = packedSteps.rules[unpack(packedSteps.rule, i)]!;
      data.push([link, packedSteps.texts[unpack(packedSteps.text, i)]!, id, -1, lines[i]!]);
    }
    const kinds: Record<string, string> = { r: 'read', w: 'write', a: 'alloc' };
    for (const [i, kind, func, at, value] of packedSteps.mem) data[i]![5] = [kinds[kind]!, packedSteps.funcs[func]!, at === '' ? [] : at.split(','), value];
    for (const [i, h] of packedSteps.heap) data[i]![3] = h;
    const heapData = el.querySelector('script.heaps');
    const graphs = heapData ? (JSON.parse(heapData.textContent!) as Omit<HeapGraph, 'step'>[]) : [];
    const range = el.querySelector('input[type=range]')!;
    const text = el.querySelector('.steptext')!;
    const state = el.querySelector('.stepstate')!;
    const counter = el.querySelector('.stepno')!;
    const msg = el.querySelector('.stepmsg')!;
    const goto = el.querySelector('.goto')!;
    const memory = el.querySelector('.memory');
    const program = el.querySelector('pre.program');
    // the statement of the step, marked in the program and scrolled into its box ([REPORT-STEPPER])
    const drawProgram = (i: number) => {
      const was = program!.querySelector('.ln.now');
      if (was) was.setAttribute!('class', 'ln');
      const line = data[i]![4];
      const now = line < 0 ? null : program!.querySelector(`.ln[data-line="${line}"]`);
      if (!now) return;
      now.setAttribute!('class', 'ln now');
      const box = program as PageNode & { scrollTop: number; clientHeight: number };
      // the box is positioned, so a line's offset is from the box's top
      const at = (now as PageNode & { offsetTop: number }).offsetTop;
      if (at < box.scrollTop || at > box.scrollTop + box.clientHeight - 20) box.scrollTop = Math.max(0, at - box.clientHeight / 3);
    };
    const timeline = el.querySelector('.timeline');
    // σ after step i, replayed from the steps' memory events: an allocation starts an empty buffer
    // (a compute-at allocation inside a loop starts it again), a write sets a cell ([REPORT-MEMORY]).
    const drawMemory = (i: number) => {
      const bufs = new Map<string, { dims: number[]; cells: Map<string, string> }>();
      for (let k = 0; k <= i; k++) {
        const m = data[k]![5];
        if (!m) continue;
        if (m[0] === 'alloc') bufs.set(m[1], { dims: m[2].map(Number), cells: new Map() });
        else if (m[0] === 'write') bufs.get(m[1])?.cells.set(m[2].join(','), m[3]);
      }
      const cur = data[i]![5];
      const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
      memory!.innerHTML = [...bufs]
        .map(([f, b]) => {
          const mark = (at: string) => (cur && cur[1] === f && cur[0] !== 'alloc' && cur[2].join(',') === at ? ` class="${cur[0]}"` : '');
          const cell = (at: string) => `<td data-at="${at}"${mark(at)}>${esc(b.cells.get(at) ?? '·')}</td>`;
          const [x0, xn, y0, yn] = b.dims.length === 2 ? [b.dims[0]!, b.dims[1]!, 0, 1] : b.dims;
          const grid = b.dims.length <= 4 && b.dims.length > 0 && [xn, yn].every((n) => Number.isSafeInteger(n) && n! <= 32);
          const head = grid ? `<tr><th></th>${Array.from({ length: xn! }, (_, c) => `<th>${x0! + c}</th>`).join('')}</tr>` : '';
          const body = grid
            ? head + Array.from({ length: yn ?? 1 }, (_, j) => `<tr><th>${b.dims.length > 2 ? y0! + j : ''}</th>${Array.from({ length: xn! }, (_, c) => cell(b.dims.length > 2 ? `${x0! + c},${y0! + j}` : `${x0! + c}`)).join('')}</tr>`).join('')
            : `<tr><td>${b.cells.size} cells written${cur && cur[1] === f && cur[0] !== 'alloc' ? `; ${cur[0]} at (${esc(cur[2].join(', '))})` : ''}</td></tr>`;
          return `<div class="buf" data-func="${esc(f)}"><code>${esc(f)}</code><div class="outwrap"><table class="out mem">${body}</table></div></div>`;
        })
        .join('');
    };
    // One strip per buffer: a tick per read (below) or write (above) at its step, and where the stepper is.
    const funcs = [...new Set(data.flatMap((d) => (d[5] && d[5][0] !== 'alloc' ? [d[5][1]] : [])))];
    const drawTimeline = (i: number) => {
      const w = 600;
      const x = (k: number) => ((k + 0.5) * w) / data.length;
      timeline!.innerHTML = funcs
        .map((f) => {
          let ticks = '';
          data.forEach((d, k) => {
            const m = d[5];
            if (m && m[1] === f && m[0] !== 'alloc') ticks += m[0] === 'write' ? `M${x(k).toFixed(1)} 2v8` : `M${x(k).toFixed(1)} 12v8`;
          });
          return `<div class="strip" data-func="${f}"><code>${f}</code><svg viewBox="0 0 ${w} 22" width="${w}" height="22"><path class="ticks" d="${ticks}"/><line class="now" x1="${x(i)}" x2="${x(i)}" y1="0" y2="22"/></svg></div>`;
        })
        .join('');
    };
    const show = () => {
      const i = Number(range.value);
      const lo = Math.max(0, i - 4);
      text.innerHTML = data
        .slice(lo, i + 1)
        .map((d, k) => (lo + k === i ? `<b>${lo + k + 1}. ${d[0]} ${d[1]}</b>` : `${lo + k + 1}. ${d[0]} ${d[1]}`))
        .join('<br>');
      counter.textContent = `step ${i + 1} of ${data.length}`;
      if (program) drawProgram(i);
      if (memory) drawMemory(i);
      if (timeline) drawTimeline(i);
      goto.value = String(i + 1);
      const g = graphs[data[i]![3]];
      state.textContent = g && heap ? heap.text(g) : '';
      state.style!.display = g && heap ? '' : 'none';
      if (heapData && heap) {
        el.querySelector('.heapcap')!.textContent = g ? `The heap after step ${i + 1}: ${g.cells.length} cells` : '';
        el.querySelector('.heapwrap')!.innerHTML = g ? heap.svg({ ...g, step: i + 1 }) : '';
      }
    };
    const move = (i: number) => {
      range.value = String(Math.max(0, Math.min(data.length - 1, i)));
      msg.textContent = '';
      show();
    };
    range.addEventListener!('input', () => move(Number(range.value)));
    el.querySelector('.prev')!.addEventListener!('click', () => move(Number(range.value) - 1));
    el.querySelector('.next')!.addEventListener!('click', () => move(Number(range.value) + 1));
    goto.addEventListener!('change', () => move(Number(goto.value) - 1));
    el.querySelector('.runto')!.addEventListener!('click', () => {
      const rule = el.querySelector('.rulekind')!.value;
      const at = data.findIndex((d, k) => k > Number(range.value) && d[2] === rule);
      if (at < 0) msg.textContent = `no later step applies [${rule}]`;
      else move(at);
    });
    show();
  }
}

/**
 * Makes rule IDs open their text in place: a click on `[ID]` shows the rule's section of the spec
 * (from the page's appendix) in a panel beside what the reader was looking at. Embedded in the
 * HTML file as its own source, so it uses nothing outside its argument.
 */
export function initRules(root: PageNode & { rulesReady?: boolean }): void {
  // The playground renders into the same root again and again: one listener serves every render.
  if (root.rulesReady) return;
  root.rulesReady = true;
  root.addEventListener!('click', (e) => {
    const panel = root.querySelector('#rulepanel');
    if (!panel) return;
    if (e.target?.closest?.('#rulepanel .close')) return void (panel.hidden = true);
    const a = e.target?.closest?.('a.rule[data-rule]');
    const text = a && root.querySelector(`#rule-${a.getAttribute!('data-rule')}`);
    if (!text) return;
    e.preventDefault();
    panel.querySelector('.body')!.innerHTML = text.innerHTML;
    panel.hidden = false;
  });
}

/**
 * Links the views of one run (implements [REPORT-LINKS]): hovering a loop of a loop nest colours
 * the iteration-space picture by that loop's iterations and marks the same loop in every nest and
 * the directives that changed it; hovering a cell of the picture marks the loops around it in the
 * nests and names their values. Embedded in the HTML file as its own source, so it uses nothing
 * outside its argument; one listener on the root serves every render of the playground.
 */
export function initLinks(root: PageNode & { linksReady?: boolean }): void {
  if (root.linksReady) return;
  root.linksReady = true;
  type Lit = PageNode & { classList: { add(c: string): void; remove(c: string): void } };
  const all = (sel: string) => Array.from(root.querySelectorAll(sel)) as Lit[];
  const clear = () => {
    for (const n of all('.linked')) n.classList.remove('linked');
    for (const t of all('.space .linkinfo')) t.textContent = '';
  };
  const markLoop = (name: string) => {
    for (const li of all(`#programs li[data-key="for ${name}"]`)) li.classList.add('linked');
    all('#programs .looptree').forEach((tree, i) => {
      if (tree.querySelector(`li.changed[data-key="for ${name}"]`)) root.querySelector(`#T${i}`) && (root.querySelector(`#T${i}`) as Lit).classList.add('linked');
    });
  };
  root.addEventListener!('mouseover', (e) => {
    const li = e.target?.closest?.('#programs li[data-key^="for "]');
    const cell = e.target?.closest?.('.space rect[data-g]');
    const fn = e.target?.closest?.('.fn[data-func]');
    if (!li && !cell && !fn) return;
    clear();
    if (fn) {
      // a func: its name everywhere in the source, its computation in every nest, its region in the picture
      const f = fn.getAttribute!('data-func')!;
      for (const n of all(`.fn[data-func="${f}"], #programs li[data-key="label ${f}"]`)) n.classList.add('linked');
      for (const sp of all('.space')) {
        if (!(sp as Lit & { showProducer?: (f: string) => boolean }).showProducer?.(f)) continue;
        sp.classList.add('linked');
        sp.querySelector('.linkinfo')!.textContent = `${f}: where each tile allocates and computes it`;
      }
      return;
    }
    if (li) {
      const name = li.getAttribute!('data-key')!.slice(4).replace(/ #\d+$/, '');
      markLoop(name);
      for (const sp of all('.space')) {
        const opt = sp.querySelector(`option[data-loop="${name}"]`) as (PageNode & { value: string }) | null;
        if (!opt) continue;
        (sp as Lit & { colourBy?: (k: string) => void }).colourBy?.(opt.value);
        sp.classList.add('linked');
      }
      return;
    }
    const space = cell!.closest!('.space')!;
    const values = cell!.getAttribute!('data-g')!.split(',');
    const loops = Array.from(space.querySelectorAll('option[data-loop]')).map((o, i) => [o.getAttribute!('data-loop')!, values[i + 1]] as const);
    for (const [name] of loops) markLoop(name);
    space.querySelector('.linkinfo')!.textContent = `point ${cell!.getAttribute!('data-p')}: ${loops.map(([n, v]) => `${n} = ${v}`).join(', ')}`;
  });
}

/**
 * Draws the picture of the program a reader picks from the ones the page holds (its templates,
 * written by `spaceSection`). Embedded in the HTML file as its own source, with the
 * page's `initSpaces` as its argument, so it uses nothing outside its arguments.
 */
export function initPictures(root: PageNode, spaces: (root: PageNode) => void): void {
  for (const select of Array.from(root.querySelectorAll('select.picture-of'))) {
    const section = select.closest!('section')!;
    if (!section.querySelector('template.picture')) continue;
    select.addEventListener!('change', () => {
      const box = section.querySelector('.spacebox')!;
      const t = section.querySelector(`template.picture[data-of~="${select.value}"]`);
      if (!t) return;
      box.innerHTML = t.innerHTML;
      box.setAttribute!('data-of', select.value!);
      spaces(box);
    });
  }
}

/**
 * Everything a page's script does; the playground calls it after each update with the sections
 * it replaced (`changed`), so a kept section keeps its state and is not bound twice.
 */
export function initPage(root: PageNode, changed: readonly PageNode[] = [root]): void {
  for (const el of changed) {
    initSteppers(el, { text: heapText, svg: heapGraphSvg });
    initSpaces(el);
    initPictures(el, initSpaces);
  }
  initRules(root);
  initLinks(root);
}

/**
 * HTML written for a part of a model, kept while the part is the same object: a cached build
 * ([REPORT-INCREMENTAL]) hands back unchanged parts as they were, so their HTML is not written again.
 */
const written = new WeakMap<object, { readonly o: RenderOptions; readonly html: string }>();
function once(part: object, o: RenderOptions, f: () => string): string {
  const w = written.get(part);
  if (w && w.o.rules === o.rules && w.o.pictureChoice === o.pictureChoice) return w.html;
  const html = f();
  written.set(part, { o, html });
  return html;
}

/** One top-level element of a report's body; `id` is its element's id. */
export interface ReportSection {
  readonly id: string;
  readonly html: string;
  /**
   * The element's children, when a page may update them one by one: `html` is the element's
   * opening tag, these, and its closing tag (the programs, one child each).
   */
  readonly parts?: readonly string[];
}

/** The sections of a report in page order, each one element with an id (the playground updates those that changed). */
export function reportSections(m: ReportModel, o: RenderOptions = {}): ReportSection[] {
  const sec: ReportSection[] = [];
  const add = (id: string, html: string) => void sec.push({ id, html });
  if (m.errors.length > 0) add('errors', `<div class="errors" id="errors"><pre>${withRules(m.errors.join('\n'), o)}</pre></div>`);
  // Only `equal` is shown as success; a vacuous verdict compared nothing and is no pass.
  if (m.verdict) add('verdict', `<div class="verdict ${m.verdict.kind === 'equal' ? 'ok' : m.verdict.kind}" id="verdict">${withRules(m.verdict.text, o)}</div>`);
  if (m.notes.length > 0) add('notes', `<div class="notes" id="notes">${m.notes.map((n) => `<p>${withRules(n, o)}</p>`).join('')}</div>`);
  if (m.source) add('algorithm', `<section id="algorithm"><h2>Algorithm <small>${escapeHtml(m.source.file)}</small></h2><pre>${funcLinks(m.source.text, m.funcs ?? [])}</pre></section>`);
  if (m.programs.length > 0) {
    const parts = [`<h2>Programs T0 … T${m.programs.length - 1}</h2>`, ...m.programs.map((p, i) => programHtml(p, i, m.programs[i - 1], i === m.programs.length - 1, o))];
    sec.push({ id: 'programs', html: `<section id="programs">${parts.join('')}</section>`, parts });
  }
  if (m.bounds) {
    const b = m.bounds;
    add('bounds', once(b, o, () =>
      `<section id="bounds"><h2>Bounds</h2><h3>Holes</h3><pre>${escapeHtml(b.holes.join('\n') || '(none)')}</pre><h3>Query 𝓑(T)</h3><pre>${withRules(b.query, o)}</pre>` +
        `<h3>Completion by ${escapeHtml(b.engine)}</h3>${b.failure ? `<p class="notes">The engine failed: ${withRules(b.failure, o)}</p>` : ''}<pre>${escapeHtml(b.completion.join('\n'))}</pre></section>`));
  }
  const output = m.output;
  if (output) add('output', once(output, o, () => `<section id="output"><h2>Output <code>${escapeHtml(output.func)}</code> on ${output.window.map(([a, n]) => `[${a}, ${a + n})`).join(' × ')}</h2>${outputHtml(output)}</section>`));
  const space = m.space;
  if (space) add('space', once(m.pictures ?? space, o, () => spaceSection(space, m.programs.map((p) => p.label), m.pictures, o)));
  const machine = m.machine;
  if (machine) {
    add('machine', once(machine, o, () => `<section id="machine"><h2>The machine on ${escapeHtml(machine.window)}</h2>${stepperHtml('machine-steps', machine.steps, o, undefined, machine.program)}${machine.truncated ? '<p class="notes">Only the first steps are shown.</p>' : ''}<p>Outcome: <code>${withRules(machine.outcome, o)}</code></p></section>`));
  }
  const d = m.derivation;
  if (d) {
    add('derivation', once(d, o, () => {
      const depth = d.depth === undefined ? '' : `<p class="notes">The whole derivation takes more than ${d.budget} steps; it is shown to depth ${d.depth} as <code>refsem explain --depth ${d.depth}</code> prints it: a func access below is <em>not expanded</em>, its value taken from the evaluator.</p>`;
      return `<section id="derivation"><h2>Derivation of <code>${escapeHtml(d.point)}</code></h2>${depth}${d.truncated ? `<p class="notes">Only the first ${d.nodes} nodes of the derivation are shown.</p>` : ''}<div class="proofwrap">${proofHtml(foldDerivation(d.tree), o, 3)}</div></section>`;
    }));
  }
  if (m.perceus) {
    const p = m.perceus;
    add('perceus', `<section id="perceus"><h2>Perceus</h2><h3>Translated program</h3><pre>${escapeHtml(p.translated)}</pre><h3 id="heap">Heap machine</h3><p>Result: <code>${escapeHtml(p.result)}</code></p>${p.truncated ? '<p class="notes">Only the first steps are shown.</p>' : ''}${stepperHtml('heap-steps', p.steps, o, { graphs: p.graphs, start: p.heap ? p.heap.step - 1 : 0 })}</section>`);
  }
  const appendix = rulesAppendix(sec.map((x) => x.html), o);
  if (appendix) add('rules', appendix);
  return sec;
}

/**
 * The iteration-space section: the picture of the last program, and a choice of the program drawn
 * ([REPORT-SPACE-EACH]) when the page holds every program's picture (each distinct one once, in a
 * template) or the host draws the chosen one (the playground).
 */
function spaceSection(space: NonNullable<ReportModel['space']>, labels: readonly string[], pictures: ReportModel['pictures'], o: RenderOptions): string {
  const last = labels.length - 1;
  const choice = labels.length > 1 && (pictures || o.pictureChoice)
    ? `<p class="picturechoice"><label>the picture of <select class="picture-of">${labels.map((l, i) => `<option value="${i}"${i === last ? ' selected' : ''}>${escapeHtml(l)}</option>`).join('')}</select></label></p>`
    : '';
  const kept = new Map<string, number[]>();
  pictures?.forEach((p, i) => {
    const html = p.space ? spaceHtml(p.space) : `<p class="notes">No picture of ${escapeHtml(p.label)}: ${withRules(p.error ?? '', o)}</p>`;
    kept.set(html, [...(kept.get(html) ?? []), i]);
  });
  const templates = [...kept].map(([html, of]) => `<template class="picture" data-of=" ${of.join(' ')} ">${html}</template>`).join('');
  return `<section id="space"><h2>Iteration space of <code>${escapeHtml(space.func)}</code></h2>${choice}<div class="spacebox" data-of="${last}">${spaceHtml(space)}</div>${templates}</section>`;
}

/** The source with each func name marked, for the links between a func and its views ([REPORT-LINKS]). */
function funcLinks(text: string, funcs: readonly string[]): string {
  const names = new Set(funcs);
  return escapeHtml(text).replace(/[A-Za-z_]\w*/g, (w) => (names.has(w) ? `<span class="fn" data-func="${w}">${w}</span>` : w));
}

/**
 * One of T0 … Tn: its loop nest with the directive's change marked, and its text diff from the one
 * before. Written once per program object (a cached build hands back the programs before an
 * edited line as they were), and again only if it becomes or stops being the last.
 */
const programsWritten = new WeakMap<object, { readonly last: boolean; readonly o: RenderOptions; readonly html: string }>();
function programHtml(p: ReportModel['programs'][number], i: number, prev: ReportModel['programs'][number] | undefined, last: boolean, o: RenderOptions): string {
  const w = programsWritten.get(p);
  if (w && w.last === last && w.o.rules === o.rules && w.o.pictureChoice === o.pictureChoice) return w.html;
  const title = `<h3 id="T${i}">${escapeHtml(p.label)}${p.directive ? ` after <code>${escapeHtml(p.directive)}</code> ${ruleLink(p.rule, o)}` : ''}</h3>`;
  const tree = p.tree ? `<h4>Loop nest of ${escapeHtml(p.label)}</h4>${loopTreeHtml(p.tree, prev ? p.changes ?? [] : undefined, last)}` : '';
  let html: string;
  if (!prev) html = `<div class="program">${title}${tree}<h4>Program</h4><pre>${escapeHtml(p.text)}</pre></div>`;
  else {
    const lines = foldUnchanged(lineDiff(prev.text.split('\n'), p.text.split('\n'))).map((d) =>
      typeof d === 'number' ? `<span class="fold">  … ${d} unchanged line${d === 1 ? '' : 's'}</span>` : d.op === ' ' ? escapeHtml(`  ${d.line}`) : `<span class="${d.op === '+' ? 'add' : 'del'}">${escapeHtml(`${d.op} ${d.line}`)}</span>`,
    );
    html = `<div class="program">${title}${tree}<h4>Text diff</h4><pre class="diff">${lines.join('\n')}</pre><details><summary>the whole of ${escapeHtml(p.label)}</summary><pre>${escapeHtml(p.text)}</pre></details></div>`;
  }
  programsWritten.set(p, { last, o, html });
  return html;
}

/** The sections of a report, without the page around them. */
export function reportBody(m: ReportModel, o: RenderOptions = {}): string {
  return reportSections(m, o).map((x) => x.html).join('\n');
}

/** The whole page: the sections, the style, and the slider script. */
export function renderReport(m: ReportModel, o: RenderOptions = {}): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(m.title)}</title><style>${REPORT_STYLE}</style></head>\n<body><h1>${escapeHtml(m.title)}</h1>\n${reportBody(m, o)}\n<script>(${initSteppers.toString()})(document, { text: ${heapText.toString()}, svg: ${heapGraphSvg.toString()} });(${initSpaces.toString()})(document);(${initPictures.toString()})(document, ${initSpaces.toString()});(${initRules.toString()})(document);(${initLinks.toString()})(document);</script></body></html>\n`;
}
