// Regression: shrunk reproducers kept constant subexpressions. A campaign's race-free failure read
// `f0(x, y) = (0 + x * 3 + y * 7) % 17 - 8` and `f0(x, y) * 1 + f0(x, y) - 0`, and `refsem reduce`
// left `f0(0 + 0, y)` untouched (it never looks inside call indices). The algorithm of a shrunk
// case is now folded with the simplifier (domain `values`), and the folded case is kept only when
// it fails the same way.
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePipeline } from '../../src/alg-semantics/parse.js';
import { printPipeline } from '../../src/alg-semantics/print.js';
import { runCheck } from '../../src/fuzz/check.js';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { foldPipeline } from '../../src/fuzz/fold.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';
import type { CaseText, Property } from '../../src/fuzz/property.js';
import { reduceCase } from '../../src/fuzz/reduce.js';
import { checkSeed } from '../../src/fuzz/seed.js';
import { emptyStats } from '../../src/fuzz/stats.js';
import { runCli } from '../support/cli.js';
import { examplesDir, scratch } from '../support/files.js';

const PARALLEL = join(examplesDir, 'directives', 'unsound-parallel.mjs');
/** A race that needs the read of f0 at a constant index: replacing the read by 0 removes it. */
const RACE = `pipeline f0() {
  func f0(x, y) {
    x + y;
    rdom(r = (0, 3)) in (r, y) <- f0(0 + 0, y) + 1;
  }
}
`;
const RACE_CASE: CaseText = { program: RACE, schedule: 'parallel-any f0.s1.r', input: { window: [['0', '3'], ['0', '2']], params: {} } };

/**
 * A property that fails on every program, with a verdict that says whether the program still
 * contains `0 + 0`: folding it away would change the failure, so the unfolded case must stay.
 */
const zeroPlusZero: Property<string, string> = {
  name: 'zero-plus-zero',
  summary: 'fails on every program, with a verdict that depends on the text',
  arbitrary: () => fc.constant(RACE),
  concretize: (g) => g,
  check: (c) => ({ status: 'fail', verdict: c.includes('0 + 0') ? 'with-zero' : 'folded', expected: '', actual: '' }),
  encode: (c) => ({ program: c }),
  decode: (t) => t.program ?? '',
  shape: () => '',
};

describe('shrunk cases have their constants folded', () => {
  it('folds every expression of an algorithm: right-hand sides, call indices, update coordinates, rdom bounds, conditions', () => {
    const p = parsePipeline('pipeline g() {\n  func g(x) {\n    x * 1;\n    rdom(r = (0 + 1, 2 * 3)) in (r + 0) <- g(0 + 0) - 0 if 1 + 1;\n  }\n}\n', 'fold.alg');
    expect(printPipeline(foldPipeline(p))).toBe('pipeline g() {\n  func g(x) {\n    x;\n    rdom(r = (1, 6)) in (r) <- g(0) if 2;\n  }\n}\n');
  });

  it('a campaign race-free failure no longer shows `0 + x * 3`, `* 1` or `- 0` in its reproducer', async () => {
    const env = await makeEnv({ ...DEFAULT_CONFIG, directives: [PARALLEL] });
    const found = runCheck(propertyNamed('race-free'), env, 1, checkSeed(1, 1), emptyStats());
    expect(found?.failure.verdict).toBe('data-race');
    const program = found!.text.program!;
    expect(program).toContain('func f0(x, y) = (x * 3 + y * 7) % 17 - 8;');
    expect(program).not.toMatch(/\b0 \+ |\* 1\b|- 0\b/);
  }, 120_000);

  it('refsem reduce turns `f0(0 + 0, y)` into `f0(0, y)`, still racing', async () => {
    const env = await makeEnv({ ...DEFAULT_CONFIG, directives: [PARALLEL] });
    const r = await reduceCase(propertyNamed('race-free'), RACE_CASE, env);
    expect(r.verdict).toBe('data-race');
    expect(r.text.program).toContain('<- f0(0, y);');
    const { dir, file } = scratch('refsem-fold-');
    const cli = await runCli(['reduce', file('race.alg', RACE), '--schedule', file('race.sched', 'parallel-any f0.s1.r\n'), '--directive', PARALLEL, '--window=0+3,0+2', '--property', 'race-free', '--out', join(dir, 'out')]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('rdom(r = (0, 3)) in (r, y) <- f0(0, y);');
  }, 120_000);

  it('keeps the unfolded case when folding changes the verdict, in a campaign and in reduce', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    const found = runCheck(zeroPlusZero, env, 0, 1, emptyStats());
    expect(found?.failure.verdict).toBe('with-zero');
    expect(found?.text.program).toContain('f0(0 + 0, y)');
    const r = await reduceCase(zeroPlusZero, { program: RACE }, env);
    expect(r.verdict).toBe('with-zero');
    expect(r.text.program).toContain('0 + 0');
  });
});
