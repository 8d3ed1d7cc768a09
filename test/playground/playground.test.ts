/// <reference lib="dom" />
// The playground end to end in Chromium: built with Vite as `npm run playground:build` builds it,
// served as static files, driven like a user would — each example loads, a schedule edit changes
// Tn and the output, the machine steps, a derivation opens, a shared link reproduces the view,
// and bad input is shown, not thrown. Structure is asserted, never pixels; screenshots are kept
// in test-artifacts/ for people.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { build, createLogger } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ENGINES } from '../../src/bounds/engine.js';
import { algorithm, complete, lowerStep, schedule } from '../../src/pipeline.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import { readSchedule } from '../../src/schedule/halide-style.js';
import { bindInput } from '../../src/target-semantics/check.js';
import { Machine } from '../../src/target-semantics/machine.js';
import { ARTIFACTS, hasChromium, launchChromium, serveStatic } from '../support/browser.js';

const root = join(__dirname, '..', '..');
let out: string;
let url: string;
let server: Server;
let browser: Browser;
let page: Page;
const timings: Record<string, unknown> = {};
const warnings: string[] = [];

/** The points of harris (16×8 window, Halide-style schedule) the small-step machine writes while Σ has yo = 0, xo = 1. */
function harrisTile10(): string[] {
  const alg = algorithm({ file: 'harris.alg', text: readFileSync(join(root, 'examples', 'harris.alg'), 'utf8') });
  const t0 = lowerStep(alg);
  const text = readFileSync(join(root, 'examples', 'harris.halide'), 'utf8');
  const t = complete(schedule(t0, readSchedule(text, 'harris.halide', () => t0, builtinRegistry()), alg), BUILTIN_ENGINES.beta1!);
  const input = { window: [[0, 16], [0, 8]] as [number, number][], params: new Map<string, number>() };
  const m = new Machine(0);
  const out = new Set<string>();
  m.run(t, bindInput(t, input), {
    onStep: (ev) => {
      if (ev.rule === 'ASSN' && ev.redex.startsWith('harris[') && m.env.get('harris.s0.yo') === 0 && m.env.get('harris.s0.xo') === 1) out.add(ev.redex.slice(7, ev.redex.indexOf(']')).replace(/ /g, ''));
    },
  });
  return [...out].sort();
}

async function timing(p: Page): Promise<number> {
  return Number(await p.locator('#timing').getAttribute('data-ms'));
}

/**
 * Where the time of the last render went: computing, writing and drawing its first part, and when
 * the bounds and runs and then the machine were shown (the page shows them in later tasks).
 */
async function whereTimeWent(p: Page): Promise<Record<string, number>> {
  const at = (name: string) => p.locator('#timing').getAttribute(name);
  return {
    ...(JSON.parse((await at('data-split'))!) as Record<string, number>),
    'with the bounds and the runs': Math.round(Number(await at('data-runs-ms'))),
    'with the machine': Math.round(Number(await at('data-complete-ms'))),
  };
}

/**
 * Waits for the report to be recomputed after an edit: the render count of the timing line grows,
 * and the last render started, with no edit waiting, is complete (a render of an earlier view,
 * finishing in its later tasks, does not count).
 */
async function afterEdit(p: Page, edit: () => Promise<void>): Promise<void> {
  const before = await p.locator('#timing').getAttribute('data-renders');
  await edit();
  await p.waitForFunction((b) => {
    const d = document.getElementById('timing')!.dataset;
    return d.renders !== b && d.queued === undefined && d.done === d.started;
  }, before);
}

