// The default campaign's time slices: the compiled properties get a share of each worker's time,
// are skipped with the package to install when their tools are missing, and are numbered apart
// from the other checks.
import { describe, expect, it } from 'vitest';
import { SLICED_FROM, TIME_SLICES, availableSlices, sliceClock } from '../../src/fuzz/time-slice.js';
import { batchResults, concretize, evaluateAsync, generated } from '../../src/fuzz/check.js';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { checkSeed } from '../../src/fuzz/seed.js';
import { sizedEnvs } from '../../src/fuzz/size.js';
import { humanSummary } from '../../src/fuzz/report.js';
import type { CampaignResult } from '../../src/fuzz/runner.js';

describe('time slices', () => {
  it('cover the backend, FPIR and Halide properties, a quarter of the time in all', () => {
    expect(TIME_SLICES.map((s) => s.property.name)).toEqual(['backend', 'fpir', 'halide']);
    expect(TIME_SLICES.reduce((a, s) => a + s.share, 0)).toBeCloseTo(0.25);
  });

  it('run the slice furthest below its share, and none before any time has passed', () => {
    const clock = sliceClock(TIME_SLICES, 0);
    expect(clock.due(0)).toBeUndefined();
    // After 10 s: backend is owed 1.4 s, fpir 0.6 s, halide 0.5 s; the most owed runs.
    expect(clock.due(10_000)).toBe(0);
    clock.spend(0, 3000);
    expect(clock.due(10_000)).toBe(1);
    clock.spend(1, 1000);
    expect(clock.due(10_000)).toBe(2);
    clock.spend(2, 500);
    expect(clock.due(10_000)).toBeUndefined();
  });

  it('name each slice this machine runs or the reason it is skipped', () => {
    const { names, skipped } = availableSlices();
    expect([...names, ...Object.keys(skipped)].sort()).toEqual(['backend', 'fpir', 'halide']);
    for (const why of Object.values(skipped)) expect(why).toMatch(/install|AVX2/);
  });

  it('are reported in the summary with their seconds or why they were skipped', () => {
    const r = {
      seed: 1, runs: 1, elapsed_s: 1, checks_per_s: 1, non_vacuous_checks_per_s: 1, failures: [], directives: {}, properties: {}, constructs: {}, generated: {}, verdicts: {},
      below_completion_floor: false, jobs: 1, shard: '0/1', engine: 'beta0', interrupted: false,
      shrinking: { reserve_s: 0, reproducers: 0, median_funcs: 0, median_directives: 0, stopped_by_time: 0 },
      time_slices: { backend: { share: 0.1, seconds: 5.5 }, halide: { skipped: 'python3-halide is missing (install python3-halide)' } },
    } satisfies CampaignResult;
    expect(humanSummary(r, false)).toContain('time slices: backend 5.5 s (share 10%); halide skipped: python3-halide is missing (install python3-halide)');
  });
});

describe('batched slices', () => {
  // One compile for several sliced checks must not change what any of them says: each case's result
  // from the batch is the one its own check gives, and failures are left to be checked alone.
  it.each(['backend', 'fpir'])('give each %s case the result its own check gives', async (name) => {
    const slice = TIME_SLICES.find((s) => s.property.name === name)!;
    if (slice.missing() !== undefined) return;
    const env = await makeEnv(DEFAULT_CONFIG);
    const envAt = sizedEnvs(env);
    const levels = [1, 2, 3, 4].map((k) => Math.min(slice.maxLevel, k));
    const seeds = levels.map((_, k) => checkSeed(1, SLICED_FROM + k));
    const batch = await batchResults(slice.property, levels.map((l) => envAt(l)), seeds);
    expect(batch.filter((r) => r !== undefined).length).toBeGreaterThan(0);
    for (const [k, r] of batch.entries()) {
      const c = concretize(slice.property, generated(slice.property, envAt(levels[k]!), seeds[k]!), envAt(levels[k]!));
      const alone = c.ok ? await evaluateAsync(slice.property, c.c, envAt(levels[k]!)) : c.r;
      if (r === undefined) expect(alone.status).not.toBe('pass');
      else expect(r.status).toBe(alone.status);
    }
  }, 120_000);
});
