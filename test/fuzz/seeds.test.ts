// The seed corpus (src/fuzz/seeds.ts, src/fuzz/gen/seeded.ts): the apps are read as seeds, a seed
// as written is exactly its app, mutations decode the same way every time and shrink to cases
// that still apply, a bad seed stops the campaign at the file at fault, and the campaign checks
// the seeds early, the same for any split into shards.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { lower } from '../../src/lowering/lower.js';
import { halideSchedule } from '../../src/schedule/halide-style.js';
import { printSchedule } from '../../src/schedule/print.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import { BUILTINS } from '../../src/schedule/builtins.js';
import { DirectiveRegistry } from '../../src/schedule/plugin.js';
import { scheduleDriver } from '../../src/fuzz/gen/driver.js';
import { DEFAULT_CONFIG, type FuzzEnv } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { BUNDLED_SEEDS, loadSeeds } from '../../src/fuzz/seeds.js';
import { SEED_MAX_EXTENT } from '../../src/fuzz/gen/seeded.js';
import { type SchedGen, arbSeededGen, decodeSched, encodeSched, isSeeded, schedCase, schedSeeded } from '../../src/fuzz/properties/sched-case.js';
import { confluence, lemmas } from '../../src/fuzz/properties/soundness.js';
import { generated, runCheck, runCheckAsync } from '../../src/fuzz/check.js';
import { SEED_EVERY, SEEDS_FROM, checkAt } from '../../src/fuzz/slice.js';
import { checkSeed, NO_SHARD } from '../../src/fuzz/seed.js';
import { emptyStats, VERDICT_KEYS } from '../../src/fuzz/stats.js';
import { startCampaign } from '../../src/fuzz/runner.js';
import { splitForgetsMin } from '../../src/fuzz/zoo/directives.js';
import { replay } from '../../src/fuzz/replay.js';
import { runCli } from '../support/cli.js';
import { scratchDir } from '../support/files.js';
import { userError } from '../support/errors.js';

const APPS = ['bilateral', 'camera', 'conv', 'histeq', 'iir', 'maxfilter', 'pyramid', 'resize', 'stencil_chain', 'unsharp'];
const seeded = (): Promise<FuzzEnv> => makeEnv({ ...DEFAULT_CONFIG, seeds: BUNDLED_SEEDS });