describe.runIf(hasChromium)('playground in Chromium', () => {
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'refsem-playground-'));
    const logger = createLogger('warn');
    const warn = logger.warn.bind(logger);
    logger.warn = (msg, o) => (warnings.push(msg), warn(msg, o));
    await build({ configFile: join(root, 'playground', 'vite.config.ts'), customLogger: logger, build: { outDir: out, emptyOutDir: true } });
    ({ url, server } = await serveStatic(out));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (e) => {
      throw e;
    });
    // Every test starts from a loaded page, so each one also runs alone (`-t`).
    await page.goto(url);
    await page.waitForSelector('#report #programs');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (out) rmSync(out, { recursive: true, force: true });
    writeFileSync(join(ARTIFACTS, 'playground-timings.json'), JSON.stringify(timings, null, 2));
  });

  it('bundles the core without shims for Node modules', () => {
    expect(warnings.filter((w) => /externalized for browser compatibility|node:/.test(w))).toEqual([]);
  });

  it('opens on §2.2 with T0 … T3, the output and the verdict', async () => {
    await page.goto(url);
    await page.waitForSelector('#report #programs');
    expect(await page.locator('#report #programs h3').allTextContents()).toEqual([
      'T0',
      expect.stringMatching(/^T1 after split f\.x by 3/),
      expect.stringMatching(/^T2 after compute-at g at f\.xo/),
      expect.stringMatching(/^T3 after store-at g at f\.xo/),
    ]);
    expect(await page.locator('#report #output td').allTextContents()).toEqual(['1', '5', '13', '25', '41', '61']);
    expect(await page.locator('#report #verdict.ok').textContent()).toContain('[VERDICT-EQUAL]');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-sec22.png') });
  });

  it.each(['blur', 'histogram', 'prefix_sum', 'harris', 'map', 'rbtree'])('loads the example %s without errors', async (id) => {
    await page.selectOption('#example', id);
    await page.waitForFunction((x) => location.hash.length > 3 && (document.getElementById('example') as HTMLSelectElement).value === x, id);
    expect(await page.locator('#report #errors').count()).toBe(0);
    const sections = await page.locator('#report section').evaluateAll((s) => s.map((x) => x.id));
    if (id === 'map' || id === 'rbtree') expect(sections).toContain('perceus');
    else expect(sections).toEqual(expect.arrayContaining(['programs', 'bounds', 'output', 'machine']));
    timings[id] = await timing(page);
    await page.screenshot({ path: join(ARTIFACTS, `playground-${id}.png`) });
  });

  it('an edited schedule line changes Tn and the output stays right; the blur on 64×64 is timed', async () => {
    await page.selectOption('#example', 'blur');
    await page.waitForSelector('#report #programs');
    const before = await page.locator('#report #programs h3').allTextContents();
    await afterEdit(page, () => page.fill('#sched', 'split blur_y.x by 8\nvectorize blur_y.xi\n'));
    const after = await page.locator('#report #programs h3').allTextContents();
    expect(after.length).toBe(3);
    expect(after).not.toEqual(before);
    expect(after[1]).toMatch(/^T1 after split blur_y\.x by 8/);
    expect(await page.locator('#report #verdict.ok').textContent()).toContain('[VERDICT-EQUAL]');
    expect(await page.locator('#report #output td').count()).toBe(64 * 64);
    // a 64×64 output table scrolls inside its own box and stays in the report's column
    expect(await page.locator('#report').evaluate((r) => r.scrollWidth - r.clientWidth)).toBeLessThanOrEqual(1);
    expect(await page.locator('#report #output .outwrap').evaluate((w) => w.scrollWidth > w.clientWidth)).toBe(true);
    timings['blur 64x64 after an edit (ms)'] = await timing(page);
    timings['blur 64x64 after an edit: where the time went (ms)'] = await whereTimeWent(page);
  });

  it('an edit to the algorithm changes the output values', async () => {
    await page.selectOption('#example', 'sec22');
    await page.waitForSelector('#report #output');
    await afterEdit(page, () => page.fill('#alg', 'pipeline f() {\n  func g(x) = x * x * x;\n  func f(x) = g(x) + g(x + 1);\n}\n'));
    expect(await page.locator('#report #output td').allTextContents()).toEqual(['1', '9', '35', '91', '189', '341']);
  });

  it('the machine steps forward with its slider, naming each rule', async () => {
    await page.selectOption('#example', 'sec22');
    await page.waitForSelector('#report #machine');
    expect(await page.locator('#machine .stepno').textContent()).toMatch(/^step 1 of \d+$/);
    await page.locator('#machine input[type=range]').fill('20');
    expect(await page.locator('#machine .stepno').textContent()).toMatch(/^step 21 of \d+$/);
    expect(await page.locator('#machine .steptext b').textContent()).toMatch(/^21\. \[[A-Z-]+\]/);
    // [REPORT-MEMORY]: at a write the store marks the very cell the step names, with its value
    await page.selectOption('#machine .rulekind', 'ASSN');
    await page.locator('#machine .runto').click();
    const [, func, at, value] = /\[ASSN\] (\w+)\[([^\]]*)\] <- (\S+)/.exec((await page.locator('#machine .steptext b').textContent()) ?? '')!;
    // the statement of the step is the one marked in the program
    expect(await page.locator('#machine pre.program .ln.now').textContent()).toContain(`${func}[`);
    const cell = page.locator(`#machine .memory .buf[data-func="${func}"] td.write`);
    expect(await cell.getAttribute('data-at')).toBe(at!.replace(/ /g, ''));
    expect(await cell.textContent()).toBe(value);
    expect(await page.locator('#machine .timeline .strip').count()).toBeGreaterThan(0);
    await page.locator('#machine').screenshot({ path: join(ARTIFACTS, 'playground-machine-store.png') });
  });

  it('[REPORT-STEPPER] [REPORT-HEAP-REUSE] the heap graph follows the stepper of map, and the step that reuses a cell draws the arrow from the freed one', async () => {
    if (!page.url().startsWith(url)) await page.goto(url);
    await page.selectOption('#example', 'map');
    await page.waitForSelector('#report #perceus .heapwrap svg');
    const perceus = page.locator('#perceus');
    const cap = () => perceus.locator('.heapcap').textContent();
    expect(await cap()).toMatch(/^The heap after step 123: 11 cells$/);
    await perceus.locator('button.next').click();
    expect(await perceus.locator('.stepno').textContent()).toBe('step 124 of 281');
    expect(await cap()).toMatch(/^The heap after step 124: /);
    // the graph and the list beside it are the same cells
    const boxes = await perceus.locator('.heapwrap g.cell').evaluateAll((gs) => gs.map((g) => `#${g.getAttribute('data-cell')}`));
    const listed = ((await perceus.locator('.stepstate').textContent()) ?? '').split('\n').map((l) => l.split(' ')[0]);
    expect(boxes).toEqual(listed);
    await perceus.locator('select.rulekind').selectOption('CONRU-R');
    await perceus.locator('button.runto').click();
    expect(await perceus.locator('.stepno').textContent()).toBe('step 209 of 281');
    expect(await perceus.locator('.steptext b').textContent()).toMatch(/^209\. \[CONRU-R\]/);
    expect(await perceus.locator('.heapwrap line.reuse').count()).toBe(1);
    expect(await perceus.locator('.heapwrap g.ghost').textContent()).toContain('freed #1 Cons(10, Nil)');
    await perceus.locator('.heapwrap').screenshot({ path: join(ARTIFACTS, 'playground-heap-reuse.png') });
    await perceus.locator('button.next').click();
    expect(await perceus.locator('.heapwrap line.reuse').count()).toBe(0);
    await perceus.locator('input.goto').fill('1');
    await perceus.locator('input.goto').dispatchEvent('change');
    expect(await perceus.locator('.stepno').textContent()).toBe('step 1 of 281');
    await perceus.locator('button.prev').click();
    expect(await perceus.locator('.stepno').textContent()).toBe('step 1 of 281');
  });

  it('[REPORT-LINKS] hovering a loop colours the picture by its iterations and marks its directives; hovering a cell marks the loops around it', async () => {
    if (!page.url().startsWith(url)) await page.goto(url);
    await page.selectOption('#example', 'sec22');
    await page.waitForSelector('#report #space svg');
    const last = page.locator('#programs .looptree').last();
    await last.locator('li[data-key="for f.s0.xi"]').first().hover();
    expect(await page.locator('#space select.colour').inputValue()).toBe('2');
    expect(await page.locator('#space .space.linked').count()).toBe(1);
    // the split made f.s0.xi: its directive is marked, and the loop in every nest that has it
    expect(await page.locator('#T1').getAttribute('class')).toContain('linked');
    expect(await page.locator('#programs li.linked[data-key="for f.s0.xi"]').count()).toBe(await page.locator('#programs li[data-key="for f.s0.xi"]').count());
    // the cells of one iteration of f.s0.xi share a colour: x = 1 and x = 4 (xi = 1), not x = 2
    const fill = (x: number) => page.locator(`#space rect[data-p="${x}"]`).getAttribute('fill');
    expect(await fill(1)).toBe(await fill(4));
    expect(await fill(1)).not.toBe(await fill(2));
    await page.locator('#space rect[data-p="4"]').hover();
    expect(await page.locator('#space .linkinfo').textContent()).toBe('point 4: f.s0.xo = 1, f.s0.xi = 1');
    expect(await page.locator('#programs li.linked[data-key="for f.s0.xo"]').count()).toBeGreaterThan(0);
    await page.locator('#programs').screenshot({ path: join(ARTIFACTS, 'playground-links.png') });
  });

  it('a derivation opens, and a repeated sub-derivation refers to its first occurrence', async () => {
    await page.selectOption('#example', 'sec22');
    await afterEdit(page, () => page.fill('#alg', 'pipeline f() {\n  func g(x) = x * x;\n  func f(x) = g(x) + g(x);\n}\n'));
    await afterEdit(page, () => page.fill('#point', 'f(2)'));
    // [REPORT-PROOF] drawn as a proof: the conclusion under the line, the rule's name at the line
    const root = page.locator('#derivation .proofwrap > .proof');
    expect(await root.locator('> .concl').textContent()).toContain('f(2) ⇓ 8');
    expect(await root.locator('> .line a.rule').getAttribute('data-rule')).toBe('REALIZE');
    // the premises stand above the conclusion
    const [above, below] = await Promise.all([root.locator('> .premises').boundingBox(), root.locator('> .concl').boundingBox()]);
    expect(above!.y + above!.height).toBeLessThanOrEqual(below!.y);
    const same = page.locator('#derivation a.same');
    expect(await same.count()).toBe(1);
    const target = (await same.getAttribute('href'))!;
    expect(await page.locator(`#derivation ${target}`).count()).toBe(1);
    expect(await page.locator('#derivation').textContent()).toContain('g(2) ⇓ 4');
    await page.locator('#derivation').screenshot({ path: join(ARTIFACTS, 'playground-proof.png') });
  });

  it('a shared link reproduces the view; a corrupted one opens the default example with a notice', async () => {
    await page.selectOption('#example', 'histogram');
    await afterEdit(page, () => page.fill('#window', '0+5'));
    const shared = page.url();
    const other = await browser.newPage();
    await other.goto(shared);
    await other.waitForSelector('#report #output');
    expect(await other.locator('#example').inputValue()).toBe('histogram');
    expect(await other.locator('#window').inputValue()).toBe('0+5');
    expect(await other.locator('#report #output td').count()).toBe(5);
    await other.goto(`${url}#v=not-a-view`);
    await other.reload();
    await other.waitForSelector('#report #programs');
    expect(await other.locator('#notice').isVisible()).toBe(true);
    expect(await other.locator('#example').inputValue()).toBe('sec22');
    await other.close();
  });

  it('a program or schedule with an error shows its located message instead of a blank view', async () => {
    await page.selectOption('#example', 'sec22');
    await afterEdit(page, () => page.fill('#sched', 'split f.x by 3\ncompute-at g at f.nope\n'));
    expect(await page.locator('#report #errors').textContent()).toMatch(/sec22\.sched:2:1: error: /);
    expect(await page.locator('#report #programs h3').count()).toBe(2);
    await afterEdit(page, () => page.fill('#alg', 'pipeline f() { func f(x) = ; }'));
    expect(await page.locator('#report #errors').textContent()).toMatch(/sec22\.alg:1:\d+: error: /);
    await page.screenshot({ path: join(ARTIFACTS, 'playground-error.png') });
  });
  it('Harris Halide-style on 16×8: the cells of tile (1, 0) in the picture are exactly the points the machine writes in that tile', async () => {
    await page.selectOption('#example', 'harris-halide');
    await page.waitForSelector('#report #space svg');
    expect(await page.locator('#report #errors').count()).toBe(0);
    expect(await page.locator('#report #programs h3', { hasText: 'inline' }).first().textContent()).toContain('a default: no line of the schedule');
    const cells = await page.locator('#space .cells rect[data-tile]').evaluateAll((rs) => rs.map((r) => ({ p: r.getAttribute('data-p')!, tile: r.getAttribute('data-tile')!, fill: r.getAttribute('fill')! })));
    const mine = cells.filter((c) => c.tile === 'yo=0,xo=1');
    expect(mine.map((c) => c.p).sort()).toEqual(harrisTile10());
    // one colour for the tile, and no other tile has it
    const fills = new Set(mine.map((c) => c.fill));
    expect(fills.size).toBe(1);
    expect(cells.filter((c) => c.tile !== 'yo=0,xo=1' && fills.has(c.fill))).toEqual([]);
    // coloured by the inner loop's iteration instead, the tile splits into columns
    await page.selectOption('#space select.colour', { label: 'iteration of harris.s0.xo' });
    const byXo = await page.locator('#space .cells rect[data-tile]').evaluateAll((rs) => new Set(rs.map((r) => r.getAttribute('fill'))).size);
    expect(byXo).toBe(2);
    // a click on a cell of tile (1, 0) draws what that tile allocated and computed of a producer
    await page.selectOption('#space select.producer', 'sxx');
    await page.locator('#space .cells rect[data-p="9,0"]').click();
    expect(await page.locator('#space .overlay rect.alloc').count()).toBe(1);
    expect(await page.locator('#space .overlay circle.computed').count()).toBeGreaterThanOrEqual(64);
    expect(await page.locator('#space .caption').textContent()).toMatch(/^Tile yo=0,xo=1: sxx allocated \[/);
    await page.locator('#space').screenshot({ path: join(ARTIFACTS, 'playground-space-harris.png') });
  });

  it('a rule ID opens its own text from the spec in place, without leaving the view', async () => {
    await page.selectOption('#example', 'sec22');
    await page.waitForSelector('#report #programs');
    const before = page.url();
    await page.locator('#programs a.rule[data-rule="SPLIT"]').first().click();
    expect(await page.locator('#rulepanel').isVisible()).toBe(true);
    expect(await page.locator('#rulepanel h3').textContent()).toMatch(/^\[SPLIT\].*spec\/schedule\.md$/);
    expect(await page.locator('#rulepanel pre').textContent()).toContain('split');
    expect(page.url()).toBe(before);
    // rules named inside the query are links too
    await page.locator('#bounds a.rule[data-rule="B-FOR"]').first().click();
    expect(await page.locator('#rulepanel h3').textContent()).toMatch(/^\[B-FOR\]/);
    await page.screenshot({ path: join(ARTIFACTS, 'playground-rule-panel.png') });
    await page.locator('#rulepanel .close').click();
    expect(await page.locator('#rulepanel').isVisible()).toBe(false);
  });

  it('the refused example shows the refusal, marks its line in the editor and still draws the last program reached', async () => {
    await page.selectOption('#example', 'refused');
    await page.waitForSelector('#report #errors');
    expect(await page.locator('#report #errors').textContent()).toMatch(/refused\.sched:\d+:1: error: compute-at acc at h\.xo: \[COMPUTE-AT-PARALLEL\]/);
    expect(await page.locator('#sched').getAttribute('data-error-line')).toBe('5');
    expect(await page.locator('#errmark').textContent()).toMatch(/^line 5: /);
    // the race itself is on the picture of the last program reached: acc[2], which the shifted last
    // tile computes again while tile 0 has already updated it
    expect(await page.locator('#report #space .conflict rect').count()).toBe(1);
    expect(await page.locator('#report #space .conflict-text').textContent()).toMatch(/data race on acc\[2\]: iterations h\.s0\.xo = [01] \(write\) and h\.s0\.xo = [01] \(write\)/);
    await page.screenshot({ path: join(ARTIFACTS, 'playground-refused.png') });
    await afterEdit(page, () => page.fill('#sched', 'split h.x by 3\n'));
    expect(await page.locator('#sched').getAttribute('data-error-line')).toBeNull();
  });

  it('[REPORT-SPACE-EACH] picking a program draws its own picture, computed in the page', async () => {
    await page.selectOption('#example', 'sec22');
    await page.waitForSelector('#report #machine');
    const loopsDrawn = async () => (await page.locator('#space .spacebox select.colour option').allTextContents()).join('|');
    expect(await loopsDrawn()).toContain('iteration of f.s0.xo');
    await page.selectOption('#space select.picture-of', 'T0');
    await page.waitForFunction(() => document.querySelector('#space .spacebox')?.getAttribute('data-of') === '0');
    expect(await loopsDrawn()).not.toContain('f.s0.xo');
    // T1 splits f.x, and g is still computed once at the root: one producer tile
    await page.selectOption('#space select.picture-of', 'T1');
    await page.waitForFunction(() => document.querySelector('#space .spacebox')?.getAttribute('data-of') === '1');
    expect(await loopsDrawn()).toContain('iteration of f.s0.xo');
    await page.locator('#space').screenshot({ path: join(ARTIFACTS, 'playground-space-T1.png') });
  });

  it('[REPORT-LINKS] hovering a func in the source marks it in the nests and overlays it on the picture; hovering T_i marks its line of the schedule', async () => {
    await page.selectOption('#example', 'sec22');
    await page.waitForSelector('#report #machine');
    // the picture of the program that runs, whatever an earlier view picked
    await page.selectOption('#space select.picture-of', 'T3');
    await page.waitForFunction(() => document.querySelector('#space .spacebox')?.getAttribute('data-of') === '3');
    await page.locator('#algorithm .fn[data-func="g"]').first().hover();
    expect(await page.locator('#algorithm .fn.linked').count()).toBe(await page.locator('#algorithm .fn[data-func="g"]').count());
    expect(await page.locator('#programs li.linked[data-key="label g"]').count()).toBeGreaterThan(0);
    expect(await page.locator('#space select.producer').inputValue()).toBe('g');
    expect(await page.locator('#space .overlay circle.computed').count()).toBeGreaterThan(0);
    await page.locator('#programs h3#T2').hover();
    // T2 comes from the schedule's line `compute-at g at f.xo`
    const line = (await page.inputValue('#sched')).split('\n').indexOf('compute-at g at f.xo') + 1;
    expect(await page.locator('#sched').getAttribute('data-linked-line')).toBe(String(line));
    await page.locator('#algorithm h2').hover();
    expect(await page.locator('#sched').getAttribute('data-linked-line')).toBeNull();
    await page.screenshot({ path: join(ARTIFACTS, 'playground-func-links.png') });
  });

  it('re-renders after an edit are timed for Harris on 8×8 and blur on 16×16 (recorded, not asserted)', async () => {
    await page.selectOption('#example', 'harris');
    await page.waitForSelector('#report #space');
    await afterEdit(page, () => page.fill('#window', '0+8,0+8'));
    // Three kinds of edit, since each recomputes different stages ([REPORT-INCREMENTAL]).
    // The page shows T0 … Tn, the output and the derivation first, then the bounds and the run of
    // Tn (its verdict and picture), then the machine, each in a later task.
    const split = () => whereTimeWent(page);
    await afterEdit(page, () => page.fill('#point', 'harris(1, 1)'));
    timings['harris 8x8 after an edit (ms)'] = await timing(page);
    timings['harris 8x8 after an edit of the point: where the time went (ms)'] = await split();
    await afterEdit(page, () => page.fill('#window', '0+8,1+8'));
    timings['harris 8x8 after an edit of the window (ms)'] = await timing(page);
    timings['harris 8x8 after an edit of the window: where the time went (ms)'] = await split();
    // a schedule's last, a middle and its first directive edited, each from the whole schedule
    const sched = await page.inputValue('#sched');
    const edits = {
      'the last directive': sched.replace(/\nstore-at ixy at harris\.s0\.xo\n?$/, '\n'),
      'a middle directive': sched.replace('compute-at syy at harris.s0.xo', 'compute-at syy at harris.s0.yi'),
      'the first directive': sched.replace('split harris.x by 8', 'split harris.x by 4'),
    };
    for (const [what, text] of Object.entries(edits)) {
      await afterEdit(page, () => page.fill('#sched', text));
      timings[`harris 8x8 after an edit of the schedule, ${what} (ms)`] = await timing(page);
      timings[`harris 8x8 after an edit of the schedule, ${what}: where the time went (ms)`] = await split();
      expect(await page.locator('#report #programs h3').count()).toBe(what === 'the last directive' ? 17 : 18);
      expect(await page.locator('#report #verdict').getAttribute('class')).toBe('verdict ok');
      await afterEdit(page, () => page.fill('#sched', sched));
    }
    await page.selectOption('#example', 'blur');
    await page.waitForSelector('#report #space');
    await afterEdit(page, () => page.fill('#window', '0+16,0+16'));
    await afterEdit(page, () => page.fill('#point', 'blur_y(1, 1)'));
    timings['blur 16x16 after an edit (ms)'] = await timing(page);
    expect(await page.locator('#report #space .cells rect[data-tile]').count()).toBe(256);
  });

  it('at phone width the page is one readable column', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    await phone.goto(url);
    await phone.waitForSelector('#report #space');
    const box = async (sel: string) => (await phone.locator(sel).boundingBox())!;
    const [ed, rep] = [await box('#editors'), await box('#report')];
    expect(rep.y).toBeGreaterThan(ed.y + ed.height - 1);
    expect(rep.x + rep.width).toBeLessThanOrEqual(391);
    const scrollWidth = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(390);
    const size = await phone.locator('#report pre').first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(size).toBeGreaterThanOrEqual(12);
    await phone.screenshot({ path: join(ARTIFACTS, 'playground-phone.png'), fullPage: true });
    await phone.locator('#space').screenshot({ path: join(ARTIFACTS, 'playground-phone-space.png') });
    await phone.close();
  });
});


