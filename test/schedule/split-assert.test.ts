// Regression: a split by a parameter asserts the factor positive before anything runs, so a later
// fuse cannot carry the check into a loop that runs zero times (found by the fuzz campaign,
// seed 2026: the stage silently computed nothing for m = 0).
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';

describe('split factor assertion', () => {
  const { file } = scratch('refsem-split-assert-');
  const alg = file('a.alg', 'pipeline f0(n, m) { func f0(x, y, z) { x; (x, n, z) <- 0; } }\n');
  const sched = file('a.sched', 'split f0.s0.x into xo, xi by m tail guard\nfuse f0.s0.y into yxo\n');

  it('survives a later fuse: m = 0 fails the assertion instead of leaving points unwritten', async () => {
    const r = await runCli(['exec', alg, '--schedule', sched, '--window', '0+1,0+1,0+1', '--param', 'n=1', '--param', 'm=0', '--compare']);
    expect(r.stdout).toContain('[VERDICT-ASSERTION]');
    expect(r.code).toBe(0);
  });

  it('is checked first in the scheduled program', async () => {
    const r = await runCli(['schedule', alg, '--schedule', sched]);
    const body = r.stdout.split('\n').map((l) => l.trim());
    const first = body.findIndex((l) => l.startsWith('assert'));
    const alloc = body.findIndex((l) => l.startsWith('allocate'));
    expect(body[first]).toBe('assert m > 0;');
    expect(first).toBeLessThan(alloc);
  });

  it('leaves a positive factor alone', async () => {
    const r = await runCli(['exec', alg, '--schedule', sched, '--window', '0+3,0+2,0+2', '--param', 'n=1', '--param', 'm=2', '--compare']);
    expect(r.stdout).toContain('[VERDICT-EQUAL]');
  });
});
