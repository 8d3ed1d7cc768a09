// The report of a program: each section from the flow of the program, and errors as located
// messages in the page instead of an exception.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_EXPANDED } from '../../src/alg-semantics/spec-eval.js';
import { buildReport, pictureOf, ReportCache, REPORT_LIMITS } from '../../src/report/build.js';
import { reportBody, reportSections } from '../../src/report/html.js';
import type { DerivationNode } from '../../src/report/model.js';
import { runCli } from '../support/cli.js';
import { example, examplesDir, scratch } from '../support/files.js';

const sec22 = { file: 'sec22.alg', text: example('sec22.alg') };
const sched = { file: 'sec22.sched', text: example('sec22.sched') };

describe('buildReport', () => {
  const m = buildReport({ source: sec22, schedule: sched, window: [[0, 6]] });

  it('lists T0 … T3 with the directive and rule of each step', () => {
    expect(m.errors).toEqual([]);
    expect(m.programs.map((p) => p.label)).toEqual(['T0', 'T1', 'T2', 'T3']);
    expect(m.programs[1]!.directive).toMatch(/^split f\.x by 3 /);
    expect(m.programs[1]!.rule).toEqual({ id: 'SPLIT' });
    expect(m.programs[2]!.rule).toEqual({ id: 'COMPUTE-AT' });
  });

  it('shows the output window of §2.2 and that the target agrees with it', () => {
    expect(m.output).toEqual({ func: 'f', window: [[0, 6]], values: ['1', '5', '13', '25', '41', '61'] });
    expect(m.verdict).toEqual({ kind: 'equal', text: '[VERDICT-EQUAL] equal: the target agrees with the algorithm on the whole window' });
  });

  it('has the holes, the query and the completion by β1', () => {
    expect(m.bounds!.holes).toContain('?cpu.min(f.x)');
    expect(m.bounds!.query).toContain('[B-PIPELINE]');
    expect(m.bounds!.engine).toBe('beta1');
    expect(m.bounds!.completion.some((l) => l.startsWith('?mem.len(g.x) = '))).toBe(true);
  });

  it('steps the machine on the first tile and derives the first point', () => {
    // sec22 splits f.x by 3 and computes g per tile: the first tile is x in [0, 3)
    expect(m.machine!.window).toBe('[0, 3)');
    expect(m.machine!.steps.length).toBeGreaterThan(10);
    expect(m.machine!.steps.some((s) => s.rule.id === 'FOR-ITER')).toBe(true);
    expect(m.machine!.outcome).toMatch(/^done after \d+ steps/);
    expect(m.derivation!.point).toBe('f(0)');
    expect(m.derivation!.tree.text).toContain('⇓ 1');
  });

  it('[REPORT-MEMORY] each machine step names the memory it touched, and the writes replayed are the output', () => {
    const steps = m.machine!.steps;
    for (const s of steps) {
      const kind = { READ: 'read', ASSN: 'write', ALLOC: 'alloc' }[s.rule.id as string];
      expect(s.mem?.kind).toBe(kind);
    }
    const f = new Map<string, string>();
    for (const s of steps) {
      if (s.mem?.func !== 'f') continue;
      if (s.mem.kind === 'alloc') f.clear();
      else if (s.mem.kind === 'write') f.set(s.mem.at.join(','), s.mem.value!);
    }
    expect(f.size).toBeGreaterThan(0);
    for (const [x, v] of f) expect(v).toBe(m.output!.values[Number(x)]);
  });

  it('[REPORT-STEPPER] each step of a statement names its line of the program the machine runs', () => {
    const lines = m.machine!.program.split('\n');
    const assn = m.machine!.steps.filter((s) => s.rule.id === 'ASSN');
    expect(assn.length).toBeGreaterThan(0);
    for (const s of assn) expect(lines[s.line!]).toContain(`${s.mem!.func}[`);
    for (const s of m.machine!.steps.filter((x) => x.rule.id === 'FOR-ITER')) expect(lines[s.line!]).toMatch(/^\s*for /);
    expect(m.machine!.steps[0]!.line).toBeUndefined();
  });

  it('a program with an error gives its located message and no later section', () => {
    const bad = buildReport({ source: { file: 'bad.alg', text: 'pipeline f() { func f(x) = g(x); }' } });
    expect(bad.errors.length).toBe(1);
    expect(bad.errors[0]).toMatch(/^bad\.alg:1:\d+: error: /);
    expect(bad.output).toBeUndefined();
  });

  it('a schedule that is rejected shows the rejection and the programs up to it', () => {
    const r = buildReport({ source: sec22, schedule: { file: 's.sched', text: 'split f.x by 3\ncompute-at g at f.nope\n' } });
    expect(r.programs.map((p) => p.label)).toEqual(['T0', 'T1']);
    expect(r.errors[0]).toMatch(/^s\.sched:2:1: error: /);
  });
});

