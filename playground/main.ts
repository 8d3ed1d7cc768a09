// The playground: edit an algorithm and a schedule and see the report of the program — T0 … Tn,
// bounds, output, the machine, a derivation — recomputed in the browser by the same core the
// command line uses. The whole view lives in the URL, so a link reproduces it.
import { buildReport, pictureOf, ReportCache, type ReportRequest } from '../src/report/build.js';
import { escapeHtml, initPage, reportSections, REPORT_STYLE, type ReportSection } from '../src/report/html.js';
import { initSpaces, spaceHtml } from '../src/report/space-html.js';
import { buildLambdaReport } from '../src/report/lambda.js';
import { BUILTIN_ENGINES } from '../src/bounds/engine.js';
import { EXAMPLES, type Example } from './examples.js';
import { RULES } from './rules.js';

interface View {
  readonly example: string;
  readonly alg: string;
  readonly sched: string;
  readonly window: string;
  readonly params: string;
  readonly point: string;
  readonly engine: string;
  /** `sched` or `halide`; links made before the choice existed have none and mean `sched` */
  readonly syntax?: string;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const fields = {
  example: $<HTMLSelectElement>('example'),
  alg: $<HTMLTextAreaElement>('alg'),
  sched: $<HTMLTextAreaElement>('sched'),
  window: $<HTMLInputElement>('window'),
  params: $<HTMLInputElement>('params'),
  point: $<HTMLInputElement>('point'),
  engine: $<HTMLSelectElement>('engine'),
  syntax: $<HTMLSelectElement>('syntax'),
};
const report = $<HTMLElement>('report');
const timing = $<HTMLElement>('timing');
const notice = $<HTMLElement>('notice');

const style = document.createElement('style');
style.textContent = REPORT_STYLE.replace(/body\{[^}]*\}/, '');
document.head.appendChild(style);

for (const ex of EXAMPLES) fields.example.add(new Option(ex.title, ex.id));

function viewOf(ex: Example): View {
  return { example: ex.id, alg: ex.source, sched: ex.schedule ?? '', window: ex.window ?? '', params: ex.params ?? '', point: '', engine: 'beta1', syntax: ex.syntax ?? 'sched' };
}

/** The view as URL text: base64url of its JSON (UTF-8), so any program text survives. */
export function encodeView(v: View): string {
  const bytes = new TextEncoder().encode(JSON.stringify(v));
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeView(text: string): View | undefined {
  try {
    const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)))) as Partial<View>;
    const keys: (keyof View)[] = ['example', 'alg', 'sched', 'window', 'params', 'point', 'engine'];
    return keys.every((k) => typeof v[k] === 'string') && (v.syntax === undefined || v.syntax === 'sched' || v.syntax === 'halide') ? (v as View) : undefined;
  } catch {
    return undefined;
  }
}

function current(): View {
  return { example: fields.example.value, alg: fields.alg.value, sched: fields.sched.value, window: fields.window.value, params: fields.params.value, point: fields.point.value, engine: fields.engine.value, syntax: fields.syntax.value };
}

function show(v: View): void {
  fields.example.value = v.example;
  fields.alg.value = v.alg;
  fields.sched.value = v.sched;
  fields.window.value = v.window;
  fields.params.value = v.params;
  fields.point.value = v.point;
  fields.engine.value = v.engine;
  fields.syntax.value = v.syntax ?? 'sched';
}

/** A background that tints line `line` (from 1) of an editor. */
function lineTint(area: HTMLTextAreaElement, line: number, colour: string): string {
  const h = parseFloat(getComputedStyle(area).lineHeight);
  const top = parseFloat(getComputedStyle(area).paddingTop) + (line - 1) * h - area.scrollTop;
  return `linear-gradient(transparent ${top}px, ${colour} ${top}px, ${colour} ${top + h}px, transparent ${top + h}px)`;
}

/** The tint of an editor's error line, if it has one. */
const errorTint = (area: HTMLTextAreaElement) => (area.dataset.errorLine ? lineTint(area, Number(area.dataset.errorLine), '#fdd') : '');

