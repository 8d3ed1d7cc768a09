// `refsem check-directive MODULE --prove` (spec/effects.md, [OBL-DIRECTIVE]): counts of proved,
// refuted and unknown applications; a refutation that replays is a counterexample (exit 1) whose
// reproducer `refsem replay` runs; unknown is inconclusive (exit 4), never a success.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shutdownZ3 } from '../../src/expr/smt.js';
import { runCli } from '../support/cli.js';

afterAll(shutdownZ3);
const out = mkdtempSync(join(tmpdir(), 'refsem-prove-d-'));
const counts = (s: string) => /(\d+) application\(s\).*: (\d+) proved, (\d+) refuted \((\d+) replayed as a failure, (\d+) not\), (\d+) unknown/.exec(s)?.slice(1).map(Number);

describe('[OBL-DIRECTIVE] check-directive --prove', () => {
  it('the unsound parallel-any: proved on pure loops, refuted on reduction loops, and the refutation replays as a data race', async () => {
    const r = await runCli(['check-directive', 'examples/directives/unsound-parallel.mjs', '--prove', '--runs', '2', '--seed', '1', '--out', out]);
    expect(r.code).toBe(1);
    const [apps, proved, refuted, replayed, not, unknown] = counts(r.stdout)!;
    expect(proved! + refuted! + unknown!).toBe(apps);
    expect(replayed! + not!).toBe(refuted);
    expect(replayed).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/replayed: (confluence|race-free): unsafe-data-race/);
    const rep = /reproducer: (\S+\.json)/.exec(r.stdout)?.[1];
    const again = await runCli(['replay', rep!]);
    expect(again.stdout).toMatch(/\(reproduced\)/);
  }, 60_000);

  it('a sound example directive: every application proved, exit 0', async () => {
    const r = await runCli(['check-directive', 'examples/directives/split-vectorize.mjs', '--prove', '--runs', '1', '--seed', '1', '--out', out, '--json']);
    const v = JSON.parse(r.stdout) as { applications: number; proved: number };
    expect(v.applications).toBeGreaterThan(0);
    expect(v.proved).toBe(v.applications);
    expect(r.code).toBe(0);
  }, 60_000);

  it('a rewrite the generic route does not recognise is unknown with its reason, inconclusive (exit 4)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refsem-prove-u-'));
    writeFileSync(join(dir, 'assert-before.mjs'), `export default (api) => api.defineDirective({
  name: 'assert-before', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],
  validate(t, a) { api.resolveLoop(t, a.loop); },
  apply(t, a) {
    const l = api.resolveLoop(t, a.loop);
    return api.replaceAt(t, l.path, (s) => ({ k: 'seq', body: [{ k: 'assert', cond: { k: 'const', value: 1 } }, s] }));
  },
  generate(t, rng) { const l = api.pick(rng, api.loopsOf(t)); return l ? { loop: l.stmt.var } : undefined; },
});
`);
    const r = await runCli(['check-directive', join(dir, 'assert-before.mjs'), '--prove', '--runs', '1', '--seed', '1', '--out', out]);
    const [apps, proved, , , , unknown] = counts(r.stdout)!;
    expect(apps).toBeGreaterThan(0);
    expect(proved).toBe(0);
    expect(unknown).toBe(apps);
    expect(r.stdout).toMatch(/unknown ×\d+: \[SAFE-UNMODELLED\]/);
    expect(r.stdout).toMatch(/unknown is no proof/);
    expect(r.code).toBe(4);
  }, 60_000);
});
