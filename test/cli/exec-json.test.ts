// `refsem exec --json` prints the shape of docs/architecture.md on the requested window, even when the
// schedule over-computes, so its output compares directly with `refsem run --json`.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { example, scratch } from '../support/files.js';

describe('exec --json', () => {
  const { file } = scratch('refsem-exec-json-');
  const alg = file('sec22.alg', example('sec22.alg'));
  const round = file('round.sched', 'split f.x by 4 tail round\n');

  it('gives the window the user asked for, not the larger allocation of a rounded split', async () => {
    const ran = await runCli(['run', alg, '--window', '0+6', '--json']);
    const done = await runCli(['exec', alg, '--schedule', round, '--window', '0+6', '--json']);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual(JSON.parse(ran.stdout));
    expect(JSON.parse(done.stdout).values).toHaveLength(6);
  });

  it('works with a negative window minimum in both spellings', async () => {
    const a = await runCli(['exec', alg, '--schedule', round, '--window=-3+5', '--json']);
    const b = await runCli(['exec', alg, '--schedule', round, '--window', '-3+5', '--json']);
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout)).toEqual({ func: 'f', window: [[-3, 5]], values: [13, 5, 1, 1, 5] });
  });
});