// A program's heading names its directive's line of the schedule (`(file:line:col)`): hovering it
// tints that line in the schedule's editor, so T_i is seen beside the line that made it ([REPORT-LINKS]).
report.addEventListener('mouseover', (e) => {
  const h = (e.target as HTMLElement).closest('#programs h3');
  const at = h && / \(([^()]*):(\d+):\d+\)$/.exec(h.querySelector('code')?.textContent ?? '');
  if (!at || !at[1]!.endsWith('.sched') && !at[1]!.endsWith('.halide')) return;
  fields.sched.dataset.linkedLine = at[2]!;
  fields.sched.style.backgroundImage = [lineTint(fields.sched, Number(at[2]), '#ffe082'), errorTint(fields.sched)].filter(Boolean).join(',');
});
report.addEventListener('mouseout', (e) => {
  if (!(e.target as HTMLElement).closest('#programs h3') || fields.sched.dataset.linkedLine === undefined) return;
  delete fields.sched.dataset.linkedLine;
  fields.sched.style.backgroundImage = errorTint(fields.sched);
});

/**
 * Marks the line of a located error in the editor it belongs to: the line is tinted, and a note
 * under the editor names it and, clicked, selects it. Errors are `file:line:col: error: …`.
 */
function markErrors(errors: readonly string[], editors: readonly { file: string; area: HTMLTextAreaElement; mark: HTMLElement }[]): void {
  for (const { file, area, mark } of editors) {
    const hit = errors.map((e) => (e.startsWith(`${file}:`) ? /^(\d+):(\d+): error: (.*)/.exec(e.slice(file.length + 1)) : null)).find((m) => m);
    if (!hit) {
      delete area.dataset.errorLine;
      area.style.backgroundImage = '';
      area.removeAttribute('aria-invalid');
      mark.hidden = true;
      continue;
    }
    const line = Number(hit[1]);
    area.dataset.errorLine = String(line);
    area.setAttribute('aria-invalid', 'true');
    area.style.backgroundImage = lineTint(area, line, '#fdd');
    mark.hidden = false;
    mark.textContent = `line ${line}: ${hit[3]}`;
    mark.onclick = () => {
      const starts = area.value.split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
      area.focus();
      area.setSelectionRange(starts, starts + (area.value.split('\n')[line - 1]?.length ?? 0));
    };
  }
}

/** `0+8,-2+4` as [min, len] pairs; undefined when empty, an error message when malformed. */
function windowOf(text: string): [number, number][] | undefined | string {
  if (text.trim() === '') return undefined;
  const dims = text.split(',').map((d) => /^\s*(-?\d+)\s*\+\s*(\d+)\s*$/.exec(d));
  if (dims.some((m) => !m)) return `window '${text}': write one MIN+LEN per dimension, e.g. 0+8,0+8`;
  return dims.map((m) => [Number(m![1]), Number(m![2])]);
}

function paramsOf(text: string): Record<string, number> | string {
  const out: Record<string, number> = {};
  for (const item of text.split(/[,\s]+/).filter(Boolean)) {
    const m = /^([A-Za-z_][\w.]*)=(-?\d+)$/.exec(item);
    if (!m) return `parameter '${item}': write NAME=INT, e.g. n=4`;
    out[m[1]!] = Number(m[2]);
  }
  return out;
}


/** The stages of the last report, so an edit recomputes only what it changed ([REPORT-INCREMENTAL]). */
const cache = new ReportCache();
/** The HTML of each section shown, in page order. */
let shown: readonly ReportSection[] = [];

/** The element written by `html` (one element). */
function element(html: string): HTMLElement {
  const t = document.createElement('template');
  t.innerHTML = html;
  return t.content.firstElementChild as HTMLElement;
}

/**
 * Puts the sections on the page, each where it belongs: a section whose HTML is the same stays as
 * it is (a kept stepper stays where the reader left it), one written in parts has only the parts
 * that changed replaced (the programs after an edited schedule line), the others are written
 * anew; returns the elements written.
 */
function patch(sections: readonly ReportSection[]): HTMLElement[] {
  const before = new Map(shown.map((s, i) => [s.id, { s, el: report.children[i] as HTMLElement }]));
  shown = sections;
  const fresh: HTMLElement[] = [];
  let prev: Element | null = null;
  for (const s of sections) {
    const was = before.get(s.id);
    before.delete(s.id);
    let el: HTMLElement;
    if (was && was.s.html === s.html) el = was.el;
    else if (was && was.s.parts && s.parts) {
      el = was.el;
      fresh.push(...patchParts(el, was.s.parts, s.parts));
    } else {
      el = element(s.html);
      was?.el.remove();
      fresh.push(el);
    }
    if ((prev ? prev.nextElementSibling : report.firstElementChild) !== el) report.insertBefore(el, prev ? prev.nextElementSibling : report.firstElementChild);
    prev = el;
  }
  for (const { el } of before.values()) el.remove();
  return fresh;
}

