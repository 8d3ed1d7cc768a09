// Regression: `fuzz --backend halide --runs 10` discarded 7 of its 10 cases (Halide rejected them)
// and said only "no counterexample found", without the warning confluence campaigns print when
// most checks compared nothing.
import { describe, expect, it } from 'vitest';
import { humanSummary } from '../../src/fuzz/report.js';
import type { CampaignResult } from '../../src/fuzz/runner.js';

const result = (discards: number): CampaignResult => ({
  seed: 1, runs: 10, elapsed_s: 1, checks_per_s: 10, non_vacuous_checks_per_s: 3, failures: [], directives: {},
  properties: { halide: { checks: 10, failures: 0, discards } }, constructs: {}, generated: {}, verdicts: {},
  below_completion_floor: false, halide: { equal: 10 - discards, rejected_by_halide: discards, crash: 0 },
  jobs: 1, shard: '0/1', engine: 'beta0', interrupted: false,
  shrinking: { reserve_s: 0, reproducers: 0, median_funcs: 0, median_directives: 0, stopped_by_time: 0 },
});

describe('the summary of a backend campaign', () => {
  it('warns when most of its cases were discarded, with the reasons', () => {
    expect(humanSummary(result(7), false)).toContain('warning: 7 of the 10 halide checks were discarded (equal 3, rejected_by_halide 7), so passing them proves little');
  });

  it('says nothing more when most cases compared values', () => {
    expect(humanSummary(result(3), false)).not.toContain('warning');
  });
});
