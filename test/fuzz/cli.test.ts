// The fuzzing commands through the CLI: fuzz (JSON summary, errors), replay, merge,
// check-directive (the unsound example is reported, correct ones pass), and — with the compiled
// build — worker threads finding the same failures as one job.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratchDir } from '../support/files.js';

const scratch = () => scratchDir('refsem-fuzz-cli-');
const UNSOUND = join(__dirname, '..', '..', 'examples', 'directives', 'unsound-parallel.mjs');
const TILE = join(__dirname, '..', '..', 'examples', 'directives', 'tile.mjs');

describe('refsem fuzz', () => {
  it('ends with the JSON summary of docs/architecture.md', async () => {
    const out = scratch();
    const r = await runCli(['fuzz', '--runs', '30', '--seed', '3', '--jobs', '1', '--property', 'roundtrip', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(s).toMatchObject({ seed: 3, runs: 30, failures: [], shard: '0/1', jobs: 1 });
    expect(typeof s.elapsed_s).toBe('number');
    expect(typeof s.checks_per_s).toBe('number');
    expect(s.directives).toEqual({});
    expect(s.properties.roundtrip.checks).toBe(30);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
  });

  it('counts generated constructs and directives with --stats', async () => {
    const r = await runCli(['fuzz', '--runs', '40', '--seed', '3', '--jobs', '1', '--property', 'lemmas', '--out', scratch(), '--stats']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/constructs:\n/);
    expect(r.stdout).toMatch(/directives:\n {2}\S/);
    expect(r.stdout).toMatch(/lemmas: 40 checks, 0 failing/);
  });

  it('lists its properties', async () => {
    const r = await runCli(['fuzz', '--list']);
    for (const p of ['confluence', 'memory-safety', 'bounds-quality', 'race-free', 'lemmas', 'evaluators-alg', 'evaluators-tgt', 'roundtrip']) expect(r.stdout).toContain(p);
  });

  it('rejects bad usage with exit code 2', async () => {
    expect((await runCli(['fuzz', '--property', 'nope', '--runs', '1'])).stderr).toMatch(/unknown property 'nope'/);
    const shard = await runCli(['fuzz', '--shard', '2/2', '--runs', '1']);
    expect(shard.code).toBe(2);
    expect(shard.stderr).toMatch(/--shard '2\/2'/);
    expect((await runCli(['fuzz', '--time', '1s', '--runs', '3'])).code).toBe(2);
    expect((await runCli(['replay', join(scratch(), 'missing.json')])).code).toBe(2);
  });
});

describe('refsem fuzz --backend', () => {
  const hasCc = spawnSync('cc', ['--version']).status === 0;
  it.runIf(hasCc)('checks the compiled C backend with the backend property', async () => {
    const r = await runCli(['fuzz', '--backend', 'c', '--runs', '3', '--seed', '1', '--jobs', '1', '--out', scratch(), '--json']);
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(s.properties.backend.checks).toBe(3);
    expect(Object.keys(s.properties)).toEqual(['backend']);
  }, 300_000);
  it('refuses to start without a C compiler (exit 2), instead of failing every check', async () => {
    const saved = process.env.CC;
    process.env.CC = '/nonexistent/refsem-cc';
    try {
      const r = await runCli(['fuzz', '--backend', 'c', '--runs', '2', '--jobs', '1', '--out', scratch()]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/no C compiler found: '\/nonexistent\/refsem-cc' could not be started\n {2}hint: install gcc or clang/);
    } finally {
      if (saved === undefined) delete process.env.CC;
      else process.env.CC = saved;
    }
  });
  it('rejects an unknown backend', async () => {
    const r = await runCli(['fuzz', '--backend', 'gpu', '--runs', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/expected c, simd or halide/);
  });
});

describe('refsem check-directive', () => {
  it('reports the deliberately unsound example with a minimized counterexample', async () => {
    const out = scratch();
    const r = await runCli(['check-directive', UNSOUND, '--runs', '400', '--seed', '1', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/directive parallel-any: counterexample found after [\d.]+ s at check \d+ \(shrunk by [\d.]+ s; \d+ checks in/);
    expect(r.stdout).toMatch(/parallel-any /);
    const file = /reproducer: (\S+)/.exec(r.stdout)![1]!;
    const again = await runCli(['replay', file]);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/\(reproduced\)/);
  }, 300_000);

  it('passes a correct directive', async () => {
    const r = await runCli(['check-directive', TILE, '--runs', '150', '--seed', '1', '--out', scratch()]);
    expect(r.stdout).toMatch(/^directive tile: no counterexample in 150 checks, applied in \d+ of 150 checks, \d+ of which compared values \(seed 1\)/);
    expect(Number(/applied in (\d+)/.exec(r.stdout)![1])).toBeGreaterThanOrEqual(20);
    expect(r.code).toBe(0);
  }, 300_000);
});

describe('refsem merge', () => {
  it('combines shard outputs into the summary of the whole campaign', async () => {
    const common = ['--runs', '16', '--seed', '3', '--jobs', '1', '--property', 'race-free', '--directive', UNSOUND, '--json'];
    const whole = JSON.parse((await runCli(['fuzz', ...common, '--out', scratch()])).stdout);
    const dirs = [scratch(), scratch()];
    for (const [i, d] of dirs.entries()) await runCli(['fuzz', ...common, '--shard', `${i}/2`, '--out', d]);
    const merged = await runCli(['merge', ...dirs, '--json']);
    const m = JSON.parse(merged.stdout);
    expect(m.runs).toBe(whole.runs);
    expect(m.failures.map((f: { key: string; check: number }) => [f.key, f.check])).toEqual(whole.failures.map((f: { key: string; check: number }) => [f.key, f.check]));
    expect(merged.code).toBe(whole.failures.length > 0 ? 1 : 0);
  }, 300_000);
});

describe('worker threads (compiled build)', () => {
  const bin = join(__dirname, '..', '..', 'bin', 'refsem.js');
  const built = existsSync(join(__dirname, '..', '..', 'dist', 'fuzz', 'worker.js'));
  it.runIf(built)('end on time when a plug-in hangs: the hang is one timeout failure, the plug-in never runs on the main thread', () => {
    const dir = scratch();
    const hang = join(dir, 'hang.mjs');
    writeFileSync(hang, `export default (api) => api.defineDirective({ name: 'hang', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],
      validate(t, a) { api.resolveLoop(t, a.loop); }, apply() { for (;;) {} },
      generate(t, rng) { const l = api.pick(rng, api.loopsOf(t)); return l ? { loop: l.stmt.var } : undefined; } });\n`);
    const r = spawnSync('node', [bin, 'fuzz', '--directive', hang, '--time', '6s', '--budget', '1s', '--jobs', '1', '--seed', '1', '--property', 'confluence', '--out', join(dir, 'out'), '--json'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(1);
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(s.failures.map((f: { verdict: string }) => f.verdict)).toEqual(['timeout']);
    expect(s.runs).toBeGreaterThan(1);
    // Its reproducer keeps the size level the check ran at, so that replay draws the same case.
    expect(JSON.parse(readFileSync(s.failures[0].reproducer, 'utf8')).case.extra.size_level).toMatch(/^[1-8]$/);
    // It replays to the same verdict under the budget instead of hanging replay.
    const replayed = spawnSync('node', [bin, 'replay', s.failures[0].reproducer], { encoding: 'utf8', timeout: 60_000 });
    expect(replayed.stdout).toContain('replayed verdict: timeout (reproduced)');
    expect(replayed.status).toBe(1);
  }, 120_000);
  it.runIf(built)('a check that hangs is shrunk in tries that are each stopped at the budget, and its reproducer holds the program replay shows', () => {
    const dir = scratch();
    const sleeper = join(dir, 'sleeper.mjs');
    // Blocks its thread without spinning: every try of the shrink hangs at no CPU cost.
    writeFileSync(sleeper, `export default { name: 'sleeper', complete() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); } };\n`);
    const r = spawnSync('node', [bin, 'fuzz', '--engine', sleeper, '--runs', '1', '--budget', '1s', '--jobs', '1', '--seed', '1', '--property', 'confluence', '--out', join(dir, 'out'), '--json'], { encoding: 'utf8', timeout: 120_000 });
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(s.failures.map((f: { verdict: string; culprit: string }) => [f.verdict, f.culprit])).toEqual([['timeout', 'engine:sleeper']]);
    const repro = JSON.parse(readFileSync(s.failures[0].reproducer, 'utf8'));
    expect(repro.case.program).toMatch(/^pipeline /);
    expect(repro.case.extra.blueprint).toBeUndefined();
    const replayed = spawnSync('node', [bin, 'replay', s.failures[0].reproducer], { encoding: 'utf8', timeout: 60_000 });
    expect(replayed.stdout).toContain('replayed verdict: timeout (reproduced)');
    expect(replayed.stdout).toContain(`program:\n${repro.case.program}`);
  }, 180_000);
  it.runIf(built)('count every check when workers are replaced: --runs N reports N checks, however many hung', () => {
    const dir = scratch();
    const hang = join(dir, 'hang-some.mjs');
    // Every third apply hangs: the worker is replaced twice or more, and no finished check is lost with it.
    writeFileSync(hang, `let n = 0; export default (api) => api.defineDirective({ name: 'hang', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],
      validate(t, a) { api.resolveLoop(t, a.loop); }, apply(t) { if (++n % 3 === 0) for (;;) {} return t; },
      generate(t, rng) { const l = api.pick(rng, api.loopsOf(t)); return l ? { loop: l.stmt.var } : undefined; } });\n`);
    const r = spawnSync('node', [bin, 'fuzz', '--directive', hang, '--runs', '12', '--budget', '1s', '--jobs', '1', '--seed', '1', '--property', 'confluence', '--out', join(dir, 'out'), '--json'], { encoding: 'utf8', timeout: 120_000 });
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(s.runs).toBe(12);
    expect(s.failures.map((f: { verdict: string }) => f.verdict)).toEqual(['timeout']);
  }, 180_000);
  it.runIf(built)('an engine that exhausts its worker\'s heap is an out-of-memory verdict, and the campaign goes on', () => {
    const dir = scratch();
    const hog = join(dir, 'hog.mjs');
    // The hog explodes once in the whole campaign (a marker file says it has), so the shrink of
    // that check, whose tries would each explode again and restart a worker, ends at once.
    const marker = join(dir, 'exploded');
    writeFileSync(hog, `import { existsSync, writeFileSync } from 'node:fs';
      let calls = 0; export default { name: 'hog', complete() {
      if (++calls % 3 === 0 && !existsSync(${JSON.stringify(marker)})) {
        writeFileSync(${JSON.stringify(marker)}, '');
        const keep = []; for (;;) keep.push(new Array(1 << 20).fill(0.5 + calls));
      }
      return { ok: false, explanation: 'gives up' }; } };\n`);
    const r = spawnSync('node', [bin, 'fuzz', '--engine', hog, '--runs', '8', '--budget', '120s', '--jobs', '1', '--seed', '2', '--property', 'confluence', '--out', join(dir, 'out'), '--json'], { encoding: 'utf8', timeout: 170_000, env: { ...process.env, REFSEM_PLUGIN_HEAP_MB: '256' } });
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(s.runs).toBe(8);
    expect(s.failures.map((f: { verdict: string; key: string }) => [f.verdict, f.key])).toEqual([['out-of-memory', 'confluence/out-of-memory']]);
  }, 180_000);
  it.runIf(built)('find the same failures with --jobs 1 and --jobs 2', () => {
    const run = (jobs: string) => {
      const r = spawnSync('node', [bin, 'fuzz', '--runs', '12', '--seed', '3', '--jobs', jobs, '--property', 'race-free', '--directive', UNSOUND, '--out', scratch(), '--json'], { encoding: 'utf8' });
      const s = JSON.parse(r.stdout.trim().split('\n').pop()!);
      return { code: r.status, runs: s.runs, failures: s.failures.map((f: { key: string; check: number; verdict: string }) => [f.key, f.check, f.verdict]) };
    };
    const one = run('1');
    const two = run('2');
    expect(one.runs).toBe(12);
    expect(two).toEqual(one);
    expect(one.failures.length).toBeGreaterThan(0);
    expect(one.code).toBe(1);
  }, 300_000);
});
