// `refsem schedule --prove` (spec/effects.md, "Obligations of the directives"): the repository's
// example schedules are proved; its deliberately unsound directives are refuted by the generic
// route, and the refutations replay as reproducers that `refsem replay` runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shutdownZ3 } from '../../src/expr/smt.js';
import { runCli } from '../support/cli.js';

afterAll(shutdownZ3);
const out = mkdtempSync(join(tmpdir(), 'refsem-prove-'));

describe('[OBL-ROUTE] [OBL-VERDICT] every directive of the example schedules is proved', () => {
  for (const ex of ['sec22', 'blur', 'harris']) {
    it(`examples/${ex}.sched`, async () => {
      const r = await runCli(['schedule', `examples/${ex}.alg`, '--schedule', `examples/${ex}.sched`, '--prove', '--out', out]);
      expect(r.stdout).toMatch(/refuted, 0 unknown/);
      expect(r.stdout).toMatch(/ 0 refuted/);
      expect(r.code).toBe(0);
    }, 60_000);
  }
});

describe('[OBL-GENERIC] [OBL-REPLAY] the unsound example directives are refuted and replay', () => {
  it('swap-any on an order-sensitive reduction: refuted, replayed as a confluence failure', async () => {
    const r = await runCli(['schedule', 'examples/swap.alg', '--schedule', 'examples/swap.sched', '--directive', 'examples/directives/unsound-swap-reduction.mjs', '--prove', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/swap-any acc\.s1\.s: refuted \(obligations by the generic route\)/);
    const rep = /reproducer: (\S+\.json)/.exec(r.stdout)?.[1];
    expect(rep).toBeDefined();
    const again = await runCli(['replay', rep!]);
    expect(again.stdout).toMatch(/\(reproduced\)/);
  }, 60_000);
});

describe('[SAFE-SERIAL] [SAFE-COPIES] [SAFE-UNCHANGED] [SAFE-INDEPENDENT] [SAFE-STABLE] [OBL-DELEGATED] the other built-ins', () => {
  it('specialize, tails, inline, vectorize and bounds directives declare their obligations', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refsem-prove-s-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'p.alg'), 'pipeline f(n) {\n  func g(x) = x * x;\n  func h(x) = g(x) + 1;\n  func f(x) = h(x) + h(x + 1) + n;\n}\n');
    writeFileSync(join(dir, 'p.sched'), 'specialize f when n > 4\nsplit h.x by 4 tail shift\nsplit f.s0.x by 4\nvectorize f.s0.xi\ninline g\nbound f.x min x.min len x.len\n');
    const r = await runCli(['schedule', join(dir, 'p.alg'), '--schedule', join(dir, 'p.sched'), '--prove', '--out', out]);
    expect(r.stdout).toMatch(/\[SAFE-COPIES\] copies of f: proved/);
    expect(r.stdout).toMatch(/\[SAFE-INDEPENDENT\] independent h\.s0\.x: proved/);
    expect(r.stdout).toMatch(/\[SAFE-SERIAL\] serial f\.s0\.xi \(vectorize\): proved/);
    expect(r.stdout).toMatch(/\[SAFE-STABLE\] stable label g under/);
    expect(r.stdout).toMatch(/\[SAFE-UNCHANGED\] unchanged statements: proved/);
    expect(r.stdout).toMatch(/relies on: the completion/);
  }, 60_000);
});

describe('[OBL-ROUTE] a plug-in that edits the program before running a step', () => {
  it('has its own edit read off the programs: a reduction loop made parallel before a split is refuted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refsem-prove-e-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'p.alg'), 'pipeline f() {\n  func f(x) {\n    x;\n    rdom(r = (0, 4)) in (x) <- f(x) + r;\n  }\n}\n');
    writeFileSync(join(dir, 'par-split.mjs'), `export default (api) => api.defineDirective({
  name: 'par-split', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],
  validate(t, a) { api.resolveLoop(t, a.loop); },
  apply(t, a, ctx) {
    const l = api.resolveLoop(t, a.loop);
    return ctx.run(api.replaceAt(t, l.path, (s) => ({ ...s, trav: 'parallel' })), 'split', { loop: a.loop, factor: 2, outer: 'ro', inner: 'ri' });
  },
  generate() { return undefined; },
});
`);
    writeFileSync(join(dir, 'p.sched'), 'par-split f.s1.r\n');
    const r = await runCli(['schedule', join(dir, 'p.alg'), '--schedule', join(dir, 'p.sched'), '--directive', join(dir, 'par-split.mjs'), '--prove', '--out', out]);
    expect(r.stdout).toMatch(/par-split f\.s1\.r: refuted \(obligations by the steps route\)/);
    expect(r.stdout).toMatch(/\[SAFE-PARALLEL\] parallel f\.s1\.r: refuted/);
    expect(r.code).toBe(1);
  }, 60_000);
});

describe('[OBL-REPLAY] a case whose schedule does not read back', () => {
  // The prover's zoo bench crashed replaying a refutation of a plug-in directive: the generated
  // schedule listed a loops-phase directive after the plug-in's compute-phase call, and the
  // schedule text, parsed again for the replay, was refused by the phase order ([SCHED-PHASE]).
  it('compares nothing, with the reason, instead of throwing', async () => {
    const { firstFailure } = await import('../../src/fuzz/prove.js');
    const { makeEnv } = await import('../../src/fuzz/make-env.js');
    const { DEFAULT_CONFIG } = await import('../../src/fuzz/env.js');
    const text = {
      program: 'pipeline f() {\n  func g(x) = x * x;\n  func f(x) = g(x) + g(x + 1);\n}\n',
      schedule: 'compute-at g at f.s0.x\nsplit f.s0.x by 2 tail guard\n',
      input: { window: [['0', '4']] as [string, string][], params: {} },
    };
    const ran = await firstFailure(text, await makeEnv(DEFAULT_CONFIG));
    expect(ran.failure).toBeUndefined();
    expect(ran.discarded.length).toBe(3);
    for (const d of ran.discarded) expect(d).toMatch(/the case does not read back \(.*\[SCHED-PHASE\]/);
  }, 60_000);
});
