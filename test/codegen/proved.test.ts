// [C-PROVED]: overflow checks that the value ranges rule out are dropped behind a proof evaluated
// at the entry of the outermost loop. The proved and the checked variants report what the
// reference does, on the examples and on generated programs, and the planted fault that skips the
// proof is caught. [C-FALLBACK-SCALAR]: in vector builds the checked variant has no vector code.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbTgtInput, arbTgtProgram } from '../../src/fuzz/arbitraries/tgt.js';
import { emitC } from '../../src/codegen/emit-c.js';
import { validateBatch } from '../../src/codegen/validate.js';
import { ranVariants, variantNames } from '../../src/codegen/variants.js';
import { HOST_ISA, input, tgt } from './support.js';

const scale = tgt(`pipeline f(k; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x * k + 1
}`);

/** A window, k in range; a product of 2^62; x · k reaching 2^63 from a window far from 0. */
const scaleInputs = [input([[-5, 11]], { k: 7 }), input([[0, 4]], { k: 2n ** 62n }), input([[2 ** 40, 3]], { k: 2 ** 23 })];

describe('[C-PROVED] overflow checks proved away', () => {
  it('a loop runs unchecked operations only behind a 64-bit range check evaluated at its entry', () => {
    const c = emitC(scale, { simd: 'none' });
    const m = /\[C-PROVED\] 2 operations[^\n]*\n\s*int (bad\d+) = 0;\n(?:\s*const rs_q q\d+ = [^\n]*;\n)*\s*const int (nv\d+) = rs_q_fits64\(.*!\1;\n\s*if \(\2\) \{([^]*)\} else \{([^]*)$/.exec(c);
    expect(m).not.toBeNull();
    const [proved, checked] = [m![3]!, m![4]!];
    expect(proved).toContain('rs_wmul(v_f_ds0_dx, v_k)');
    expect(proved).toMatch(/rs_wadd\(t\d+, INT64_C\(1\)\)/);
    expect(proved).not.toMatch(/rs_(mul|add)\(t\d+|rs_mul\(v_f/);
    expect(checked).toContain('rs_mul(v_f_ds0_dx, v_k)');
    expect(checked).toMatch(/rs_add\(t\d+, INT64_C\(1\)\)/);
  });

  it('reports what the reference does whether the proof holds or not, scalar and vector', async () => {
    const vec = tgt(`pipeline f(k; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x * k + 1
}`);
    const vs = await validateBatch(
      [
        { t: scale, inputs: scaleInputs, emit: { simd: 'none' } },
        { t: vec, inputs: scaleInputs, emit: { simd: HOST_ISA } },
      ],
      { backend: 'simd' },
    );
    for (const row of vs) expect(row.map((v) => v.kind)).toEqual(['equal', 'overflow', 'overflow']);
  });

  it('generated programs with proofs agree with the reference, scalar and vector, in range and overflowing', async () => {
    const progs = fc.sample(arbTgtProgram(), { seed: 17, numRuns: 60 }).filter((t) => emitC(t, { simd: 'none' }).includes('[C-PROVED]'));
    expect(progs.length).toBeGreaterThan(10);
    const small = fc.sample(arbTgtInput, { seed: 4, numRuns: 2 * progs.length });
    const big = (i: number) => [input([[-2, 4]], { n: 2n ** 62n + BigInt(i) }), input([[1, 3]], { n: 3037000500 }), input([[-1, 2]], { n: -(2n ** 63n) })];
    const items = progs.flatMap((t, i) =>
      (['none', HOST_ISA] as const).map((simd) => ({ t, inputs: [...small.slice(2 * i, 2 * i + 2), ...big(i)], emit: { simd } })),
    );
    const vs = await validateBatch(items, { backend: 'simd', checked: true, maxSteps: 100_000, runTimeoutMs: 5000 });
    expect(vs.flat().filter((v) => !v.ok)).toEqual([]);
    const kinds = new Set(vs.flat().map((v) => v.kind));
    expect(kinds).toContain('equal');
    expect(kinds).toContain('overflow');
  });

  it('the planted fault unprovenArithmetic (no proof) is caught, and absent without it', async () => {
    const vs = await validateBatch(
      [
        { t: scale, inputs: scaleInputs },
        { t: scale, inputs: scaleInputs, emit: { faults: { unprovenArithmetic: true } } },
      ],
      { backend: 'c' },
    );
    expect(vs[0]!.map((v) => v.ok)).toEqual([true, true, true]);
    // without the proof the overflowing inputs wrap instead of reporting the overflow
    expect(vs[1]!.map((v) => v.ok)).toEqual([true, false, false]);
  });
});

describe('[C-FALLBACK-SCALAR] the checked variant of a vector build runs scalar loops', () => {
  const vec = tgt(`pipeline f(k; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x * k + 1
}`);

  it('has vector chunks and a 32-bit decision in the proved variant only', () => {
    for (const isa of ['avx512', 'avx2', 'generic'] as const) {
      const c = emitC(vec, { simd: isa });
      const proved = c.slice(c.indexOf('f.s0.x proved */'), c.indexOf('f.s0.x checked */'));
      const checked = c.slice(c.indexOf('f.s0.x checked */'));
      expect(proved).toMatch(/C-VECTOR: \w+, \d+ lanes of int64/);
      expect(proved).toContain('[C-NARROW]');
      expect(checked).not.toContain('C-VECTOR');
      expect(checked).not.toContain('C-NARROW');
      expect(checked).toContain('rs_mul(v_f_ds0_dx, v_k)');
    }
  });

  it('an input whose ends leave ±2^62 runs the checked scalar loop and equals the reference', async () => {
    // x = 1 only: the value k + 1 fits, but the end k is beyond 2^62, so the proof fails
    const inputs = [input([[1, 1]], { k: 2n ** 62n + 5n }), input([[-3, 9]], { k: 5 })];
    const [vs] = await validateBatch([{ t: vec, inputs, emit: { simd: HOST_ISA } }], { backend: 'simd' });
    expect(vs!.map((v) => v.kind)).toEqual(['equal', 'equal']);
    const names = variantNames(emitC(vec, { simd: HOST_ISA }));
    expect(ranVariants(vs![0]!.ran!, names)).toContain(`${HOST_ISA}: f.s0.x checked`);
    expect(ranVariants(vs![1]!.ran!, names)).toContain(`${HOST_ISA}: f.s0.x proved`);
  });
});
