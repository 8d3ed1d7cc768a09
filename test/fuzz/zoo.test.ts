// The bug zoo: every planted fault is found by the default fuzzers within a fixed budget of
// checks (deterministic: fixed seed, in-process), the failure is the fault's doing, and its
// reproducer replays to the same verdict.
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/fuzz/replay.js';
import { FAULTS, type Fault } from '../../src/fuzz/zoo/faults.js';
import { runFault } from '../../src/fuzz/zoo/run.js';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '../support/files.js';

/** Checks allowed per fault; a code generation fault's checks each compile a binary (so fewer, and slower). */
const BUDGET = 1600;
const budgetOf = (f: Fault) => (f.backend ? 600 : BUDGET);

/**
 * Faults whose detection takes a campaign of more than ten seconds on one core (minutes for some):
 * `npm run zoo` measures them, and each has a written case below (or, for the three whose blame
 * is the point, a regression test in test/fuzz/engine-blame.test.ts). c-unproven-storage needs 239 checks of --runs 600 at seed 1 (a compile each,
 * two minutes); a --time campaign at seed 1 finds it at check 12.
 */
const MEASURED_BY_ZOO = new Set([
  'fuse-drops-tail-guard', 'select-then-only', 'min-as-intersection', 'c-unproven-storage', 'simd-unproven-narrowing', 'simd-lane-order', 'predicate-separation',
  'closure-capture-dup', 'fpir-truncating-halving', 'c-truncating-division', 'fpir-pack-without-vpermq',
]);
/** Measured by the zoo, with a regression test elsewhere instead of a written case. */
const ZOO_ONLY = new Set(['fuse-drops-tail-guard', 'select-then-only', 'min-as-intersection']);
const CASES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'zoo-cases');

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

describe('the written cases of the faults measured by the zoo', () => {
  // Reproducers that seed-1 campaigns of `npm run zoo` wrote (test/fuzz/zoo-cases/FAULT.json): each
  // fails with its fault planted and passes without it, so the property still tells the fault apart
  // although the campaign that finds it is too slow for every test run.
  // Without its fault, sound validity refuses predicate-separation's program outright.
  const REJECTED_WITHOUT_FAULT = new Map([['predicate-separation', /not valid.*\[VALID-SEPARATION\]/]]);
  const CASES = readdirSync(CASES_DIR).filter((f) => f.endsWith('.json')).map((f) => basename(f, '.json'));

  it('covers every fault measured by the zoo', () => {
    expect([...CASES].sort()).toEqual(FAULTS.filter((f) => MEASURED_BY_ZOO.has(f.name) && !ZOO_ONLY.has(f.name)).map((f) => f.name).sort());
  });

  it.each(CASES)('%s: the case fails with the fault planted, and passes without it', async (name) => {
    const written = JSON.parse(readFileSync(join(CASES_DIR, `${name}.json`), 'utf8')) as Record<string, unknown>;
    expect(written.fault).toBe(name);
    const dir = scratchDir(`refsem-zoo-written-${name}-`);
    const file = (label: string, fault: string | undefined) => {
      const path = join(dir, `${label}.json`);
      const { fault: _planted, ...rest } = written;
      writeFileSync(path, JSON.stringify(fault ? { ...rest, fault } : rest));
      return path;
    };
    const planted = await replay(file('planted', name));
    expect(planted.result.status === 'fail' && planted.result.verdict).toBe(written.verdict);
    const sound = replay(file('sound', undefined));
    const rejects = REJECTED_WITHOUT_FAULT.get(name);
    if (rejects) await expect(sound).rejects.toThrow(rejects);
    else expect((await sound).result.status).toBe('pass');
  }, 120_000);
});
