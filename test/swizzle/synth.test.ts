// Synthesis: the benchmarks small enough for the test suite are solved with the seed's counts; the
// pruning is sound on random sketches and the planted unsound test is caught; the matrices'
// memory limit is a message (spec/swizzle.md).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostIsas } from '../../src/codegen/cpu.js';
import { compileStandalone } from '../../src/codegen/toolchain.js';
import { expectedValues, lowerToC } from '../../src/swizzle/lower.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { DEFAULT_CONFIG, baseEnv } from '../../src/fuzz/env.js';
import { swizzlePrune } from '../../src/fuzz/properties/swizzle.js';
import { evaluate, goalMismatch } from '../../src/swizzle/eval.js';
import { parseSwizzle } from '../../src/swizzle/parse.js';
import { summarize } from '../../src/swizzle/report.js';
import { synthesize } from '../../src/swizzle/synth.js';
import { runCli } from '../support/cli.js';

const example = (name: string) => parseSwizzle(readFileSync(`examples/swizzle/${name}.swz`, 'utf8'), name);

describe('[SWZ-SEARCH] [SWZ-PAIRS] [SWZ-COPIES] [SWZ-MATRIX] [SWZ-ORACLE] benchmarks', () => {
  it.each(['stencil2d-3', 'ffm-4'])('%s: every solution found and re-checked, at least 99 percent pruned', (name) => {
    const p = example(name);
    const r = synthesize(p, { all: true });
    const s = summarize(p, r);
    expect(r.complete).toBe(true);
    expect(r.solutions.length).toBeGreaterThan(0);
    for (const f of r.solutions) expect(goalMismatch(p, evaluate(p, f))).toBe(-1);
    expect(s.rechecked).toBe(true);
    expect(s.pruned).toBeGreaterThan(0.99);
    expect(r.states).toBeGreaterThanOrEqual(r.oracle!);
    expect(r.kept).toBeGreaterThanOrEqual(r.oracleKept!);
  });

  it('stencil2d-3 builds no more states than the oracle (ineffectiveness 1.0, as the seed reports for its 3×3 stencil)', () => {
    const p = example('stencil2d-3');
    const s = summarize(p, synthesize(p, { all: true }));
    expect(s.ineffectiveness).toBe(1);
    expect(s.keptRatio).toBe(1);
  });

  it('the oracle builds every choice of each solution prefix; states after the last hole are not kept', () => {
    // two holes of 2 choices each (identity, swap), two solutions (swap once, either hole): the
    // oracle builds 2 at the first hole and 2 under each of the 2 solution prefixes
    const src = 'x: [2] = [a, b]\nh1: [2] = ?rots{main=0, second=0, out=0}(x)\nh2: [2] = ?rots{main=0, second=0, out=0}(h1)\ngoal h2 = [b, a]\n';
    const p = parseSwizzle(src, 't');
    const r = synthesize(p, { all: true });
    expect(r.solutions.length).toBe(2);
    expect(r.oracle).toBe(2 + 2 * 2);
    expect(r.oracleKept).toBe(2);
    expect(r.states).toBe(6);
    expect(r.kept).toBe(2);
  });

  it('the copy-count test prunes what pairs cannot: more copies of a than the goal holds (Listing 9)', () => {
    const src = 'x: [2] = [a, b]\nd: [2, 2] = broadcast(x)\nh: [2, 2] = ?cond_keep{consts=[0]}(d)\ns: [2] = fold h\ngoal s = [{a}, {b}]\n';
    const p = parseSwizzle(src, 't');
    const both = synthesize(p, { all: true });
    const pairsOnly = synthesize(p, { all: true, prune: { pairs: true, copies: false } });
    expect(both.solutions).toEqual(pairsOnly.solutions);
    expect(both.solutions.length).toBeGreaterThan(0);
    expect(both.prunedBy.copies).toBeGreaterThan(0);
    expect(pairsOnly.states).toBe(both.states);
    expect(pairsOnly.prunedBy.copies).toBe(0);
    expect(pairsOnly.prunedBy.pairs).toBeLessThan(both.prunedBy.pairs + both.prunedBy.copies);
  });

  it('[SWZ-UNIVERSE] a symbol a later literal brings again is not required before it (the seed\'s §4 caveat)', () => {
    // y's x0 is a second copy of x's: requiring it after h, where f may have replaced it by 0, would
    // reject the solution
    const src = 'x: [2] = [x0, x1]\nh: [2] = ?cond_keep{consts=[0]}(x)\ny: [2] = [x0, c]\ns: [2, 2] = stack(h, y)\ngoal s = [[0, x0], [x1, c]]\n';
    const p = parseSwizzle(src, 't');
    expect(synthesize(p, { all: true }).solutions).toEqual(synthesize(p, { all: true, prune: { pairs: false, copies: false } }).solutions);
    expect(synthesize(p, { all: true }).solutions.length).toBeGreaterThan(0);
  });

  it('without a goal, synthesis is a located error', () => {
    expect(() => synthesize(parseSwizzle('x: [2] = [a, b]\n', 't'))).toThrow(UserError);
  });

  it('matrices above the memory limit stop synthesis with a message, not a crash', () => {
    expect(() => synthesize(example('stencil2d-3'), { memoryMb: 1 })).toThrow(/reachability matrices need \d+ MB, above the limit of 1 MB/);
  });
});

