// Fuzzing at the scale of Halide apps: placements proposed consumers first, the shape statistics,
// vacuity accounting, check-directive's application counts and blame, and reproducers that carry
// their plug-in modules.
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { lower } from '../../src/lowering/lower.js';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { evaluate } from '../../src/fuzz/check.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';
import { arbSchedGen, schedCase } from '../../src/fuzz/properties/sched-case.js';
import { proposeComputeAt, storeWhereComputed } from '../../src/fuzz/gen/placement.js';
import { countShapes, hasNestedComputeAt, hasStoreAtOtherLevel, isOrderSensitive } from '../../src/fuzz/gen/shape.js';
import { emptyGenerated, generatedSummary } from '../../src/fuzz/stats.js';
import { parseSchedule } from '../../src/schedule/parse.js';
import { applySchedule } from '../../src/schedule/apply.js';
import { DirectiveRegistry } from '../../src/schedule/plugin.js';
import { BUILTINS } from '../../src/schedule/builtins.js';
import { scheduleDriver } from '../../src/fuzz/gen/driver.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { runCli } from '../support/cli.js';
import { scratchDir } from '../support/files.js';

const CHAIN = 'pipeline h() { func f(x, y) = x + y; func g(x, y) = f(x - 1, y) + f(x + 1, y); func h(x, y) = g(x, y - 1) + g(x, y + 1); }';
const scheduled = (src: string, sched: string): TgtProgram => applySchedule(lower(loadPipeline(src, 't.alg')), parseSchedule(sched, 't.sched'));
const DIRECTIVES = join(__dirname, '..', '..', 'examples', 'directives');

describe('placements as users write them', () => {
  it('proposes the latest unplaced func first, at loops that enclose all its uses', () => {
    const t0 = lower(loadPipeline(CHAIN, 't.alg'));
    const first = proposeComputeAt(t0, 1);
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((c) => (c.args as { func: string }).func === 'g' || (c.args as { func: string }).func === 'f')).toBe(true);
    expect(first.some((c) => (c.args as { func: string; loop: string }).func === 'g' && (c.args as { loop: string }).loop.startsWith('h.'))).toBe(true);
  });

  it('nests f inside g inside h when applied consumers first', () => {
    const t = scheduled(CHAIN, 'compute-at g at h.s0.y\ncompute-at f at g.s0.y');
    expect(hasNestedComputeAt(t)).toBe(true);
    expect(hasNestedComputeAt(scheduled(CHAIN, 'compute-at g at h.s0.y'))).toBe(false);
  });

  it('stores a func computed inside a parallel loop where it is computed, as Halide does by default', () => {
    // Step by step, without the whole-schedule check that this placement fails on its own.
    const drv = scheduleDriver(new DirectiveRegistry(BUILTINS));
    const calls = parseSchedule('traverse h.s0.y parallel\ncompute-at g at h.s0.x', 't.sched').calls.map((c) => ({ name: c.directive.name, args: c.args }));
    const t = calls.reduce((p, c, i) => drv.step(p, c, calls.slice(0, i)), lower(loadPipeline(CHAIN, 't.alg')));
    expect(storeWhereComputed(t)).toEqual([{ name: 'store-at', args: { func: 'g', loop: 'h.s0.x' } }]);
    expect(storeWhereComputed(scheduled(CHAIN, 'compute-at g at h.s0.x'))).toEqual([]);
  });
});

