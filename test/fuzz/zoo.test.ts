// The bug zoo: every planted fault is found by the default fuzzers within a fixed budget of
// checks (deterministic: fixed seed, in-process), the failure is the fault's doing, and its
// reproducer replays to the same verdict.
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/fuzz/replay.js';
import { FAULTS, type Fault } from '../../src/fuzz/zoo/faults.js';
import { runFault } from '../../src/fuzz/zoo/run.js';
import { scratchDir } from '../support/files.js';

/** Checks allowed per fault; a code generation fault's checks each compile a binary (so fewer, and slower). */
const BUDGET = 1600;
// Measured on seed 1 (in-process, one job): predicate-separation needs 3,585 checks, since parallel
// writes of one value are overlaps rather than races ([PAR-OVERLAP]) and only racy predicates that
// write different values still show the fault.
const PREDICATE_SEPARATION_BUDGET = 4000;
const budgetOf = (f: Fault) => (f.backend ? 600 : f.name === 'predicate-separation' ? PREDICATE_SEPARATION_BUDGET : BUDGET);

/**
 * Faults whose detection takes a campaign of minutes on one core; each has a regression test of
 * its own (test/fuzz/engine-blame.test.ts) and is measured by `npm run zoo`.
 */
const MEASURED_BY_ZOO = new Set(['fuse-drops-tail-guard', 'select-then-only', 'min-as-intersection']);

describe('bug zoo', () => {
  it('has at least ten faults, and the five code generation faults of the backends', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(14);
    expect(FAULTS.filter((f) => f.backend).map((f) => [f.name, f.backend])).toEqual([
      ['c-truncating-division', 'c'], ['simd-unproven-narrowing', 'simd'], ['simd-dropped-tail', 'simd'], ['simd-lane-order', 'simd'],
      ['c-unproven-storage', 'c'],
    ]);
  });

  it.each(FAULTS.filter((f) => !MEASURED_BY_ZOO.has(f.name)).map((f) => [f.name, f] as const))('detects %s within the budget', async (_n, f) => {
    const e = await runFault(f, { seed: 1, jobs: 1, runs: budgetOf(f), inProcess: true, out: scratchDir(`refsem-zoo-${f.name}-`) });
    expect(e.detected, `${f.name} after ${e.checks} checks`).toBe(true);
    expect(e.checks).toBeLessThanOrEqual(budgetOf(f));
    expect(e.reproducer).toBeDefined();
    const again = await replay(e.reproducer!);
    expect(again.reproducer.fault).toBe(f.name);
    expect(again.result.status === 'fail' && again.result.verdict).toBe(e.verdict);
  }, 600_000);
});
