// [C-PIPELINE], [C-VECTOR], [C-DISPATCH], [C-PARALLEL], [C-UNROLL]: the examples and generated
// programs compiled by both backends agree with the reference on the window (or report a confirmed
// overflow); SIMD and scalar binaries agree with each other; the planted faults are detectable.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Expr } from '../../src/expr/ast.js';
import { arbExpr } from '../../src/fuzz/arbitraries/expr.js';
import { arbTgtInput, arbTgtProgram } from '../../src/fuzz/arbitraries/tgt.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { emitC } from '../../src/codegen/emit-c.js';
import { compileAndRun, type BinaryResult } from '../../src/codegen/toolchain.js';
import { type BackendVerdict, judgeBatch, validateBatch } from '../../src/codegen/validate.js';
import { HOST_ISA, input, tgt } from './support.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { completedTarget } from '../../src/codegen/hook.js';
import { parseSchedule } from '../../src/schedule/parse.js';

const blurText = readFileSync(join(__dirname, '..', '..', 'examples', 'blur.tgt'), 'utf8');
const blur = tgt(blurText, 'blur.tgt');
const blurVec = tgt(blurText.replace(/for (\w+)\.s0\.x/g, 'for vectorize $1.s0.x'), 'blurv.tgt');
const windows = [input([[0, 5], [0, 3]]), input([[-3, 17], [2, 4]]), input([[5, 1], [0, 1]]), input([[0, 64], [0, 8]]), input([[7, 0], [0, 3]])];

const allOk = (vs: BackendVerdict[][]) => vs.flat().filter((v) => !v.ok);

/**
 * Vector-friendly programs: an intermediate g computed from x and n, and an output f whose
 * vectorized loop reads g at shifted points (contiguous loads) and at computed points (gathers).
 */
const arbVectorProgram: fc.Arbitrary<TgtProgram> = fc
  .record({
    g: arbExpr({ vars: ['g.s0.x', 'n'], depth: 3 }),
    f: arbExpr({ vars: ['f.s0.x', 'n', 'a', 'b', 'c'], depth: 3 }),
    shift: fc.integer({ min: -3, max: 3 }),
    gather: arbExpr({ vars: ['f.s0.x'], depth: 2 }),
  })
  .map(({ g, f, shift, gather }) => {
    const show = (e: Expr) => printE(e);
    return tgt(`pipeline f(n; x in (x.min, x.len)):
{
  allocate g(x in (x.min - 8, x.len + 16));
  for g.s0.x in (x.min - 8, x.len + 16) do g[g.s0.x] <- ${show(g)};
  allocate f(x in (x.min, x.len));
  for vectorize f.s0.x in (x.min, x.len) do
    let a = g[f.s0.x + ${shift}] in let b = g[f.s0.x] in let c = g[x.min + (${show(gather)}) % (x.len + 16) - 8] in
    f[f.s0.x] <- (${show(f)}) * n + a
}`);
  });

import { printExpr } from '../../src/expr/print.js';
const printE = (e: Expr) => printExpr(e, 'tgt');

describe('the blur example', () => {
  it('emits one C function with restrict buffers and rule comments', () => {
    const c = emitC(blur, { simd: 'none' });
    expect(c).toMatch(/void refsem_blur\(const int64_t \*params, const int64_t \*window, refsem_result \*res\)/);
    expect(c).toMatch(/int32_t \*restrict D_bx/); // [C-STORAGE]: a sum of three small inputs
    expect(c).toContain('[C-PARALLEL]');
    expect(c).not.toContain('immintrin');
    const v = emitC(blurVec, { simd: 'auto' });
    expect(v).toContain('_mm512_loadu_si512');
    expect(v).toContain('[C-DISPATCH]');
  });

  it('equals the reference with every backend and instruction set, and SIMD equals scalar', async () => {
    // auto is AVX-512 on a CPU that has it, AVX2 otherwise.
    const modes = ['none', 'auto', 'avx2', 'generic'] as const;
    const vs = await validateBatch(
      modes.map((simd) => ({ t: blurVec, inputs: windows, emit: { simd } })),
      { backend: 'simd', checked: true },
    );
    expect(allOk(vs)).toEqual([]);
    expect(vs.flat().every((v) => v.kind === 'equal')).toBe(true);
  });
});

