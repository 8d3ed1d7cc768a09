// `refsem reduce` and `replay --extract/--trace`: a user's failing case shrinks to a small one that
// fails with the same verdict, and a reproducer becomes ordinary files or a trace of T0 … Tn.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';
import { reduceCase } from '../../src/fuzz/reduce.js';
import { runCli } from '../support/cli.js';
import { scratchDir } from '../support/files.js';

const SWAP = join(__dirname, '..', '..', 'examples', 'directives', 'unsound-swap-reduction.mjs');
const BIG = `pipeline h() {
  func f(x) = x * 3 + 1;
  func g(x) = f(x - 1) + f(x) * 2 + f(x + 1);
  func acc(x) {
    g(x);
    rdom(r = (0, 3), s = (0, 2)) in (x) <- acc(x) * 2 + g(x + r) - s;
  }
  func h(x) = acc(x) + g(x) * 5 - 7;
}
`;
const SCHED = 'split h.x by 2\nswap-any acc.s1.s\ncompute-at acc at h.s0.xo\n';

describe('reduce', () => {
  it('keeps the verdict while it shrinks program, schedule and window', async () => {
    const env = await makeEnv({ ...DEFAULT_CONFIG, directives: [SWAP] });
    const r = await reduceCase(propertyNamed('confluence'), { program: BIG, schedule: SCHED, input: { window: [['0', '6']], params: {} } }, env);
    expect(r.verdict).toBe('differs');
    expect(r.reduced.scheduleCalls).toBe(1);
    expect(r.text.schedule).toBe('swap-any acc.s1.s');
    expect(r.reduced.points).toBe(1n);
    expect(r.reduced.programChars).toBeLessThan(r.original.programChars);
  }, 120_000);

  it('through the CLI: writes reduced.alg and reduced.sched, which still fail', async () => {
    const dir = scratchDir('refsem-reduce-');
    writeFileSync(join(dir, 'big.alg'), BIG);
    writeFileSync(join(dir, 'big.sched'), SCHED);
    const out = join(dir, 'out');
    const r = await runCli(['reduce', join(dir, 'big.alg'), '--schedule', join(dir, 'big.sched'), '--directive', SWAP, '--window=0+6', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/confluence fails with differs; reduced in \d+ steps/);
    const again = await runCli(['exec', join(out, 'reduced.alg'), '--schedule', join(out, 'reduced.sched'), '--directive', SWAP, '--window=0+1', '--compare']);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/VERDICT-DIFFERS/);
  }, 120_000);

  it('refuses a case that passes, and a property without a program, with exit 2', async () => {
    const dir = scratchDir('refsem-reduce-');
    writeFileSync(join(dir, 'big.alg'), BIG);
    const passes = await runCli(['reduce', join(dir, 'big.alg'), '--window=0+4', '--out', join(dir, 'o')]);
    expect(passes.code).toBe(2);
    expect(passes.stderr).toMatch(/nothing to reduce: the case passes property confluence/);
    const perceus = await runCli(['reduce', join(dir, 'big.alg'), '--window=0+4', '--property', 'perceus']);
    expect(perceus.code).toBe(2);
    expect(perceus.stderr).toMatch(/has no program, schedule and input to reduce/);
  });
});

describe('replay --extract and --trace', () => {
  it('turns a reproducer into files and a run.sh that shows the failure, and traces the verdict directive by directive', async () => {
    const dir = scratchDir('refsem-extract-');
    const out = join(dir, 'out');
    const r = await runCli(['check-directive', SWAP, '--runs', '300', '--seed', '1', '--out', out]);
    expect(r.code).toBe(1);
    const file = /reproducer: (\S+)/.exec(r.stdout)![1]!;
    const ex = join(dir, 'case');
    const x = await runCli(['replay', file, '--extract', ex]);
    expect(x.code).toBe(0);
    for (const f of ['case.alg', 'case.sched', 'run.sh', 'reproducer.json', 'modules/unsound-swap-reduction.mjs']) expect(existsSync(join(ex, f)), f).toBe(true);
    expect(readFileSync(join(ex, 'run.sh'), 'utf8')).toMatch(/exec case\.alg --schedule case\.sched --window=\S+ .*--directive modules\/unsound-swap-reduction\.mjs --engine beta0 --compare/);
    const sh = spawnSync('sh', [join(ex, 'run.sh')], { encoding: 'utf8' });
    expect(sh.status).toBe(1);
    const t = await runCli(['replay', file, '--trace']);
    expect(t.stdout).toMatch(/── T0 \(lowered\): pass/);
    expect(t.stdout).toMatch(/the verdict changes after directive \d+ \(swap-any\): pass → /);
    expect(t.code).toBe(1);
  }, 300_000);
});
