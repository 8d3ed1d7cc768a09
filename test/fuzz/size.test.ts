// The size ramp: cases start small and grow to the configured maxima; a campaign adapts to a slow
// engine under test. Regression: a plug-in engine written from scratch ran ~50 checks a minute on
// app pipelines of up to 16 funcs, and a sound one timed out at the third check.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { BUILTIN_ENGINES } from '../../src/bounds/engine.js';
import { SIZE_LEVELS, levelAt, posOf, sizedConfig, sizedEnvs, timedEngine } from '../../src/fuzz/size.js';
import { median, shrinkReserveMs, shrinkSummary } from '../../src/fuzz/shrink-summary.js';
import type { FailureEntry } from '../../src/fuzz/runner.js';

describe('size ramp', () => {
  it('starts at the smallest level and reaches the maxima', () => {
    expect(levelAt(0)).toBe(1);
    expect(levelAt(posOf(3))).toBe(3);
    expect(levelAt(10_000)).toBe(SIZE_LEVELS);
    expect(sizedConfig(DEFAULT_CONFIG, 1)).toMatchObject({ maxFuncs: 2, maxDirectives: 4 });
    expect(sizedConfig(DEFAULT_CONFIG, SIZE_LEVELS)).toBe(DEFAULT_CONFIG);
    // Regression: a maximum of 0 directives became 1 at the small levels.
    expect(sizedConfig({ ...DEFAULT_CONFIG, maxDirectives: 0 }, 1).maxDirectives).toBe(0);
  });

  it('keeps what a zoo fault planted, and changes only the size of generation', async () => {
    const env = await makeEnv({ ...DEFAULT_CONFIG, fault: 'predicate-separation' });
    const small = sizedEnvs(env)(1);
    expect(small.gen.looseSeparationInPredicates).toBe(true);
    expect(small.gen.app?.maxFuncs).toBe(2);
    expect(small.config.maxDirectives).toBe(4);
    expect(small.validate).toBe(env.validate);
    expect(sizedEnvs(env)(SIZE_LEVELS)).toBe(env);
  });

  it('times a plug-in engine and says when it runs; a built-in engine is left as it is', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    expect(timedEngine(env, { ms: 0 })).toBe(env);
    const seen: boolean[] = [];
    const clock = { ms: 0, inside: (b: boolean) => seen.push(b) };
    const plug = timedEngine({ ...env, engine: { name: 'p', complete: BUILTIN_ENGINES.beta0!.complete } }, clock);
    plug.engine.complete({ params: [], window: [], output: 'f', body: { k: 'nop' } } as never, { params: [], holes: [], body: { k: 'true', rule: 'x' }, dims: new Map(), output: 'f', fixed: new Map() });
    expect(seen).toEqual([true, false]);
    expect(plug.engine.name).toBe('p');
  });
});

describe('shrink summary', () => {
  it('keeps a tenth of --time, at most 30 s, and gives the median size of the reproducers', () => {
    expect(shrinkReserveMs(60_000)).toBe(6_000);
    expect(shrinkReserveMs(3_600_000)).toBe(30_000);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    const e = (funcs: number, directives: number, stopped = false): FailureEntry => ({
      property: 'p', verdict: 'v', key: `k${funcs}`, check: 0, reproducer: 'r', detected_s: 0, reported_s: 0, funcs, directives, ...(stopped ? { shrink_stopped_by_time: true } : {}),
    });
    expect(shrinkSummary([e(1, 2), e(3, 0, true), e(2, 5)], 6000)).toEqual({ reserve_s: 6, reproducers: 3, median_funcs: 2, median_directives: 2, stopped_by_time: 1 });
  });
});