describe('generated programs', () => {
  it('vectorized loops: SIMD and scalar agree with the reference and with each other', async () => {
    const progs = fc.sample(arbVectorProgram, { seed: 5, numRuns: 10 });
    const ins = (i: number) => [input([[i % 5, 9 + (i % 7)]], { n: i * 3 - 20 }), input([[-4, 13]], { n: 2n ** 62n + BigInt(i) }), input([[1, 3]], { n: 7 })];
    const items = progs.flatMap((t, i) => (['none', HOST_ISA, 'generic'] as const).map((simd) => ({ t, inputs: ins(i), emit: { simd } })));
    const res = await compileAndRun(items);
    const vs = judgeBatch(items, res, 200_000);
    expect(allOk(vs)).toEqual([]);
    // Scalar, AVX-512 and portable vector binaries give the same results, status by status.
    const out = (k: number) => res.filter((r) => r.program === k).map((r) => (r.kind === 'ran' ? [r.status, r.output] : r.kind));
    for (let k = 0; k < items.length; k += 3) {
      expect(out(k + 1)).toEqual(out(k));
      expect(out(k + 2)).toEqual(out(k));
    }
    expect(vs.flat().filter((v) => v.kind === 'equal').length).toBeGreaterThan(25);
    expect(vs.flat().some((v) => v.kind === 'overflow')).toBe(true);
  });

  it('arbitrary completed programs reach every status and agree with the reference (checked builds)', async () => {
    const progs = fc.sample(arbTgtProgram(), { seed: 42, numRuns: 70 });
    const inputs = fc.sample(arbTgtInput, { seed: 7, numRuns: 210 });
    const items = progs.map((t, i) => ({ t, inputs: inputs.slice(3 * i, 3 * i + 3) }));
    const vs = await validateBatch(items, { backend: 'simd', simd: HOST_ISA, checked: true, maxSteps: 100_000, runTimeoutMs: 5000 });
    expect(allOk(vs)).toEqual([]);
    const kinds = new Set(vs.flat().map((v) => (v.kind === 'stuck' ? v.binary : v.kind)));
    for (const k of ['equal', 'assert', 'negativeExtent', 'oobRead', 'oobWrite', 'errorInControl', 'unallocated']) expect(kinds, k).toContain(k);
  });
});

describe('planted faults', () => {
  const negative = [input([[-7, 9], [-5, 4]])];
  const big = tgt(`pipeline f(n; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- n * f.s0.x }`);
  const wide = [input([[0, 11]], { n: 2 ** 33 })];

  it('each fault is caught by comparing with the reference, and absent without it', async () => {
    const cases: [object, TgtProgram, ReturnType<typeof input>[], boolean][] = [
      [{}, blurVec, windows, false],
      [{ truncatingDiv: true }, blur, negative, true],
      [{ dropVectorTail: true }, blurVec, windows, true],
      [{ laneOrder: true }, blurVec, windows, true],
      [{}, big, wide, false],
      [{ unprovenNarrowing: true }, big, wide, true],
    ];
    const vs = await validateBatch(cases.map(([faults, t, inputs]) => ({ t, inputs, emit: { faults } })), { backend: 'simd' });
    expect(vs.map((row) => row.some((v) => !v.ok))).toEqual(cases.map((c) => c[3]));
  });
});

describe('32-bit lanes', () => {
  const scale = tgt(`pipeline f(k; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x * k + 1 }`);
  const ins = [input([[0, 21]], { k: 1000 }), input([[0, 21]], { k: 2 ** 30 }), input([[2 ** 31 - 9, 20]], { k: 1 }), input([[-40, 21]], { k: -(2 ** 26) })];

  it('are taken only when the lanes\' value ranges, evaluated at loop entry, fit in 32 bits', async () => {
    const c = emitC(blurVec, { simd: 'avx512' });
    expect(c).toContain('8 lanes of int32');
    expect(c).toContain('rs_q_fits32(');
    const vs = await validateBatch(
      [
        { t: scale, inputs: ins },
        { t: scale, inputs: ins, emit: { faults: { unprovenNarrowing: true } } },
      ],
      { backend: 'simd', simd: HOST_ISA },
    );
    // With the proof every input is right; without it, exactly the inputs whose values leave 32
    // bits go wrong.
    expect(vs[0]!.map((v) => v.kind)).toEqual(['equal', 'equal', 'equal', 'equal']);
    expect(vs[1]!.map((v) => v.ok)).toEqual([true, false, false, false]);
  });
});

