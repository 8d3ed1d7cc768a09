// The Halide bridge against the real Halide 14 (python3-halide): its arithmetic matches §2.9, the
// examples and their schedules give the algorithm's values, what cannot be stated faithfully is
// refused with its reason, and campaigns tally Halide's verdicts.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyOp } from '../../src/expr/ops.js';
import { int } from '../../src/expr/value.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { PYTHON, halideAvailable, validateHalide } from '../../src/halide/run.js';
import { readBridged } from '../../src/halide/load.js';
import { runCli } from '../support/cli.js';
import { scratchDir } from '../support/files.js';

const ex = (f: string) => join(__dirname, '..', '..', 'examples', f);
const available = halideAvailable();
if (!available) console.warn('test/halide: skipped, Halide 14 bindings missing: apt-get install python3-halide');
const input = (window: [number, number][], params: Record<string, number> = {}) => ({ window: window.map(([m, l]) => [int(m), int(l)] as const), params: new Map(Object.entries(params).map(([k, v]) => [k, int(v)])) });

describe.runIf(available)('the Halide bridge', () => {
  it("[HALIDE-OPS] Halide's Int(64) division and modulo are Euclidean with x / 0 = 0, as refsem's", () => {
    const pairs = [[-7, 2], [7, -2], [-7, -2], [7, 2], [5, 0], [-5, 0], [0, 3], [-9, 3], [2 ** 40 + 3, -7]];
    const script = `import json, halide as hl\nout = []\nfor a, b in ${JSON.stringify(pairs)}:\n    f = hl.Func('f')\n    x = hl.Var('x')\n    f[x] = hl.select(x == 0, hl.i64(a) / hl.i64(b), hl.i64(a) % hl.i64(b))\n    buf = f.realize([2])\n    out.append([str(buf[0]), str(buf[1])])\nprint(json.dumps(out))\n`;
    const r = spawnSync(PYTHON, ['-c', script], { encoding: 'utf8' });
    const got = JSON.parse(r.stdout) as string[][];
    pairs.forEach(([a, b], i) => {
      expect(got[i], `${a}, ${b}`).toEqual([String(applyOp('div', [int(a!), int(b!)])), String(applyOp('mod', [int(a!), int(b!)]))]);
    });
  }, 120_000);

  it.each([
    ['sec22.alg', 'sec22.sched', [[0, 6]]],
    ['blur.alg', 'blur.sched', [[-1, 7], [2, 5]]],
    ['harris.alg', 'harris.sched', [[-2, 9], [3, 10]]],
    ['histogram.alg', '', [[0, 8]]],
    ['triangle.alg', '', [[0, 6]]],
  ] as const)('[HALIDE-SCHEDULE] [HALIDE-ROOT] [HALIDE-OUTPUT] %s under %s gives the algorithm\'s values', async (alg, sched, window) => {
    const { alg: p, steps } = await readBridged({ prog: ex(alg), ...(sched ? { schedule: ex(sched) } : {}), directives: [] });
    const v = await validateHalide(p, steps, input(window as unknown as [number, number][]));
    expect(v.kind).toBe('equal');
    expect(v.kind === 'equal' && v.compared).toBeGreaterThan(0);
  }, 120_000);

  it('[HALIDE-TYPES] [HALIDE-VERDICT] refuses what it cannot state faithfully, naming the reason', async () => {
    const refused = async (src: string, w: [number, number][] = [[0, 3]]) => {
      const v = await validateHalide(loadPipeline(src, 't.alg'), [], input(w));
      return v.kind === 'rejected_by_refsem' ? v.message : v.kind;
    };
    expect(await refused('pipeline f() { func f(x) = err.rdom; }')).toMatch(/^\[HALIDE-OPS\] .*error constant/);
    expect(await refused('pipeline f() { func f(x) = x * 4294967296; }')).toMatch(/^\[HALIDE-TYPES\] .*beyond 32 bits/);
    expect(await refused('pipeline f() { func f(x) = x; }', [[2 ** 31 - 1, 4]])).toMatch(/outside Halide's index range/);
  }, 120_000);

  it('[HALIDE-RDOM] an update with a predicate and no rdom keeps the old value where the predicate is false', async () => {
    const v = await validateHalide(loadPipeline('pipeline f() { func f(x) { x; (x) <- f(x) * 10 if x > 1; } }', 't.alg'), [], input([[0, 4]]));
    expect(v).toEqual({ kind: 'equal', compared: 4 });
  }, 120_000);

  it('[HALIDE-RDOM] an rdom only the predicate mentions is kept (Halide dropped it: a false halide-differs)', async () => {
    const check = async (src: string) => validateHalide(loadPipeline(src, 't.alg'), [], input([[0, 4]]));
    // zero extent: the update never runs, f stays 0 (Halide gave 2)
    expect(await check('pipeline f() { func f(x) { 0; rdom(r = (0, 0)) in (x) <- 2 if -13 < r; } }')).toEqual({ kind: 'equal', compared: 4 });
    // two of three points pass the predicate: 0 + 2 + 2 (Halide gave 2)
    expect(await check('pipeline f() { func f(x) { 0; rdom(r = (0, 3)) in (x) <- f(x) + 2 if r > 0; } }')).toEqual({ kind: 'equal', compared: 4 });
  }, 120_000);

  it('[HALIDE-RDOM-UNUSED] an rdom its update does not mention is kept, and the update runs once per point of it (it was refused)', async () => {
    const check = async (src: string, params: Record<string, number> = {}) => validateHalide(loadPipeline(src, 't.alg'), [], input([[0, 4]], params));
    // three points, each adds 1: 3 everywhere (Halide, the RDom dropped, gave 1)
    expect(await check('pipeline f() { func f(x) { 0; rdom(r = (0, 3)) in (x) <- f(x) + 1; } }')).toEqual({ kind: 'equal', compared: 4 });
    // doubling per point of a 2 × 2 rdom: x · 16; an empty rdom leaves x
    expect(await check('pipeline f() { func f(x) { x; rdom(r = (0, 2), s = (1, 2)) in (x) <- f(x) * 2; } }')).toEqual({ kind: 'equal', compared: 4 });
    expect(await check('pipeline f(n) { func f(x) { x; rdom(r = (0, n)) in (x) <- f(x) * 2; } }', { n: 0 })).toEqual({ kind: 'equal', compared: 4 });
  }, 120_000);

  it('[HALIDE-SCHEDULE] align-bounds without a remainder is stated (it was a TypeError in the emitter)', async () => {
    const dir = scratchDir('refsem-align-');
    writeFileSync(join(dir, 'a.sched'), 'align-bounds f.x modulus 4\n');
    const r = await runCli(['halide', ex('sec22.alg'), '--schedule', join(dir, 'a.sched'), '--window', '1+5', '--run']);
    expect(r.stdout).toContain('equal on 5 points');
    expect(r.code).toBe(0);
    const text = await runCli(['halide', ex('sec22.alg'), '--schedule', join(dir, 'a.sched'), '--window', '1+5']);
    expect(text.stdout).toContain('F_f.align_bounds(V_x, hl.i32(hl.i64(4)))');
  }, 120_000);

  it('[HALIDE-TARGET] a producer computed inside a vectorized loop runs (Halide 14 compiled FP16 code for an AMD Zen 4 and died of SIGILL)', async () => {
    const dir = scratchDir('refsem-target-');
    writeFileSync(join(dir, 's.halide'), 'blur_y.vectorize(x, 4);\nblur_x.compute_at(blur_y, x);\n');
    const r = await runCli(['halide', ex('blur.alg'), '--schedule', join(dir, 's.halide'), '--window', '0+8,0+8', '--run']);
    expect(r.stdout).toContain('equal on 64 points');
    expect(r.code).toBe(0);
  }, 120_000);

  it('[HALIDE-LANES] a vector of 65536 lanes is not stated (Halide 14 wrapped the count and died of SIGFPE); 65535 is', async () => {
    const dir = scratchDir('refsem-lanes-');
    const run = (lanes: number) => {
      writeFileSync(join(dir, `v${lanes}.halide`), `harris.vectorize(x, ${lanes}).parallel(y);\n`);
      return runCli(['halide', ex('harris.alg'), '--schedule', join(dir, `v${lanes}.halide`), '--window', '0+4,0+2']);
    };
    const wide = await run(65536);
    expect(wide.stderr).toMatch(/a vector of 65536 lanes: Halide 14 holds at most 65535/);
    expect(wide.code).toBe(2);
    const widest = await run(65535);
    expect(widest.stdout).toContain('.vectorize(');
    expect(widest.code).toBe(0);
  }, 120_000);
});

describe.runIf(available)('the Halide commands', () => {
  it('refsem halide prints the program and --run compares it', async () => {
    const r = await runCli(['halide', ex('sec22.alg'), '--schedule', ex('sec22.sched'), '--window', '0+6']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/F_f\.split\(V_x, V_f_s0_xo, V_f_s0_xi, hl\.i32\(hl\.i64\(3\)\), hl\.TailStrategy\.GuardWithIf\)/);
    expect(r.stdout).toMatch(/F_g\.compute_at\(F_f, V_f_s0_xo\)/);
    const run = await runCli(['halide', ex('sec22.alg'), '--schedule', ex('sec22.sched'), '--window', '0+6', '--run']);
    expect(run.stdout).toBe('equal on 6 points\n');
  }, 120_000);

  it('validate --backend halide passes on the examples', async () => {
    const r = await runCli(['validate', ex('harris.alg'), '--schedule', ex('harris.sched'), '--backend', 'halide', '--inputs', '3']);
    expect(r.stdout).toMatch(/ok: 3 inputs/);
    expect(r.code).toBe(0);
  }, 300_000);

  it('a halide case carries a Python program that runs alone and prints both results; replay --extract writes it', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    const prop = propertyNamed('halide');
    const text = { program: 'pipeline f() {\n  func g(x) = x * x;\n  func f(x) = g(x) + g(x + 1);\n}\n', schedule: 'split f.x by 3\ncompute-at g at f.xo\n', input: { window: [['0', '4']] as [string, string][], params: {} } };
    const c = prop.decode(text, env);
    const python = prop.encode(c).extra!.python!;
    const run = spawnSync(PYTHON, ['-c', python], { encoding: 'utf8' });
    expect(JSON.parse(run.stdout)).toEqual({ values: ['1', '5', '13', '25'], expected: ['1', '5', '13', '25'], equal: true });
    const dir = scratchDir('refsem-halide-');
    const file = join(dir, 'r.json');
    writeFileSync(file, JSON.stringify({ format: 'refsem-reproducer/1', property: 'halide', verdict: 'halide-differs', seed: 1, check: 0, check_seed: 1, engine: 'beta0', directives: [], key: 'k', case: prop.encode(c), expected: 'e', actual: 'a', shrinks: 0 }));
    const x = await runCli(['replay', file, '--extract', join(dir, 'x')]);
    expect(x.stdout).toMatch(/case\.py/);
    expect(readFileSync(join(dir, 'x', 'case.py'), 'utf8')).toBe(python);
  }, 120_000);

  it('fuzz --backend halide tallies the verdicts in its summary', async () => {
    const r = await runCli(['fuzz', '--backend', 'halide', '--runs', '12', '--seed', '4', '--jobs', '1', '--out', scratchDir('refsem-halide-'), '--json']);
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(Object.keys(s.halide).sort()).toEqual(['crash', 'differs', 'equal', 'known_halide_bug', 'outside_index_range', 'rejected_by_halide', 'rejected_by_refsem']);
    expect(Object.values(s.halide as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(12);
  }, 300_000);
});

describe.runIf(available)('[HALIDE-SCHEDULE] fuse and specialize', () => {
  const alg = 'pipeline f(n) {\n  func g(x, y) = x * 3 + y;\n  func f(x, y) {\n    g(x, y) + n;\n    rdom(r = (0, 3), s = (0, 2)) in (x, y) <- f(x, y) * 2 + g(x + r, y + s) - r;\n  }\n}\n';
  const sched = 'specialize f when n > 3\nsplit f.s0.x into xo, xi by 4 tail guard\nsplit f.s0.k1.x into xo, xi by 2 tail guard\nfuse f.s1.y into yx\nfuse f.s1.s into rs\ntraverse f.s0.k1.y parallel\n';
  it.each([5, 2])('[HALIDE-SPECIALIZE] fused pure and reduction loops and a specialized copy give the algorithm\'s values (n = %i)', async (n) => {
    const dir = scratchDir('refsem-halide-');
    writeFileSync(join(dir, 'f.alg'), alg);
    writeFileSync(join(dir, 'f.sched'), sched);
    const { alg: p, steps } = await readBridged({ prog: join(dir, 'f.alg'), schedule: join(dir, 'f.sched'), directives: [] });
    expect(await validateHalide(p, steps, input([[0, 7], [-1, 5]], { n }))).toEqual({ kind: 'equal', compared: 35 });
    const r = await runCli(['halide', join(dir, 'f.alg'), '--schedule', join(dir, 'f.sched'), '--window', '0+7,0+5', '--param', `n=${n}`]);
    expect(r.stdout).toContain('S_f_1_1 = F_f.update(0).specialize(');
    expect(r.stdout).toContain('F_f.update(0).fuse(R_f_1[0], R_f_1[1], RV_f_s1_rs)');
  }, 120_000);
});