describe('the seed corpus', () => {
  it('reads the apps suite, and each seed as written is its app under its Halide schedule', async () => {
    const env = await seeded();
    expect(env.seeds!().map((s) => s.name)).toEqual(APPS);
    for (const [i, seed] of env.seeds!().entries()) {
      const alg = loadPipeline(readFileSync(join(BUNDLED_SEEDS, `${seed.name}.alg`), 'utf8'), `${seed.name}.alg`);
      const app = printSchedule(halideSchedule(readFileSync(join(BUNDLED_SEEDS, `${seed.name}.halide`), 'utf8'), `${seed.name}.halide`, lower(alg)));
      for (const variant of [0, 1]) {
        const c = schedCase(schedSeeded().exact(env, i, variant), env);
        expect(c.scheduleText, seed.name).toBe(app);
        expect(c.trouble).toBeUndefined();
        expect(c.names).toHaveLength(seed.calls.length);
        expect(encodeSched(c).program).toBe(encodeSched({ ...c, pipeline: alg }).program);
      }
    }
    // bounded channels keep their bound's range on every window (camera: c in 0..2, conv: co in 0..3)
    const camera = schedCase(schedSeeded().exact(env, 1, 1), env);
    expect(camera.input.window.map(([m, l]) => [Number(m), Number(l)])).toEqual([[-5, 13], [37, 7], [0, 3]]);
  });

  it('decodes a mutation the same way every time, on a small window, from the seed\'s calls in order', async () => {
    const env = await seeded();
    const gs = fc.sample(arbSeededGen(env)!, { seed: 5, numRuns: 60 });
    expect(gs.every(isSeeded)).toBe(true);
    for (const g of gs) {
      const a = schedCase(g, env);
      const b = schedCase(JSON.parse(JSON.stringify(g)) as SchedGen, env);
      expect(b.scheduleText).toBe(a.scheduleText);
      expect(b.input).toEqual(a.input);
      for (const [, len] of a.input.window) expect(Number(len)).toBeLessThanOrEqual(SEED_MAX_EXTENT);
      // the text of the case is the case: it decodes to the same schedule, with the same budget
      const again = decodeSched(encodeSched(a), env);
      expect(again.scheduleText).toBe(a.scheduleText);
      expect(again.maxSteps).toBe(a.maxSteps);
    }
  });

  it('draws a mutation for a seed check, synchronous or not', async () => {
    const env = await seeded();
    const stats = emptyStats();
    runCheck(lemmas, env, 40, checkSeed(1, 40), stats, undefined, undefined, { seeded: true });
    await runCheckAsync(lemmas, env, 48, checkSeed(1, 48), stats, undefined, undefined, undefined, { seeded: true });
    expect(VERDICT_KEYS.reduce((n, k) => n + stats.seeds.mutated![k], 0)).toBe(2);
  });

  it('shrinks a failing mutation to a small seeded case that still applies', async () => {
    const env = await seeded();
    // A made-up failure: any seeded case that places a func with compute-at.
    const out = fc.check(fc.property(arbSeededGen(env)!, (g) => !schedCase(g, env).names.includes('compute-at')), { seed: 3, numRuns: 100 });
    expect(out.failed).toBe(true);
    const g = out.counterexample![0];
    expect(isSeeded(g)).toBe(true);
    const c = schedCase(g, env);
    expect(c.trouble).toBeUndefined();
    expect(c.names).toContain('compute-at');
    // shrunk: at most the one random choice that places, one point in x and y, few calls kept
    expect(g.d.length).toBeLessThanOrEqual(1);
    expect(c.input.window.slice(0, 2).map(([, len]) => Number(len))).toEqual([1, 1]);
    expect(c.names.length).toBeLessThanOrEqual(3);
    expect(decodeSched(encodeSched(c), env).scheduleText).toBe(c.scheduleText);
  });

  it('reports an unreadable or invalid seed at its file, line and column', () => {
    const dir = scratchDir('refsem-seeds-');
    const reg = builtinRegistry();
    expect(userError(() => loadSeeds(join(dir, 'nowhere'), reg)).render()).toMatch(/--seeds .*nowhere.*cannot read the seed directory/s);
    mkdirSync(join(dir, 'empty'));
    expect(userError(() => loadSeeds(join(dir, 'empty'), reg)).message).toMatch(/no seeds in .*: it has no \.alg file/);
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'blur.alg'), 'pipeline g() {\n  func f(x) = x * 2;\n  func g(x) = f(x - 1) + f(x + 1);\n}\n');
    writeFileSync(join(bad, 'blur.halide'), '# the producer per point\nf.compute_at(g, nowhere);\n');
    const e = userError(() => loadSeeds(bad, reg));
    expect(e.loc).toMatchObject({ file: join(bad, 'blur.halide'), line: 2 });
    expect(e.render()).toMatch(/blur\.halide:2:\d+: error: .*nowhere/);
    writeFileSync(join(bad, 'blur.halide'), 'f.compute_at(g, x);\n');
    writeFileSync(join(bad, 'lone.sched'), 'inline f\n');
    expect(userError(() => loadSeeds(bad, reg)).render()).toMatch(/lone\.sched:1:1: error: the schedule 'lone\.sched' has no algorithm 'lone\.alg'/);
  });

  it('refuses a campaign with a bad seed (exit 2) and runs one without seeds', async () => {
    const dir = scratchDir('refsem-seeds-');
    writeFileSync(join(dir, 'broken.alg'), 'pipeline g() {\n  func g(x) = x +;\n}\n');
    const r = await runCli(['fuzz', '--runs', '4', '--seed', '1', '--jobs', '1', '--property', 'lemmas', '--seeds', dir, '--out', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/broken\.alg:2:\d+: error/);
    const off = await runCli(['fuzz', '--runs', '4', '--seed', '1', '--jobs', '1', '--property', 'lemmas', '--seeds', 'off', '--out', join(dir, 'out')]);
    expect(off.code).toBe(0);
    expect(off.stdout).not.toMatch(/from seeds/);
  }, 60_000);

  it('checks every seed as written early, then mutations, the same whatever the split into shards', async () => {
    const runs = SEEDS_FROM + SEED_EVERY * (APPS.length + 3);
    const base = { properties: ['lemmas'], seed: 11, runs, jobs: 1, budgetMs: 60_000, inProcess: true, config: { ...DEFAULT_CONFIG, seeds: BUNDLED_SEEDS } };
    const whole = await startCampaign({ ...base, shard: NO_SHARD, out: scratchDir('refsem-seeds-') }).done;
    // from SEEDS_FROM on, every SEED_EVERY-th check is a seed: the ten as written, then three mutations
    const total = (v: Record<string, number> | undefined) => VERDICT_KEYS.reduce((n, k) => n + (v?.[k] ?? 0), 0);
    expect(total(whole.seeds?.exact)).toBe(APPS.length);
    expect(total(whole.seeds?.mutated)).toBe(3);
    const halves = await Promise.all([0, 1].map((index) => startCampaign({ ...base, shard: { index, count: 2 }, jobs: 1 + index, out: scratchDir('refsem-seeds-') }).done));
    for (const kind of ['exact', 'mutated'] as const) {
      for (const k of VERDICT_KEYS) expect((halves[0]!.seeds?.[kind]?.[k] ?? 0) + (halves[1]!.seeds?.[kind]?.[k] ?? 0), `${kind} ${k}`).toBe(whole.seeds?.[kind]?.[k] ?? 0);
    }
  }, 120_000);

  it('makes the random checks of a campaign without seeds, each once, in order', async () => {
    const withSeeds = await seeded();
    const without = await makeEnv(DEFAULT_CONFIG);
    const props = [confluence, lemmas];
    const random: number[] = [];
    for (let index = 0; index < 120; index++) {
      const { prop, at, ...source } = checkAt(props, 7, index, withSeeds);
      if (source.seeded) {
        expect(isSeeded(generated(prop, withSeeds, checkSeed(7, at), source) as SchedGen), String(index)).toBe(true);
        continue;
      }
      random.push(at);
      expect(checkAt(props, 7, at, without)).toEqual({ prop, at });
      expect(JSON.stringify(generated(prop, withSeeds, checkSeed(7, at))), String(index)).toBe(JSON.stringify(generated(prop, without, checkSeed(7, at))));
    }
    expect(random).toEqual(random.map((_, r) => r));
    expect(random.length).toBe(120 - Math.ceil((120 - SEEDS_FROM) / SEED_EVERY));
  });

  it('finds a fault planted in a directive the apps use with a seed as written, in few checks', async () => {
    const env = await seeded();
    // `split` that starts at 0 instead of the loop's minimum, in place of the real one
    const faulty = { ...splitForgetsMin, name: 'split' };
    const planted: FuzzEnv = { ...env, schedule: scheduleDriver(new DirectiveRegistry([...BUILTINS.filter((d) => d.name !== 'split'), faulty])) };
    const props = [confluence, lemmas];
    let found;
    let checks = 0;
    // the exact seed checks of a campaign, in order: the apps' tiles are splits
    for (let index = SEEDS_FROM; checks < 6 && !found; index += SEED_EVERY, checks++) {
      const { prop, at: _at, ...source } = checkAt(props, 1, index, planted);
      expect(source.example).toBeDefined();
      found = runCheck(prop, planted, index, checkSeed(1, index), emptyStats(), undefined, undefined, source);
    }
    expect(found, 'no failure in 6 exact checks').toBeDefined();
    expect(found!.origin?.exact).toBe(true);
    expect(found!.culprit).toBe('split');
    expect(checks).toBeLessThanOrEqual(4);
    expect(found!.text.schedule).toMatch(/^split /m);
  }, 60_000);

  it('finds a zoo fault with a seed as written, and its reproducer replays', async () => {
    // β0 with an interval rule for + one short at both ends; the shard runs checks 0 and 32 only,
    // and check 32 (SEEDS_FROM), the first seed as written, finds it
    const r = await startCampaign({
      properties: ['memory-safety', 'confluence'], seed: 1, runs: 64, jobs: 1, shard: { index: 0, count: SEEDS_FROM }, budgetMs: 60_000, inProcess: true,
      config: { ...DEFAULT_CONFIG, seeds: BUNDLED_SEEDS, fault: 'interval-add-off-by-one' }, out: scratchDir('refsem-seeds-zoo-'),
    }).done;
    const f = r.failures.find((x) => x.check === SEEDS_FROM);
    expect(f, JSON.stringify(r.failures)).toBeDefined();
    const again = await replay(f!.reproducer);
    expect(again.reproducer.from_seed).toBe('bilateral (as written)');
    expect(again.reproducer.case.extra?.max_steps).toBeDefined();
    expect(again.result.status === 'fail' && again.result.verdict).toBe(f!.verdict);
  }, 60_000);
});