/** Replaces the children of `el` written by `old` with those written by `parts`, only where they differ. */
function patchParts(el: HTMLElement, old: readonly string[], parts: readonly string[]): HTMLElement[] {
  const fresh: HTMLElement[] = [];
  parts.forEach((html, i) => {
    if (html === old[i]) return;
    const child = element(html);
    const at = el.children[i];
    if (at) at.replaceWith(child);
    else el.appendChild(child);
    fresh.push(child);
  });
  while (el.children.length > parts.length) el.lastElementChild!.remove();
  return fresh;
}

/** The sections of a whole report, in page order: where a section still being computed goes. */
const ORDER = ['errors', 'verdict', 'notes', 'algorithm', 'programs', 'bounds', 'output', 'space', 'machine', 'derivation', 'rules'];

/** What a section shows while its stage runs: that it is coming, not what it showed before the edit. */
const PENDING: Record<string, string> = {
  verdict: '<div class="verdict pending" id="verdict-pending">Comparing the program with the algorithm…</div>',
  bounds: '<section id="bounds-pending"><h2>Bounds</h2><p>The bounds are being inferred…</p></section>',
  space: '<section id="space-pending"><h2>Iteration space</h2><p>The program is running on the window…</p></section>',
  machine: '<section id="machine-pending"><h2>The machine</h2><p>The machine is running…</p></section>',
};

/** The sections with a placeholder, in its place, for each of `ids` (the stages a later task computes). */
function withPending(sections: readonly ReportSection[], ids: readonly string[]): ReportSection[] {
  const out = [...sections];
  for (const id of ids) {
    const at = out.findIndex((s) => ORDER.indexOf(s.id) > ORDER.indexOf(id));
    const pending = { id, html: PENDING[id]! };
    if (at < 0) out.push(pending);
    else out.splice(at, 0, pending);
  }
  return out;
}

/** How the playground renders: rules in place, and the picture of any program drawn on request. */
const OPTIONS = { rules: RULES, pictureChoice: true } as const;

/** The request of the report shown, for the pictures a reader picks. */
let shownRequest: ReportRequest | undefined;

// The picture of the program a reader picks ([REPORT-SPACE-EACH]): computed then, from the stages
// the cache holds, and drawn in place of the last program's.
report.addEventListener('change', (e) => {
  const select = (e.target as HTMLElement).closest('select.picture-of') as HTMLSelectElement | null;
  const box = select?.closest('section')?.querySelector('.spacebox') as HTMLElement | null;
  if (!select || !box || !shownRequest) return;
  const p = pictureOf(shownRequest, Number(select.value), cache);
  box.innerHTML = p.space ? spaceHtml(p.space) : `<p class="notes">No picture of ${escapeHtml(select.selectedOptions[0]?.text ?? '')}: ${escapeHtml(p.error ?? '')}</p>`;
  box.dataset.of = select.value;
  initSpaces(box);
});

/** Renders started; a machine run of an older render is dropped. */
let renders = 0;

/**
 * Recomputes the report for the editors' view. An algorithm's report comes in up to three parts,
 * each shown as soon as it is computed, the sections still to come saying so: T0 … Tn with the
 * output and the derivation; then, in the next task, the bounds, the run of Tn with its verdict
 * and picture; then the machine — the slowest stage and the least read while editing. Each part
 * takes its stages from the cache, so a part is skipped when an edit left its stages as they
 * were. `data-ms` times the first part, `data-runs-ms` the first two, `data-complete-ms` the
 * whole; `data-renders` counts completed renders.
 */
