// check-directive on a placement: a composite compute-at that forgets the built-in's check for a
// parallel loop between a func's computation and its buffer races once a loop around the loop it
// places into runs in parallel. Regression: schedules almost never made such a loop parallel, and
// the generator's own store-at repair (Halide's default storage) then hid the race it causes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratchDir } from '../support/files.js';

const COMPOSITE = join(__dirname, 'fixtures', 'compute-at-shared-buffer.mjs');

describe('check-directive on a placement under a parallel loop', () => {
  it('finds the race of a compute-at that leaves the buffer outside the parallel loop', async () => {
    const r = await runCli(['check-directive', COMPOSITE, '--runs', '14', '--seed', '1', '--jobs', '1', '--out', scratchDir('refsem-placement-')]);
    expect(r.code).toBe(1);
    const head = /directive compute-at-shared-buffer: counterexample found after ([\d.]+) s at check \d+ \(shrunk by ([\d.]+) s; \d+ checks in/.exec(r.stdout);
    expect(head).not.toBeNull();
    // The detection is the first failing evaluation; the shrink that follows it comes after.
    expect(Number(head![1])).toBeLessThanOrEqual(Number(head![2]));
    expect(r.stdout).toMatch(/property: race-free — data-race/);
    expect(r.stdout).toMatch(/traverse \S+ parallel/);
  }, 300_000);
});
