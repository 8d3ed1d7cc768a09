// Lemmas 2.13–2.17: every directive keeps the scheduled program confluent with its algorithm, on
// generated valid programs, schedules and inputs, with bounds inferred by β0. Each property also
// checks that it exercised its directive and compared real values, so that it cannot pass vacuously.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTINS, builtinRegistry } from '../../src/schedule/builtins.js';
import { type Stats, arbCase, checkCase } from './confluence-harness.js';

const registry = builtinRegistry();
const RUNS = 40;

describe('confluence of scheduled programs (lemmas 2.13–2.17)', () => {
  it.each(BUILTINS.map((d) => [d.name]))('%s', (name) => {
    const stats: Stats = { runs: 0, focused: 0, equal: 0 };
    fc.assert(
      fc.property(arbCase(registry, name), (c) => {
        const bad = checkCase(c, registry, name, stats);
        if (bad) throw new Error(bad);
      }),
      { numRuns: RUNS, seed: 20261122, endOnFailure: true },
    );
    expect(stats.focused, `runs whose schedule used ${name}`).toBeGreaterThanOrEqual(RUNS / 2);
    expect(stats.equal, 'verdicts comparing real values').toBeGreaterThanOrEqual(RUNS / 3);
  }, 120_000);
});
