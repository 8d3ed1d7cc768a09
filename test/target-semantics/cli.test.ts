// `refsem step`: traces with rule IDs, outcomes, and bad input with exit code 2.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';

const { dir, file } = scratch('refsem-step-');
const scale = file('scale.tgt', 'pipeline f(k; x in (x.min, x.len)):\n{\n  allocate f(x in (x.min, x.len));\n  for f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x * k\n}\n');

describe('refsem step', () => {
  it('prints every step with its rule and the outcome', async () => {
    const r = await runCli(['step', scale, '--window', '0+2', '--param', 'k=3']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\s*1 {2}\[TGT-REALIZE\] {2}pipeline f\(…\); realize\(…\) {2}⟶ {2}k = 3, x\.min = 0, x\.len = 2$/);
    expect(lines.filter((l) => l.includes('[FOR-ITER]'))).toHaveLength(2);
    expect(lines.filter((l) => l.includes('[REDUCE] [ASSN]')).map((l) => l.replace(/.*\[ASSN\]\s+/, ''))).toEqual(['f[0] <- 0  ⟶  nop', 'f[1] <- 3  ⟶  nop']);
    expect(lines.slice(-3)).toEqual([
      '    23  [END]  pipeline f(…) : nop  ⟶  the buffer of f',
      'done after 23 steps: f over x in (0, 2):',
      '  0 3',
    ]);
  });

  it('accepts negative window mins in both spellings', async () => {
    for (const args of [['--window=-3+2'], ['--window', '-3+2']]) {
      const r = await runCli(['step', scale, ...args, '--param', 'k=2', '--every', '1000']);
      expect(r.stdout.trim().split('\n')).toEqual(['done after 23 steps: f over x in (-3, 2):', '  -6 -4']);
      expect(r.code).toBe(0);
    }
  });

  it('--every N prints only every N-th step', async () => {
    const r = await runCli(['step', scale, '--window', '0+2', '--param', 'k=3', '--every', '10']);
    const steps = r.stdout.split('\n').filter((l) => /^\s+\d+ {2}\[/.test(l)).map((l) => Number(l.trim().split(' ')[0]));
    expect(steps).toEqual([10, 20]);
  });

  it('reports a stuck state with its location', async () => {
    const f = file('oob.tgt', 'pipeline f():\n{\n  allocate f(x in (0, 2));\n  f[2] <- 1\n}\n');
    const r = await runCli(['step', f]);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(
      `stuck after 3 steps: out-of-bounds write of f[2]; f is allocated over (0, 2) at ${f}:4:3 in \`f[2] <- 1\``,
    );
  });

  it.each([
    [['--window', '0+2'], /missing parameter 'k'/],
    [['--window', '0+2', '--param', 'k=1', '--param', 'j=2'], /unknown parameter 'j'/],
    [['--param', 'k=1'], /1 output dimensions but the window gives 0/],
    [['--window', '0+2', '--param', 'k=1', '--max-steps', '5'], /step limit reached: the program needs more than 5 steps/],
    [['--window', '0+2', '--param', 'k=1', '--every', '0'], /invalid --every/],
  ])('bad input %j exits 2', async (args, msg) => {
    const r = await runCli(['step', scale, ...args]);
    expect(r.stderr).toMatch(msg);
    expect(r.code).toBe(2);
  });

  it('refuses programs with holes and malformed programs', async () => {
    const holes = file('holes.tgt', 'pipeline f(): allocate f(x in (?mem.min(f.x), 1))\n');
    const r = await runCli(['step', holes]);
    expect(r.stderr).toContain('error: program still has holes: ?mem.min(f.x)');
    expect(r.code).toBe(2);
    const bad = file('bad.tgt', 'pipeline f(): for x in (0, 1) nop\n');
    const r2 = await runCli(['step', bad]);
    expect(r2.stderr).toContain(`${bad}:1:31: error: expected 'do' but found 'nop'`);
    expect(r2.code).toBe(2);
  });
});