describe('shape statistics', () => {
  it('tells storage at another level from storage where the func is computed', () => {
    expect(hasStoreAtOtherLevel(scheduled(CHAIN, 'compute-at g at h.s0.x\nstore-at g at h.s0.y'))).toBe(true);
    expect(hasStoreAtOtherLevel(scheduled(CHAIN, 'compute-at g at h.s0.x\nstore-at g at h.s0.x'))).toBe(false);
  });

  it('calls folds order-insensitive and Horner schemes and scans order-sensitive', () => {
    const stage = (src: string) => {
      const p = loadPipeline(src, 't.alg');
      const f = p.funcs[p.funcs.length - 1]!;
      return isOrderSensitive(f, f.stages[1]!);
    };
    expect(stage('pipeline f() { func g(x) = x; func f(x) { 0; rdom(r = (0, 3)) in (x) <- f(x) + g(x + r); } }')).toBe(false);
    expect(stage('pipeline f() { func g(x) = x; func f(x) { 0; rdom(r = (0, 3)) in (x) <- max(g(x + r), f(x)); } }')).toBe(false);
    expect(stage('pipeline f() { func f(x) { 0; rdom(r = (0, 3), s = (0, 2)) in (x) <- f(x) * 2 + r - s; } }')).toBe(true);
    expect(stage('pipeline f() { func f(x) { x; rdom(r = (1, 4)) in (r) <- f(r - 1) + f(r); } }')).toBe(true);
  });

  it('summarizes counts with the mean and the maximum number of directives', () => {
    const g = emptyGenerated();
    const p = loadPipeline(CHAIN, 't.alg');
    countShapes(g, p, scheduled(CHAIN, 'compute-at g at h.s0.y\ncompute-at f at g.s0.y'), ['compute-at', 'compute-at']);
    countShapes(g, p, lower(p), []);
    expect(generatedSummary(g)).toEqual({
      checks: 2, funcs_ge_4: 0, compute_at: 1, nested_compute_at: 1, store_at_other_level: 0, order_sensitive_reduction: 0, directives_mean: 1, directives_max: 2,
    });
  });

  it('the default distribution reaches the shapes of Halide apps', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    const g = emptyGenerated();
    for (const s of fc.sample(arbSchedGen(env), { numRuns: 120, seed: 5 })) {
      const c = schedCase(s, env);
      countShapes(g, c.pipeline, c.steps[c.steps.length - 1]!, c.names);
    }
    const share = (k: keyof typeof g) => g[k] / g.checks;
    expect(share('funcs_ge_4')).toBeGreaterThan(0.3);
    expect(share('compute_at')).toBeGreaterThan(0.25);
    expect(share('nested_compute_at')).toBeGreaterThan(0.05);
    expect(share('store_at_other_level')).toBeGreaterThan(0.05);
    expect(share('order_sensitive_reduction')).toBeGreaterThan(0.05);
    expect(g.directives_total / g.checks).toBeGreaterThan(5);
  }, 120_000);
});

describe('vacuity', () => {
  const prog = 'pipeline g() {\n  func f(x) = x * 2;\n  func g(x) = f(x) + f(x + 1);\n}\n';
  const check = async (window: [string, string][], engine = 'beta0', program = prog) => {
    const env = await makeEnv({ ...DEFAULT_CONFIG, engine });
    const p = propertyNamed('confluence');
    return evaluate(p, p.decode({ program, schedule: '', input: { window, params: {} } }, env), env);
  };
  it('a window with values compared is a plain pass', async () => {
    expect(await check([['0', '4']])).toEqual({ status: 'pass' });
  });
  it('an empty window is a vacuous pass', async () => {
    expect(await check([['0', '0']])).toEqual({ status: 'pass', vacuous: 'empty_window' });
  });
  it('an error value of the algorithm on the window is a vacuous pass', async () => {
    const r = await check([['0', '2']], 'beta0', 'pipeline f() {\n  func f(x) = err.rdom;\n}\n');
    expect(r).toEqual({ status: 'pass', vacuous: 'vacuous_alg_error' });
  });
  it('a program whose engine gave up (assert 0) is a vacuous pass', async () => {
    // β0 cannot bound the data-dependent index l(l(x)) and the completed program is `assert 0`.
    const r = await check([['0', '2']], 'beta0', 'pipeline o() {\n  func l(x) = x % 5;\n  func o(x) = l(l(x));\n}\n');
    expect(r).toEqual({ status: 'pass', vacuous: 'vacuous_assertion' });
  });
});

