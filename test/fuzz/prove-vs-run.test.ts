// The prover and the executors check each other (spec/effects.md, [OBL-AGREE]): a short fixed-seed
// campaign of the prove-vs-run property, and the store-at it first showed refuted while running equal.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shutdownZ3 } from '../../src/expr/smt.js';
import { runCli } from '../support/cli.js';

afterAll(shutdownZ3);

describe('[OBL-AGREE] prove-vs-run', () => {
  it('a fixed-seed campaign: no disagreement, and the tallies say what the prover answered', async () => {
    const out = mkdtempSync(join(tmpdir(), 'refsem-pvr-'));
    const r = await runCli(['fuzz', '--property', 'prove-vs-run', '--runs', '4', '--seed', '2', '--jobs', '1', '--out', out, '--stats']);
    expect(r.stdout + r.stderr).toMatch(/prove-vs-run: 4 checks, 0 failing/);
    expect(r.stdout).toMatch(/tally prove-vs-run: proved, runs equal +\d+/);
    expect(r.code).toBe(0);
  }, 60_000);
});

describe('[EFF-COVER] store-at of a func with update stages', () => {
  it('is proved: its update stages read what its earlier stages computed in the same iteration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refsem-pvr-s-'));
    // the case the property shrank to (seed 2, check 32)
    writeFileSync(join(dir, 'p.alg'), `pipeline f2() {
  func f0(x, y) = (x * 3 + y * 7) % 17 - 8;
  func f1(x, y) {
    f0(x, y);
    (x, y) <- f1(x, y) + f0(x, y);
    (x, y) <- f1(x, y);
    rdom(r = (0, 2)) in (x, y) <- max(f1(x, y), f0(x + r, y) + r);
  }
  func f2(x, y) = f0(x, y) + f0(x, y) + f1(x, y);
}
`);
    writeFileSync(join(dir, 'p.sched'), 'compute-at f1 at f2.s0.y\ncompute-at f0 at f2.s0.y\ncompute-at f1 at f2.s0.x\ncompute-at f0 at f2.s0.y\nstore-at f1 at f2.s0.x\n');
    const r = await runCli(['schedule', join(dir, 'p.alg'), '--schedule', join(dir, 'p.sched'), '--prove', '--out', dir]);
    expect(r.stdout).toMatch(/\[SAFE-PRIVATE\] private f1 in f2\.s0\.x: proved/);
    expect(r.code).toBe(0);
  }, 60_000);
});
