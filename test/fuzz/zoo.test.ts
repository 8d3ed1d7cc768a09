// The bug zoo: every planted fault is found by the default fuzzers within a fixed budget of
// checks (deterministic: fixed seed, in-process), the failure is the fault's doing, and its
// reproducer replays to the same verdict.
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/fuzz/replay.js';
import { FAULTS } from '../../src/fuzz/zoo/faults.js';
import { runFault } from '../../src/fuzz/zoo/run.js';

/** Checks allowed per fault. */
const BUDGET = 1200;

describe('bug zoo', () => {
  it('has at least ten faults', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(10);
  });

  it.each(FAULTS.map((f) => [f.name, f] as const))('detects %s within the budget', async (_n, f) => {
    const e = await runFault(f, { seed: 1, jobs: 1, runs: BUDGET, inProcess: true });
    expect(e.detected, `${f.name} after ${e.checks} checks`).toBe(true);
    expect(e.checks).toBeLessThanOrEqual(BUDGET);
    expect(e.reproducer).toBeDefined();
    const again = await replay(e.reproducer!);
    expect(again.reproducer.fault).toBe(f.name);
    expect(again.result.status === 'fail' && again.result.verdict).toBe(e.verdict);
  }, 600_000);
});