describe('campaign summaries and options', () => {
  it('fail a campaign whose engine gives up on most programs (the floor on completions)', async () => {
    const dir = scratchDir('refsem-scale-');
    const quitter = join(dir, 'quitter.mjs');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(quitter, "export default { name: 'quitter', complete() { return { ok: false, explanation: 'gives up' }; } };\n");
    const r = await runCli(['fuzz', '--runs', '40', '--seed', '2', '--jobs', '1', '--property', 'confluence', '--engine', quitter, '--out', join(dir, 'out')]);
    expect(r.stdout).toMatch(/error: \d+% of the confluence checks compared no value \(most completed programs failed an assertion: engine \S*quitter\.mjs gave up on them\).*the campaign fails/);
    expect(r.stdout).toMatch(/no counterexample found/);
    expect(r.code).toBe(1);
  }, 120_000);

  it('carry the generated shapes and the verdicts of every property', async () => {
    const r = await runCli(['fuzz', '--runs', '24', '--seed', '3', '--jobs', '1', '--property', 'confluence,lemmas', '--out', scratchDir('refsem-scale-'), '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(Object.keys(s.generated).sort()).toEqual(['checks', 'compute_at', 'directives_max', 'directives_mean', 'funcs_ge_4', 'nested_compute_at', 'order_sensitive_reduction', 'store_at_other_level']);
    expect(s.generated.checks).toBe(24);
    for (const p of ['confluence', 'lemmas']) {
      expect(Object.keys(s.verdicts[p]).sort()).toEqual(['discard', 'empty_window', 'equal', 'fail', 'vacuous_alg_error', 'vacuous_assertion']);
    }
    const v = s.verdicts.confluence;
    expect(Object.values(v as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(s.properties.confluence.checks);
    expect(typeof s.non_vacuous_checks_per_s).toBe('number');
  }, 120_000);

  it.each([
    [['--max-funcs', '0'], /invalid --max-funcs '0': must be at least 1/],
    [['--max-funcs', '17'], /invalid --max-funcs '17': must be at most 16/],
    [['--max-directives', 'many'], /invalid --max-directives 'many': expected a whole number/],
    [['--max-directives', '33'], /must be at most 32/],
    [['--swarm', 'maybe'], /invalid --swarm 'maybe': expected on or off/],
  ])('rejects %j with a located message and exit 2', async (args, message) => {
    const r = await runCli(['fuzz', '--runs', '1', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^<command line>/);
    expect(r.stderr).toMatch(message);
  });

  it('generates within --max-funcs 2 and --max-directives 0, with swarm testing on', async () => {
    const r = await runCli(['fuzz', '--runs', '20', '--seed', '4', '--jobs', '1', '--property', 'lemmas', '--max-funcs', '2', '--max-directives', '0', '--swarm', 'on', '--out', scratchDir('refsem-scale-'), '--json']);
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(s.generated.funcs_ge_4).toBe(0);
    expect(s.generated.directives_max).toBe(0);
  });
});

describe('check-directive', () => {
  it('finds a directive that exchanges reduction loops (order-sensitive reductions are generated)', async () => {
    const r = await runCli(['check-directive', join(DIRECTIVES, 'unsound-swap-reduction.mjs'), '--runs', '300', '--seed', '1', '--out', scratchDir('refsem-scale-')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/directive swap-any: counterexample found after [\d.]+ s at check \d+ \(shrunk by [\d.]+ s; \d+ checks .*\); applied in \d+ of \d+ checks, \d+ of which compared values/);
  }, 300_000);

  it('answers "inconclusive" with exit 4 when the directive is never applied', async () => {
    const dir = scratchDir('refsem-scale-');
    const never = join(dir, 'never.mjs');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(never, `export default (api) => api.defineDirective({ name: 'never', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],
      validate(t, a, ctx) { ctx.reject('NEVER', 'never valid'); }, apply(t) { return t; },
      generate(t, rng) { const l = api.pick(rng, api.loopsOf(t)); return l ? { loop: l.stmt.var } : undefined; } });\n`);
    const r = await runCli(['check-directive', never, '--runs', '40', '--seed', '1', '--out', dir]);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/directive never: inconclusive, applied in 0 of 40 checks/);
    expect(r.stdout).toMatch(/at least 20 applications/);
  }, 120_000);

  it('blames a plug-in whose apply throws', async () => {
    const dir = scratchDir('refsem-scale-');
    const boom = join(dir, 'boom.mjs');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(boom, `export default (api) => api.defineDirective({ name: 'boom', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],
      validate(t, a) { api.resolveLoop(t, a.loop); }, apply() { throw new Error('boom inside apply'); },
      generate(t, rng) { const l = api.pick(rng, api.loopsOf(t)); return l ? { loop: l.stmt.var } : undefined; } });\n`);
    const r = await runCli(['check-directive', boom, '--runs', '40', '--seed', '1', '--out', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/directive boom: counterexample/);
    expect(r.stdout).toMatch(/directive-error/);
    expect(r.stdout).toMatch(/boom inside apply/);
  }, 120_000);
});

describe('reproducers that travel', () => {
  it('replay the embedded copy of a plug-in module whose file was deleted', async () => {
    const dir = scratchDir('refsem-scale-');
    const module = join(dir, 'unsound-parallel.mjs');
    copyFileSync(join(DIRECTIVES, 'unsound-parallel.mjs'), module);
    const out = join(dir, 'out');
    const r = await runCli(['fuzz', '--runs', '10', '--seed', '3', '--jobs', '1', '--property', 'race-free', '--directive', module, '--out', out, '--json']);
    expect(r.code).toBe(1);
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!);
    const file = s.failures[0].reproducer as string;
    rmSync(module);
    const again = await runCli(['replay', file]);
    expect(again.stderr).toMatch(/unsound-parallel\.mjs is missing; replaying the copy embedded in the reproducer/);
    expect(again.stdout).toMatch(/\(reproduced\)/);
    expect(again.code).toBe(1);
  }, 120_000);
});