describe('products by a constant in 64-bit lanes', () => {
  // The factor is read from g, whose scan leaves every point as it was (g[x] = x) but whose range
  // [C-RECURRENCE] cannot bound: the product keeps its check in vector lanes ([C-PROVED] cannot
  // prove it, and a failed proof's checked variant has no vector code, [C-FALLBACK-SCALAR]).
  const triple = tgt(`pipeline f(; x in (x.min, x.len)):
{
  allocate g(x in (x.min, x.len));
  for g.s0.x in (x.min, x.len) do g[g.s0.x] <- g.s0.x;
  for g.s1.x in (x.min + 1, x.len - 1) do g[g.s1.x] <- g[g.s1.x - 1] * 0 + g[g.s1.x];
  allocate f(x in (x.min, x.len));
  for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- 3 * g[f.s0.x]
}`);
  const edge = 3074457345618258602n; // INT64_MAX / 3: the largest x whose triple fits, and -edge the smallest

  it('are exact up to the last factor that fits, and the next one is the confirmed overflow', async () => {
    expect(emitC(triple, { simd: 'avx2' })).toMatch(/rs256_mulk\(vr\d+, INT64_C\(3\), &an\)/);
    const ins = [input([[edge - 11n, 12n]]), input([[edge - 11n, 13n]]), input([[-edge, 12n]]), input([[-edge - 1n, 12n]])];
    const vs = await validateBatch(
      (['none', HOST_ISA, 'generic'] as const).map((simd) => ({ t: triple, inputs: ins, emit: { simd } })),
      { backend: 'simd' },
    );
    for (const row of vs) expect(row.map((v) => v.kind)).toEqual(['equal', 'overflow', 'equal', 'overflow']);
  });
});

describe('unroll', () => {
  it('a constant-extent unroll loop becomes copies of its body and keeps its meaning', async () => {
    const t = tgt(`pipeline f(; x in (x.min, x.len)): { allocate f(x in (x.min, 4)); for unroll f.s0.x in (x.min, 4) do f[f.s0.x] <- f.s0.x * f.s0.x }`);
    const c = emitC(t, { simd: 'none' });
    // four copies in each variant of [C-PROVED] (x * x is proved not to overflow when x.min fits 2^31)
    expect(c.match(/\[C-STORE\]/g)).toHaveLength(8);
    const vs = await validateBatch([{ t, inputs: [input([[-2, 4]]), input([[5, 2]])] }], { backend: 'c' });
    expect(vs[0]!.map((v) => v.kind)).toEqual(['equal', 'equal']);
  });
});

describe('runs', () => {
  it('a crashing run ends only its own result; the batch goes on', async () => {
    const wild = tgt(`pipeline f(n; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); f[x.min + n] <- 1 }`);
    const ok = tgt(`pipeline f(n; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); f[x.min] <- n }`);
    const res = await compileAndRun([
      { t: ok, inputs: [input([[0, 1]], { n: 1 })] },
      { t: wild, inputs: [input([[0, 1]], { n: 2 ** 50 }), input([[0, 1]], { n: 0 })] },
      { t: ok, inputs: [input([[0, 1]], { n: 3 })] },
    ]);
    const kinds = res.map((r: BinaryResult) => r.kind);
    expect(kinds).toEqual(['ran', 'crashed', 'ran', 'ran']);
    expect(res[3]!.kind === 'ran' && res[3]!.output?.window).toEqual([3]);
  });

  it('a run over its time limit is a timeout; the next run still happens', async () => {
    const slow = tgt(`pipeline f(n; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); f[x.min] <- 0; for i in (0, n) do f[x.min] <- f[x.min] + i % 7 }`);
    const res = await compileAndRun([{ t: slow, inputs: [input([[0, 1]], { n: 2 ** 50 }), input([[0, 1]], { n: 3 })] }], { runTimeoutMs: 400 });
    expect(res.map((r) => r.kind)).toEqual(['timeout', 'ran']);
    expect(res[1]!.kind === 'ran' && res[1]!.output?.window).toEqual([3]);
  });
});

describe('regressions found by the backend campaigns', () => {
  it('a vector read leaves no lane vector unset (GCC 12 stopped with an internal error on the portable code)', async () => {
    const p = loadPipeline(`pipeline f1(n, m) {
  func f0(x) = -2147483649;
  func f1(x, y) {
    n;
    rdom(r = (1, m + 2)) in (min(max(f0(-31) % -2, 0), 7), y) <- r;
    rdom(r = (n, 2), s = (m + 1, 1)) in (x, y) <- f0(2 < 1099511627777) - f0(2 < 1099511627777);
  }
}
`, 'ice.alg');
    const schedule = parseSchedule('split f1.s1.r by 5 tail guard\nvectorize f1.s1.ri\nfuse f1.s0.y into yx\n', 'ice.sched');
    const t = completedTarget({ program: p, schedule, inputs: [] });
    const inputs = [input([[0, 17], [0, 4]], { n: 4, m: 3 })];
    const vs = await validateBatch((['generic', HOST_ISA] as const).map((simd) => ({ t, inputs, emit: { simd } })), { backend: 'simd' });
    expect(vs.flat().map((v) => v.kind)).toEqual(['equal', 'equal']);
  }, 120_000);
});