describe('[SWZ-PRUNE-SOUND] the swizzle-prune property', () => {
  const env = baseEnv(DEFAULT_CONFIG);
  it('holds on 100 random sketches', () => {
    for (let seed = 0; seed < 100; seed++) {
      const c = swizzlePrune.concretize(seed, env);
      expect(swizzlePrune.check(c, env), c.text).toEqual({ status: 'pass' });
    }
  });

  it('catches the planted single-cell test', () => {
    const planted = { ...env, swizzleFault: 'single-goal-cell' as const };
    let found = -1;
    for (let seed = 0; seed < 200 && found < 0; seed++) if (swizzlePrune.check(swizzlePrune.concretize(seed, planted), planted).status === 'fail') found = seed;
    expect(found).toBeGreaterThanOrEqual(0);
  });

  it('a case round-trips through its text', () => {
    const c = swizzlePrune.concretize(7, env);
    expect(swizzlePrune.decode(swizzlePrune.encode(c), env)).toEqual(c);
  });
});

describe('[SWZ-LOWER] lowering through the intrinsic table', () => {
  const p = example('stencil2d-3-solved');
  const sym = new Map<number, number>();
  for (let t = 2; t < p.terms.size; t++) if (!p.terms.isFold(t)) sym.set(t, (t * 2654435761) | 0);
  // the same program with the y rotation dropped computes other sums
  const q = parseSwizzle(readFileSync('examples/swizzle/stencil2d-3-solved.swz', 'utf8').replace(/xform\{main=1[^}]*\}/, 'id'), 'q');

  it('the table\'s machine runs the lowered program as the evaluator does; a wrong program is caught', () => {
    const l = lowerToC(p, [], sym);
    expect(l.interpreted).toEqual(expectedValues(p, [], sym));
    expect(l.calls.get('_mm256_permutevar8x32_epi32')).toBeGreaterThan(0);
    expect(lowerToC(q, [], sym).interpreted).not.toEqual(expectedValues(p, [], sym));
  });

  it('an HVX valign becomes one valignd with AVX-512', () => {
    const h = parseSwizzle('r: [2, 8] = [[a0, a1, a2, a3, a4, a5, a6, a7], [b0, b1, b2, b3, b4, b5, b6, b7]]\no: [3, 8] = valign{a=1, b=0, s=3}(r)\ngoal o = [[a0, a1, a2, a3, a4, a5, a6, a7], [b0, b1, b2, b3, b4, b5, b6, b7], [a3, a4, a5, a6, a7, b0, b1, b2]]\n', 'h');
    const hs = new Map<number, number>();
    for (let t = 2; t < h.terms.size; t++) hs.set(t, t * 7);
    const l = lowerToC(h, [], hs, { avx512: true });
    expect(l.calls.get('_mm256_alignr_epi32')).toBe(1);
    expect(l.interpreted).toEqual(expectedValues(h, [], hs));
  });

  it.runIf(hostIsas().has('avx2'))('the emitted C of a solution equals the evaluator; a wrong program is caught', async () => {
    expect(await runC(lowerToC(p, [], sym).source)).toEqual(expectedValues(p, [], sym));
    expect(await runC(lowerToC(q, [], sym).source)).not.toEqual(expectedValues(p, [], sym));
  });
});

async function runC(source: string): Promise<number[]> {
  const bin = await compileStandalone(source);
  if ('error' in bin) throw new Error(bin.error);
  try {
    return execFileSync(bin.bin, { encoding: 'utf8' }).trim().split('\n').map(Number);
  } finally {
    bin.done();
  }
}

describe('refsem swizzle', () => {
  it('run, check and synth; a sketch cannot be run; a missed goal exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swz-'));
    const sketch = join(dir, 'swap.swz');
    writeFileSync(sketch, 'x: [4] = iota(x, 4)\npairs: [2, 2] = reshape(x)\nmoved: [2, 2] = ?rots{main=1, second=0, out=1}(pairs)\ngoal moved = [[x1, x0], [x3, x2]]\n');
    const synth = await runCli(['swizzle', 'synth', sketch, '--json']);
    expect(synth.code).toBe(0);
    const out = JSON.parse(synth.stdout) as { solved: boolean; rechecked: boolean; solutions: string[] };
    expect(out.solved && out.rechecked).toBe(true);
    const filled = join(dir, 'filled.swz');
    writeFileSync(filled, out.solutions[0]!);
    expect((await runCli(['swizzle', 'check', filled])).code).toBe(0);
    writeFileSync(filled, out.solutions[0]!.replace('shift=-1', 'shift=0'));
    const wrong = await runCli(['swizzle', 'check', filled]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/goal not met: moved\[0, 0\] is x0, the goal wants x1/);
    const run = await runCli(['swizzle', 'run', sketch]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/swap.swz:3:1: error: 'moved' is a hole/);
    expect((await runCli(['swizzle', 'synth', sketch, '--timeout', 'soon'])).code).toBe(2);
  });
});
