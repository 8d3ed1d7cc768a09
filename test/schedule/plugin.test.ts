// The directive plug-in API: the example user directives load, work end to end, are exercised by
// the confluence harness through their own `generate`, and the deliberately unsound one is caught.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { BUILTIN_ENGINES, completeProgram } from '../../src/bounds/engine.js';
import { verdictFor } from '../../src/lowering/equivalence.js';
import { lower } from '../../src/lowering/lower.js';
import { directiveApi } from '../../src/schedule/api.js';
import { applySchedule } from '../../src/schedule/apply.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import { parseSchedule } from '../../src/schedule/parse.js';
import { defineDirective } from '../../src/schedule/plugin.js';
import { loadDirectiveModule, registryWith } from '../../src/node/plugins.js';
import { runCli } from '../support/cli.js';
import { examplesDir, scratch } from '../support/files.js';
import { join } from 'node:path';
import { type Stats, arbCase, checkCase } from './confluence-harness.js';
import { userError } from '../support/errors.js';
import { GRID, body, expectRejection, scheduled } from './helpers.js';

const DIR = 'examples/directives';

describe('loading user directives', () => {
  it('loads a module exporting a function of the api', async () => {
    const [tile] = await loadDirectiveModule(`${DIR}/tile.mjs`, directiveApi);
    expect(tile!.name).toBe('tile');
    expect(tile!.source).toBe(`${DIR}/tile.mjs`);
  });
  it('a user directive that returns no program is reported, not crashed on', () => {
    const broken = defineDirective({ name: 'broken', phase: 'loops', params: [], validate() {}, apply: () => undefined as never, generate: () => ({}), source: 'broken.mjs' });
    const e = userError(() => scheduled(GRID, 'broken', builtinRegistry().with([broken])));
    expect(e.render()).toContain("test.sched:1:1: error: broken: directive 'broken' returned something that is not a program");
  });
  it('rejects malformed definitions and missing modules with UserErrors', async () => {
    expect(() => defineDirective({ name: 'Bad Name', phase: 'loops', params: [], validate() {}, apply: (t) => t, generate: () => undefined })).toThrow(UserError);
    expect(() => defineDirective({ name: 'x', phase: 'later' as never, params: [], validate() {}, apply: (t) => t, generate: () => undefined })).toThrow(/phase/);
    await expect(loadDirectiveModule(`${DIR}/nope.mjs`, directiveApi)).rejects.toThrow(/no such file/);
    await expect(registryWith([`${DIR}/tile.mjs`, `${DIR}/tile.mjs`])).rejects.toThrow(/defined twice/);
  });
});

describe('tile (a composition of split, split, swap)', () => {
  it('tiles a 2-D loop nest', async () => {
    const reg = await registryWith([`${DIR}/tile.mjs`]);
    const t = scheduled(GRID, 'tile f.y, f.x by 2, 3', reg);
    expect(body(t)).toMatch(/for f\.s0\.yo[^]*for f\.s0\.xo[^]*for f\.s0\.yi[^]*for f\.s0\.xi/);
  });
  it('reports a broken step with the user directive\'s location', async () => {
    const reg = await registryWith([`${DIR}/tile.mjs`]);
    expectRejection(() => scheduled(GRID, 'tile f.x, f.y by 2, 3', reg), 'TILE', ['f.s0.y', 'f.s0.x']);
    expectRejection(() => scheduled(GRID, 'split f.x into yi, q by 2\ntile f.y, f.yi by 2, 3', reg), 'SCHED-FRESH', ["tile f.y, f.yi by 2, 3", "step 'split f.s0.y into yo, yi by 2'", 'f.s0.yi'], 2);
  });
  it('runs end to end from the command line and agrees with the algorithm', async () => {
    const r = await runCli(['schedule', 'examples/blur.alg', '--schedule', 'examples/blur-tiled.sched', '--directive', `${DIR}/tile.mjs`, '--check']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('for parallel blur_y.s0.yo');
    const src = loadPipeline(await import('node:fs').then((fs) => fs.readFileSync('examples/blur.alg', 'utf8')), 'blur.alg');
    const reg = await registryWith([`${DIR}/tile.mjs`]);
    const sched = parseSchedule(await import('node:fs').then((fs) => fs.readFileSync('examples/blur-tiled.sched', 'utf8')), 'blur-tiled.sched', reg);
    const done = completeProgram(applySchedule(lower(src), sched, { check: true, pipeline: src }), BUILTIN_ENGINES.beta0!);
    for (const window of [[[0, 5], [0, 4]], [[-2, 7], [3, 3]]] as const) {
      expect(verdictFor(src, done, { window, params: new Map() }, { seed: 3 }).kind).toBe('equal');
    }
  });
});

describe('split-vectorize', () => {
  it('splits by a constant and vectorizes the inner loop', async () => {
    const reg = await registryWith([`${DIR}/split-vectorize.mjs`]);
    expect(body(scheduled(GRID, 'split-vectorize f.x by 4', reg))).toContain('for vectorize f.s0.xv in (0, 4)');
    expectRejection(() => scheduled(GRID, 'split-vectorize f.x by n', reg), 'SPLIT-VECTORIZE', ['n']);
  });
});

describe('user directives under the confluence harness', () => {
  const RUNS = 30;
  it.each([['tile.mjs', 'tile'], ['split-vectorize.mjs', 'split-vectorize']])('%s stays confluent', async (file, name) => {
    const reg = await registryWith([`${DIR}/${file}`]);
    const stats: Stats = { runs: 0, focused: 0, equal: 0 };
    fc.assert(fc.property(arbCase(reg, name), (c) => {
      const bad = checkCase(c, reg, name, stats);
      if (bad) throw new Error(bad);
    }), { numRuns: RUNS, seed: 7 });
    expect(stats.focused).toBeGreaterThanOrEqual(RUNS / 4);
    expect(stats.equal).toBeGreaterThanOrEqual(RUNS / 4);
  }, 120_000);
  it('the deliberately unsound parallel-any is caught (the harness can fail)', async () => {
    const reg = await registryWith([`${DIR}/unsound-parallel.mjs`]);
    const stats: Stats = { runs: 0, focused: 0, equal: 0 };
    const r = fc.check(fc.property(arbCase(reg, 'parallel-any'), (c) => checkCase(c, reg, 'parallel-any', stats) === undefined), { numRuns: 300, seed: 11 });
    expect(r.failed).toBe(true);
    expect(String(r.counterexample ? checkCase(r.counterexample[0], reg, 'parallel-any', { runs: 0, focused: 0, equal: 0 }) : '')).toMatch(/data race/);
  }, 120_000);
  it('built-in traverse refuses what parallel-any accepts', () => {
    const reg = builtinRegistry();
    expect(() => parseSchedule('parallel-any f.x', 'x.sched', reg)).toThrow(/unknown directive 'parallel-any'/);
  });
});

describe('malformed user directive results', () => {
  it('are rejected with the directive named, not passed on', async () => {
    const { file } = scratch('refsem-malformed-');
    const mod = file('bad.mjs', `export default (api) => api.defineDirective({
  name: 'mangle', phase: 'loops', summary: 'returns garbage', params: [],
  validate() {}, apply(t) { return { ...t, body: { k: 'weird' } }; }, generate() { return {}; },
});
`);
    const sched = file('m.sched', 'mangle\n');
    const r = await runCli(['schedule', join(examplesDir, 'sec22.alg'), '--schedule', sched, '--directive', mod]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/m\.sched:1:1: error: mangle: directive 'mangle' .* returned a malformed program/);
  });
});
