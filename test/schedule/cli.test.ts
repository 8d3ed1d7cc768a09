// `refsem schedule`: the final program, the --trace of T0 … Tn, and bad input (exit 2, a message
// with file:line:col, never a stack trace).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';

const { dir, file } = scratch('refsem-sched-');

describe('refsem schedule', () => {
  it('--trace on §2.2 shows T0 … T3, the last the tiled program of fig. 2.2', async () => {
    const r = await runCli(['schedule', 'examples/sec22.alg', '--schedule', 'examples/sec22.sched', '--trace', '--check']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const heads = r.stdout.split('\n').filter((l) => l.startsWith('// T'));
    expect(heads).toEqual([
      '// T0 = lowering of examples/sec22.alg',
      '// T1 = [SPLIT] split f.x by 3   (examples/sec22.sched:2:1)',
      '// T2 = [COMPUTE-AT] compute-at g at f.xo   (examples/sec22.sched:3:1)',
      '// T3 = [STORE-AT] store-at g at f.xo   (examples/sec22.sched:4:1)',
    ]);
    const t3 = r.stdout.slice(r.stdout.indexOf('// T3'));
    expect(t3).toContain([
      '  allocate f(x in (?mem.min(f.x), ?mem.len(f.x)));',
      '  label f:',
      '    label f.s0:',
      '      for f.s0.xo in (0, (?cpu.len(f.x) + 2) / 3) do {',
      '        allocate g(x in (?mem.min(g.x), ?mem.len(g.x)));',
      '        label g:',
      '          label g.s0:',
      '            for g.s0.x in (?cpu.min(g.x), ?cpu.len(g.x)) do',
      '              if 1 then g[g.s0.x] <- g.s0.x * g.s0.x;',
      '        for f.s0.xi in (0, 3) do',
    ].join('\n'));
    // without --trace: only the final program, equal to T3
    const plain = await runCli(['schedule', 'examples/sec22.alg', '--schedule', 'examples/sec22.sched']);
    expect(plain.stdout).toBe(t3.slice(t3.indexOf('\n') + 1));
  });

  it('the scheduled blur example runs and agrees with its algorithm (refsem exec --compare)', async () => {
    for (const window of ['0+8,0+6', '-3+5,2+3']) {
      const r = await runCli(['exec', 'examples/blur.alg', '--schedule', 'examples/blur.sched', '--window', window, '--compare']);
      expect(r.stdout, r.stderr).toMatch(/^\[VERDICT-EQUAL\]/);
      expect(r.code).toBe(0);
    }
  });

  it('schedules hand-written .tgt programs too', async () => {
    const r = await runCli(['schedule', 'examples/blur.tgt', '--schedule', file('s.sched', 'split blur.x by 2\ncompute-at bx at blur.s0.y\nstore-at bx at blur.s0.y\n')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('for parallel blur.s0.y in (y.min, y.len) do {\n      allocate bx(');
    expect(r.stdout).toContain('for blur.s0.xo in (0, (x.len + 1) / 2) do');
  });

  it.each([
    ['an unknown func', 'compute-at q at f.x\n', /s\.sched:1:1: error: compute-at q at f\.x: \[SCHED-FUNC\] there is no func 'q'/],
    ['an unknown loop', 'split f.y by 2\n', /\[SCHED-LOOP\] there is no loop f\.s0\.y/],
    ['a wrong argument count', 'split f.x into a by 2\n', /\[SPLIT-NAMES\]/],
    ['a wrong argument type', 'split f.x by 2 tail 3\n', /s\.sched:1:21: error: expected one of guard, shift, round but found number 3/],
    ['a non-startup expression', 'split f.x by g[0]\n', /\[SCHED-STARTUP\] the split factor 'g\[0\]' reads func 'g'/],
    ['an out-of-phase directive', 'compute-at g at f.x\nsplit f.x by 2\n', /s\.sched:2:1: error: split f\.x by 2: \[SCHED-PHASE\]/],
    ['a directive that breaks dominance', 'split f.x by 2\ncompute-at g at f.xo\nstore-at g at f.xi\n', /s\.sched:3:1: error: store-at g at f\.xi: \[STORE-AT-DOMINANCE\]/],
  ])('%s: exit 2 with a located message', async (_what, sched, msg) => {
    const r = await runCli(['schedule', 'examples/sec22.alg', '--schedule', file('s.sched', sched)]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(msg);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('usage errors exit 2', async () => {
    expect((await runCli(['schedule', 'examples/sec22.alg'])).code).toBe(2);
    expect((await runCli(['schedule', 'examples/sec22.alg', '--schedule', join(dir, 'missing.sched')])).code).toBe(2);
    const bad = await runCli(['schedule', 'examples/sec22.alg', '--schedule', file('s.sched', 'split f.x by 2\n'), '--directive', join(dir, 'none.mjs')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/cannot load directive module/);
  });

  it('--list shows every directive with its syntax and phase', async () => {
    const r = await runCli(['schedule', '--list', '--directive', 'examples/directives/tile.mjs']);
    expect(r.stdout).toContain('split LOOP [into NAMES] by EXPR [tail guard|shift|round]    (loops)\n');
    expect(r.stdout).toContain('tile LOOPS by EXPRS    (loops, from examples/directives/tile.mjs)\n');
  });
});
