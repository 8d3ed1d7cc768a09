// Regressions: with a directive whose apply never returns, `check-directive --time T` ran on for
// a whole --budget past T and blamed its generate; Ctrl-C was ignored by check-directive and ended
// `fuzz --directive` with exit 130 but without the summary its banner promises. Generous limits,
// never timings: "ends well before the budget it used to wait for".
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratch } from '../support/files.js';

const bin = join(__dirname, '..', '..', 'bin', 'refsem.js');
const { file, dir } = scratch('refsem-campaign-budgets-');
const hang = file('hang.mjs', `export default (api) => api.defineDirective({ name: 'hang', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],
  validate(t, a) { api.resolveLoop(t, a.loop); }, apply() { for (;;) {} },
  generate(t, rng) { const l = api.pick(rng, api.loopsOf(t)); return l ? { loop: l.stmt.var } : undefined; } });
`);

describe('a directive whose apply never returns', () => {
  it('check-directive --time 3s ends well before its 40 s budget and names the check left running', () => {
    const t0 = Date.now();
    const r = spawnSync(process.execPath, [bin, 'check-directive', hang, '--time', '3s', '--budget', '40s', '--jobs', '1', '--seed', '1', '--out', join(dir, 'cd')], { encoding: 'utf8', timeout: 60_000 });
    const elapsed = (Date.now() - t0) / 1000;
    expect(elapsed).toBeLessThan(30);
    expect(r.stdout).toContain('directive hang: inconclusive');
    expect(r.stdout).toContain('still running when the search ended');
    expect(r.stdout).not.toContain('check that its generate proposes');
    expect(r.status).toBe(4);
  }, 60_000);

  it('Ctrl-C ends fuzz --directive with its summary and exit 130', async () => {
    const child = spawn(process.execPath, [bin, 'fuzz', '--directive', hang, '--time', '50s', '--budget', '50s', '--jobs', '1', '--seed', '1', '--out', join(dir, 'fz')]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      // The progress line shows the campaign running: interrupt it then.
      if (/checks left|elapsed/.test(stderr)) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    expect(stdout).toContain('(interrupted)');
    expect(code).toBe(130);
  }, 60_000);
});