describe.runIf(hasChromium)('refsem html in Chromium', () => {
  it('the report of §2.2 opens from a file and shows T0 … T3, a working stepper, rule texts and the picture; Harris with its .halide fits', async () => {
    const { runCli } = await import('../support/cli.js');
    const dir = mkdtempSync(join(tmpdir(), 'refsem-html-'));
    const file = join(dir, 'r.html');
    expect((await runCli(['html', join(root, 'examples', 'sec22.alg'), '--schedule', join(root, 'examples', 'sec22.sched'), '--pictures', 'every', '-o', file])).code).toBe(0);
    const b = await launchChromium();
    try {
      const p = await b.newPage();
      const errors: string[] = [];
      p.on('pageerror', (e) => errors.push(String(e)));
      await p.goto(`file://${file}`);
      expect(await p.locator('#programs h3').count()).toBe(4);
      await p.locator('#machine input[type=range]').fill('5');
      expect(await p.locator('#machine .stepno').textContent()).toMatch(/^step 6 of/);
      expect(errors).toEqual([]);
      await p.screenshot({ path: join(ARTIFACTS, 'html-report-sec22.png'), fullPage: true });
      // a loop nest per program; T2 marks the moved label, and in T3 g's folded computation opens on a click
      expect(await p.locator('#programs .looptree').count()).toBe(4);
      expect(await p.locator('#programs .looptree').nth(2).locator('li.changed.c-moved').getAttribute('data-key')).toBe('label g');
      const folded = p.locator('#programs .looptree').nth(3).locator('li[data-key="label g"] > details');
      expect(await folded.getAttribute('open')).toBeNull();
      await folded.locator('> summary').click();
      expect(await folded.getAttribute('open')).toBe('');
      expect(await folded.locator('li[data-key="for g.s0.x"]').isVisible()).toBe(false);
      await folded.locator('li[data-key="label g.s0"] > details > summary').click();
      expect(await folded.locator('li[data-key="for g.s0.x"]').isVisible()).toBe(true);
      await p.locator('#programs .looptree').nth(2).screenshot({ path: join(ARTIFACTS, 'html-report-tree.png') });
      // rule text in place, the picture drawn; and the Harris report with its .halide schedule
      await p.locator('#programs a.rule[data-rule="SPLIT"]').first().click();
      expect(await p.locator('#rulepanel h3').textContent()).toMatch(/^\[SPLIT\]/);
      expect(await p.locator('#space .cells rect[data-tile]').count()).toBe(8);
      // [REPORT-SPACE-EACH] the page holds every program's picture: T0 has no split loops, T3 has
      const loopsDrawn = async () => (await p.locator('#space .spacebox select.colour option').allTextContents()).join('|');
      expect(await loopsDrawn()).toContain('iteration of f.s0.xo');
      await p.selectOption('#space select.picture-of', 'T0');
      expect(await loopsDrawn()).not.toContain('f.s0.xo');
      expect(await loopsDrawn()).toContain('iteration of f.s0.x');
      await p.selectOption('#space select.picture-of', 'T3');
      expect(await loopsDrawn()).toContain('iteration of f.s0.xo');
      const harris = join(dir, 'harris.html');
      const t0 = performance.now();
      expect((await runCli(['html', join(root, 'examples', 'harris.alg'), '--schedule', join(root, 'examples', 'harris.halide'), '-o', harris])).code).toBe(0);
      const ms = performance.now() - t0;
      const bytes = statSync(harris).size;
      writeFileSync(join(ARTIFACTS, 'html-harris.json'), JSON.stringify({ 'refsem html harris.alg --schedule harris.halide (ms, in-process)': Math.round(ms), bytes }, null, 2));
      expect(bytes).toBeLessThanOrEqual(1.5e6);
      await p.goto(`file://${harris}`);
      expect(await p.locator('#space .cells rect[data-tile]').count()).toBe(64);
      // [REPORT-STEP-WINDOW] the machine runs the whole first 8×8 tile, within the page's size
      expect(await p.locator('#machine h2').textContent()).toBe('The machine on [0, 8) × [0, 8)');
      expect(await p.locator('#machine p code').last().textContent()).toMatch(/^done after \d+ steps/);
      await p.setViewportSize({ width: 1280, height: 800 });
      await p.screenshot({ path: join(ARTIFACTS, 'html-report-harris.png') });
      const phone = await b.newPage({ viewport: { width: 390, height: 844 } });
      await phone.goto(`file://${harris}`);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.screenshot({ path: join(ARTIFACTS, 'html-report-harris-phone.png') });
      expect(errors).toEqual([]);
    } finally {
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('[REPORT-HEAP-REUSE] the heap graph of a λ1 report follows its stepper in the file\'s own script too', async () => {
    const { runCli } = await import('../support/cli.js');
    const dir = mkdtempSync(join(tmpdir(), 'refsem-html-'));
    const map = join(dir, 'map.html');
    expect((await runCli(['html', join(root, 'examples', 'perceus', 'map.lam'), '-o', map])).code).toBe(0);
    const b = await launchChromium();
    try {
      const p = await b.newPage();
      const errors: string[] = [];
      p.on('pageerror', (e) => errors.push(String(e)));
      await p.goto(`file://${map}`);
      await p.locator('#perceus select.rulekind').selectOption('CONRU-R');
      await p.locator('#perceus button.runto').click();
      expect(await p.locator('#perceus .heapcap').textContent()).toMatch(/^The heap after step 209: /);
      expect(await p.locator('#perceus .heapwrap line.reuse').count()).toBe(1);
      await p.locator('#perceus button.next').click();
      expect(await p.locator('#perceus .heapcap').textContent()).toMatch(/^The heap after step 210: /);
      await p.locator('#perceus').screenshot({ path: join(ARTIFACTS, 'html-report-heap.png') });
      const phone = await b.newPage({ viewport: { width: 390, height: 844 } });
      await phone.goto(`file://${map}`);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.locator('#perceus').screenshot({ path: join(ARTIFACTS, 'html-report-heap-phone.png') });
      expect(errors).toEqual([]);
    } finally {
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