function render(): void {
  const v = current();
  const mine = ++renders;
  timing.dataset.started = String(mine);
  const t0 = performance.now();
  const isLambda = EXAMPLES.find((e) => e.id === v.example)?.kind === 'lambda';
  const algFile = `${v.example}.${isLambda ? 'lam' : 'alg'}`;
  const schedFile = `${v.example}.${v.syntax === 'halide' ? 'halide' : 'sched'}`;
  const win = windowOf(v.window);
  const params = paramsOf(v.params);
  const show = (sections: readonly ReportSection[], errors: readonly string[]) => {
    initPage(report, patch(sections));
    markErrors(errors, [
      { file: algFile, area: fields.alg, mark: $('algmark') },
      { file: schedFile, area: fields.sched, mark: $('errmark') },
    ]);
  };
  const finished = () => {
    const ms = performance.now() - t0;
    timing.textContent = `updated in ${ms.toFixed(0)} ms`;
    timing.dataset.completeMs = String(ms);
    // Counts renders, so that a wait for the next one does not depend on its time differing;
    // `done` = `started` with no edit `queued` says the page shows the editors' view whole.
    timing.dataset.renders = String(Number(timing.dataset.renders ?? 0) + 1);
    timing.dataset.done = String(mine);
    history.replaceState(null, '', `#v=${encodeView(v)}`);
    $<HTMLAnchorElement>('share').href = location.href;
  };
  const shownAt = (tModel: number, tBody: number) => {
    const ms = performance.now() - t0;
    timing.dataset.ms = String(ms);
    // where the time went: computing the report, writing its HTML, and the page drawing it
    timing.dataset.split = JSON.stringify({ compute: Math.round(tModel - t0), html: Math.round(tBody - tModel), page: Math.round(performance.now() - tBody) });
  };
  if (typeof win === 'string' || typeof params === 'string') {
    show([{ id: 'errors', html: `<div class="errors" id="errors"><pre>${typeof win === 'string' ? win : params}</pre></div>` }], []);
    return (shownAt(t0, t0), finished());
  }
  if (isLambda) {
    const model = buildLambdaReport({ source: { file: algFile, text: v.alg } });
    const tModel = performance.now();
    const sections = reportSections(model, OPTIONS);
    const tBody = performance.now();
    show(sections, []);
    return (shownAt(tModel, tBody), finished());
  }
  const request: ReportRequest = {
    source: { file: algFile, text: v.alg },
    ...(v.sched.trim() ? { schedule: { file: schedFile, text: v.sched } } : {}),
    ...(win ? { window: win } : {}),
    params,
    engine: BUILTIN_ENGINES[v.engine] ?? BUILTIN_ENGINES.beta1!,
    ...(v.point.trim() ? { point: v.point.trim() } : {}),
  };
  shownRequest = request;
  const first = buildReport({ ...request, machine: 'kept', bounds: 'kept' }, cache);
  const tModel = performance.now();
  const sections = reportSections(first, OPTIONS);
  const tBody = performance.now();
  const machinePending = (m: typeof first) => m.bounds !== undefined && m.machine === undefined;
  show(first.later ? withPending(sections, ['verdict', 'bounds', 'space', 'machine']) : machinePending(first) ? withPending(sections, ['machine']) : sections, first.errors);
  shownAt(tModel, tBody);
  const ran = () => void (timing.dataset.runsMs = String(performance.now() - t0));
  const machine = () => {
    // every stage but the machine comes from the cache
    const whole = buildReport(request, cache);
    show(reportSections(whole, OPTIONS), whole.errors);
    finished();
  };
  if (!first.later) {
    ran();
    if (!machinePending(first)) return finished();
    return void setTimeout(() => mine === renders && machine(), 0);
  }
  setTimeout(() => {
    if (mine !== renders) return;
    const second = buildReport({ ...request, machine: 'kept' }, cache);
    const pending = machinePending(second);
    show(pending ? withPending(reportSections(second, OPTIONS), ['machine']) : reportSections(second, OPTIONS), second.errors);
    ran();
    if (!pending) return finished();
    setTimeout(() => mine === renders && machine(), 0);
  }, 0);
}

let pending: number | undefined;
const soon = () => {
  if (pending !== undefined) clearTimeout(pending);
  timing.dataset.queued = 'yes';
  pending = window.setTimeout(() => ((pending = undefined), delete timing.dataset.queued, render()), 150);
};
for (const f of [fields.alg, fields.sched, fields.window, fields.params, fields.point]) f.addEventListener('input', soon);
fields.engine.addEventListener('change', render);
fields.syntax.addEventListener('change', render);
fields.example.addEventListener('change', () => {
  show(viewOf(EXAMPLES.find((e) => e.id === fields.example.value)!));
  render();
});

function start(): void {
  const hash = new URLSearchParams(location.hash.slice(1)).get('v');
  const v = hash === null ? undefined : decodeView(hash);
  if (hash !== null && !v) {
    notice.hidden = false;
    notice.textContent = 'The link does not hold a readable view (it may have been cut short); showing the default example instead.';
  }
  show(v ?? viewOf(EXAMPLES[0]!));
  render();
}
start();