describe('regressions of the report', () => {
  it('a Halide call skipped because it changes no value is a note of the report, never silent', () => {
    const m = buildReport({ source: { file: 'blur.alg', text: example('blur.alg') }, schedule: { file: 'm.halide', text: 'blur_x.compute_root().memoize();\n' }, window: [[0, 2], [0, 2]] });
    expect(m.notes.some((n) => n.startsWith('m.halide:1:23: note: memoize(): [HALIDE-STYLE-IGNORED]'))).toBe(true);
  });
  it('a Halide default (an implicit inline) is attributed to no line of the schedule, not to its line 1', () => {
    const m = buildReport({ source: { file: 'harris.alg', text: example('harris.alg') }, schedule: { file: 'harris.halide', text: example('harris.halide') }, window: [[0, 2], [0, 2]] });
    const inlines = m.programs.filter((p) => p.directive?.startsWith('inline '));
    expect(inlines.length).toBeGreaterThan(0);
    for (const p of inlines) expect(p.directive).toMatch(/\(a default: no line of the schedule\)$/);
    expect(m.programs.some((p) => p.directive?.includes('harris.halide:1:1'))).toBe(false);
  });

  it('[REPORT-LINKS] every loop the picture colours by is a loop of the nests, by the same name', () => {
    const page = reportBody(buildReport({ source: sec22, schedule: sched, window: [[0, 6]] }));
    const colouredBy = [...page.matchAll(/<option value="\d+" data-loop="([^"]+)">/g)].map((x) => x[1]);
    expect(colouredBy).toEqual(['f.s0.xo', 'f.s0.xi']);
    for (const name of colouredBy) expect(page).toContain(`data-key="for ${name}"`);
    expect(page).toContain('<p class="linkinfo"></p>');
  });

  it('[REPORT-PROOF] a derivation too long to show whole is shown to a depth, its deeper accesses not expanded', () => {
    // each func reads the next one twice: 2^16 lookups, more than the report's derivation budget
    const funcs = Array.from({ length: 16 }, (_, i) => `  func f${i}(x) = f${i + 1}(x) + f${i + 1}(x + 1);`).reverse();
    const text = `pipeline f0() {\n  func f16(x) = x;\n${funcs.join('\n')}\n}\n`;
    const m = buildReport({ source: { file: 'deep.alg', text }, window: [[0, 1]] });
    expect(m.errors).toEqual([]);
    expect(m.derivation).toMatchObject({ point: 'f0(0)', depth: REPORT_LIMITS.derivationDepth, budget: REPORT_LIMITS.derivationNodes });
    const rules = (n: DerivationNode): string[] => [n.rule.id, ...n.children.flatMap(rules)];
    expect(rules(m.derivation!.tree)).toContain(NOT_EXPANDED);
    expect(m.derivation!.tree.text).toMatch(/⇓ \d+$/);
    const page = reportBody(m);
    expect(page).toContain(`shown to depth ${REPORT_LIMITS.derivationDepth} as <code>refsem explain --depth ${REPORT_LIMITS.derivationDepth}</code>`);
    expect(page).toContain('<span class="rule notexp"');
  });

  it('[REPORT-STEP-WINDOW] the stepper runs one whole tile: Harris in 8×8 tiles, blur in 4×2 tiles, to the end', () => {
    const cases: [string, string, [number, number][]][] = [['harris.alg', 'harris.sched', [[0, 8], [0, 8]]], ['blur.alg', 'blur.sched', [[0, 4], [0, 2]]]];
    for (const [alg, sched, tile] of cases) {
      const r = buildReport({ source: { file: alg, text: example(alg) }, schedule: { file: sched, text: example(sched) } });
      expect(r.machine!.window).toBe(tile.map(([m, l]) => `[${m}, ${m + l})`).join(' × '));
      expect(r.machine!.outcome).toMatch(/^done after \d+ steps/);
      // every point of the tile is written by the machine
      const out = r.space!.func;
      const written = new Set(r.machine!.steps.filter((x) => x.mem?.kind === 'write' && x.mem.func === out).map((x) => x.mem!.at.join(',')));
      const [[x0, xn], [y0, yn]] = tile as [[number, number], [number, number]];
      for (let y = y0; y < y0 + yn; y++) for (let x = x0; x < x0 + xn; x++) expect(written.has(`${x},${y}`)).toBe(true);
    }
  });

  it('the machine stopped by the report’s step limit says so, and does not call itself stuck', () => {
    // one point whose reduction takes more steps than a report runs
    const m = buildReport({ source: { file: 'long.alg', text: `pipeline f() {\n  func f(x) {\n    0;\n    rdom(r = (0, ${REPORT_LIMITS.machineSteps})) in (x) <- f(x) + r;\n  }\n}\n` }, window: [[0, 1]] });
    expect(m.machine!.truncated).toBe(true);
    expect(m.machine!.outcome).toMatch(/^step limit reached: /);
    expect(m.machine!.outcome).not.toMatch(/stuck/);
  });

  it('the verdict `equal` is a success of its own, apart from the notes', () => {
    const m = buildReport({ source: sec22, schedule: sched, window: [[0, 6]] });
    expect(m.notes.some((n) => n.includes('VERDICT'))).toBe(false);
    expect(m.verdict!.kind).toBe('equal');
  });

  it('`html --help` states the window reports use by default (0+8)', async () => {
    const r = await runCli(['html', '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('default 0+8 per dimension');
  });
});

describe('refsem html', () => {
  const { dir, file } = scratch('refsem-html-');

  it('writes one page showing T0 … T3 of §2.2, each rule with its own text from the spec in the page', async () => {
    const out = join(dir, 'r.html');
    const r = await runCli(['html', `${examplesDir}/sec22.alg`, '--schedule', `${examplesDir}/sec22.sched`, '-o', out]);
    expect(r.code).toBe(0);
    const page = readFileSync(out, 'utf8');
    for (const t of ['T0', 'T1', 'T2', 'T3']) expect(page).toContain(`<h3 id="${t}">`);
    expect(page).toContain('<a class="rule" href="#rule-SPLIT" data-rule="SPLIT">[SPLIT]</a>');
    expect(page).toMatch(/<div class="ruletext" id="rule-SPLIT"><h3>\[SPLIT\][^<]*<small>spec\/schedule\.md<\/small><\/h3><pre>/);
    // rules named inside the query's text are links too, and nothing points at this machine's files
    expect(page).toContain('<a class="rule" href="#rule-B-FOR" data-rule="B-FOR">[B-FOR]</a>');
    expect(page).not.toMatch(/file:\/\//);
  });

  it('shows a program error in the page and still writes it', async () => {
    const out = join(dir, 'bad.html');
    const r = await runCli(['html', file('bad.alg', 'pipeline f() { func f(x) = g(x); }\n'), '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 error shown in the page');
    expect(readFileSync(out, 'utf8')).toContain('<div class="errors" id="errors"><pre>');
  });

  it('refuses a window too large to step through, naming the limit', async () => {
    const r = await runCli(['html', `${examplesDir}/blur.alg`, '--window', '0+64,0+64', '-o', join(dir, 'big.html')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the window has 4096 points; a report steps through at most 64');
  });
});

describe('buildLambdaReport', () => {
  it('shows the Perceus translation and the heap after each step of map', async () => {
    const { buildLambdaReport } = await import('../../src/report/lambda.js');
    const m = buildLambdaReport({ source: { file: 'map.lam', text: example('perceus/map.lam') } });
    expect(m.errors).toEqual([]);
    expect(m.perceus!.translated).toContain('Cons@ru1(t, t\'1)');
    expect(m.perceus!.result).toBe('65');
    const { heapText } = await import('../../src/report/heap-graph.js');
    const heaps = m.perceus!.steps.map((s) => heapText(m.perceus!.graphs[s.heap!]!));
    // the list 1 … 10 is built, reused in place by map (its cells reserved as tokens), then freed
    expect(heaps.some((h) => h.split('\n').length >= 10 && h.includes('Cons(10, Nil)'))).toBe(true);
    expect(heaps.some((h) => h.includes('reserved for reuse'))).toBe(true);
    expect(heaps.at(-1)).toBe('(empty heap)');
  });

  it('a λ1 program with an error gives its located message', async () => {
    const { buildLambdaReport } = await import('../../src/report/lambda.js');
    const m = buildLambdaReport({ source: { file: 'bad.lam', text: 'fun main() = ' } });
    expect(m.errors[0]).toMatch(/^bad\.lam:1:\d+: error: /);
  });
});

describe('refsem html of a λ1 program', () => {
  it('writes the translation and the heap machine with the heap per step', async () => {
    const { dir } = scratch('refsem-html-lam-');
    const out = join(dir, 'map.html');
    const r = await runCli(['html', `${examplesDir}/perceus/map.lam`, '-o', out]);
    expect(r.code).toBe(0);
    const page = readFileSync(out, 'utf8');
    expect(page).toContain('<section id="perceus">');
    expect(page).toContain('Cons@ru1');
    expect(page).toContain('reserved for reuse');
  });
});

describe('[REPORT-INCREMENTAL] a cached build', () => {
  const cache = new ReportCache();
  const req = { source: sec22, schedule: sched, window: [[0, 6]] as [number, number][] };

  it('is the same report as a fresh build, after any sequence of edits', () => {
    const edits = [{ ...req, point: 'g(2)' }, { ...req, window: [[1, 5]] as [number, number][] }, { ...req, schedule: { file: 's.sched', text: 'split f.x by 2\n' } }, req];
    for (const e of edits) expect(buildReport(e, cache)).toEqual(buildReport(e));
  });

  it('is the same report as a fresh build after edits of a schedule’s last, middle and first line, and reuses the programs before the edited line', () => {
    const harris = { file: 'harris.alg', text: example('harris.alg') };
    const text = example('harris.sched');
    const lines = text.split('\n');
    const without = (l: string) => lines.filter((x) => x !== l).join('\n');
    const edit = (t: string) => ({ source: harris, schedule: { file: 'harris.sched', text: t }, window: [[0, 2], [0, 2]] as [number, number][], machine: false });
    const harrisCache = new ReportCache();
    const whole = buildReport(edit(text), harrisCache);
    const texts = [
      without('store-at ixy at harris.s0.xo'),
      without('compute-at ixx at harris.s0.xo'),
      text.replace('split harris.x by 8', 'split harris.x by 4'),
      // a comment only: the same programs, so the same stages after them
      `// edited\n${text}`,
      // directives out of phase order: refused before any directive runs, though T1 … T8 are kept
      text.replace('vectorize harris.xi\n', '').replace(/\n$/, '\nvectorize harris.xi\n'),
    ];
    const models = texts.map((t) => buildReport(edit(t), harrisCache));
    models.forEach((m, i) => expect(m).toEqual(buildReport(edit(texts[i]!))));
    const again = buildReport(edit(text), harrisCache);
    const [last, middle, first, comment, refused] = models;
    expect(last!.programs.slice(0, 16)).toEqual(whole.programs.slice(0, 16));
    last!.programs.slice(0, 16).forEach((p, i) => expect(p).toBe(whole.programs[i]));
    const at = lines.filter((l) => /^[a-z]/.test(l)).indexOf('compute-at ixx at harris.s0.xo') + 1;
    middle!.programs.slice(0, at).forEach((p, i) => expect(p).toBe(whole.programs[i]));
    expect(first!.programs[1]).not.toBe(whole.programs[1]);
    expect(comment!.bounds).toBe(whole.bounds);
    expect(comment!.space).toBe(whole.space);
    expect(refused!.programs.map((p) => p.label)).toEqual(['T0']);
    expect(refused!.errors.join()).toContain('vectorize');
    expect(again!.bounds).toBe(whole.bounds);
    expect(again!.output).toBe(whole.output);
  });

  it('reuses every stage a new point does not touch, and writes their HTML once', () => {
    const again = buildReport({ ...req, point: 'f(3)' }, cache);
    const before = buildReport(req, cache);
    expect(again.programs).toBe(before.programs);
    expect(again.bounds).toBe(before.bounds);
    expect(again.machine).toBe(before.machine);
    expect(again.derivation).not.toBe(before.derivation);
    expect(again.derivation!.point).toBe('f(3)');
    const [a, b] = [reportSections(again), reportSections(before)];
    expect(a.find((x) => x.id === 'machine')!.html).toBe(b.find((x) => x.id === 'machine')!.html);
  });

  it('`bounds: kept` leaves the bounds, the runs and the machine to a later build when the cache has not got them', () => {
    const c = new ReportCache();
    const edited = { ...req, schedule: { file: 's.sched', text: 'split f.x by 2\n' } };
    const first = buildReport({ ...edited, bounds: 'kept' }, c);
    expect(first.later).toBe(true);
    expect(first.programs.map((p) => p.label)).toEqual(['T0', 'T1']);
    expect(first.output).toBeDefined();
    expect([first.bounds, first.verdict, first.space, first.machine]).toEqual([undefined, undefined, undefined, undefined]);
    const whole = buildReport(edited, c);
    expect(buildReport({ ...edited, bounds: 'kept' }, c)).toEqual(whole);
  });

  it('leaves the machine out when asked, and only the machine; `kept` gives it only when the cache has it', () => {
    const m = buildReport({ ...req, machine: false }, cache);
    expect(m.machine).toBeUndefined();
    const whole = buildReport(req, cache);
    expect({ ...whole, machine: undefined }).toEqual({ ...m, machine: undefined });
    expect(buildReport({ ...req, machine: 'kept' }, cache).machine).toBe(whole.machine);
    expect(buildReport({ ...req, window: [[1, 4]], machine: 'kept' }, cache).machine).toBeUndefined();
  });
});

describe('[REPORT-SPACE-EACH] a picture for each program', () => {
  const req = { source: sec22, schedule: sched, window: [[0, 6]] as [number, number][], pictures: 'every' as const };
  const m = buildReport(req);

  it('draws each of T0 … Tn, the last being the picture of the program that runs', () => {
    expect(m.pictures!.map((p) => p.label)).toEqual(['T0', 'T1', 'T2', 'T3']);
    expect(m.pictures![3]!.space).toEqual(m.space);
    // T0 has one loop over f.x; the split of T1 makes two
    expect(m.pictures![0]!.space!.loops.map((l) => l.name)).toEqual(['f.s0.x']);
    expect(m.pictures![1]!.space!.loops.map((l) => l.name)).toEqual(['f.s0.xo', 'f.s0.xi']);
    // g is computed at the root in T1 and per tile of f in T2
    expect(m.pictures![1]!.space!.producers.find((p) => p.func === 'g')!.tiles.map((t) => t.tile)).toEqual(['']);
    const perTile = m.pictures![2]!.space!.producers.find((p) => p.func === 'g')!.tiles.filter((t) => t.points.length > 0);
    expect(perTile.map((t) => t.tile).sort()).toEqual(['xo=0', 'xo=1']);
  });

  it('pictureOf gives the same picture from a cache, and says when there is no such program', () => {
    const cache = new ReportCache();
    for (const i of [0, 2]) expect(pictureOf(req, i, cache).space).toEqual(m.pictures![i]!.space);
    expect(pictureOf(req, 9, cache).error).toBe('there is no program T9');
  });

  it('a file page holds each distinct picture once and a choice of program', () => {
    const page = reportBody(m);
    expect(page).toContain('<select class="picture-of">');
    expect(page.match(/<template class="picture"/g)!.length).toBe(new Set(m.pictures!.map((p) => JSON.stringify(p.space))).size);
    expect(reportBody(buildReport({ ...req, pictures: 'last' }))).not.toContain('picture-of');
  });
});
