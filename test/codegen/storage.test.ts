// [C-STORAGE]: a func whose value range lies between constants inside int32 keeps 32-bit payloads,
// the output and every other func 64-bit ones; reads and writes of 32-bit payloads — contiguous,
// gathered, scattered, by 32-bit and by 64-bit lanes, of values at both ends of int32 and of
// unwritten points — give what the reference gives; and the planted fault that skips the range
// test is caught.
import { describe, expect, it } from 'vitest';
import { emitC } from '../../src/codegen/emit-c.js';
import { funcRanges } from '../../src/codegen/ranges.js';
import { payloadBits } from '../../src/codegen/storage.js';
import { validateBatch } from '../../src/codegen/validate.js';
import { HOST_ISA, agreeEverywhere, bad, input, tgt } from './support.js';

/**
 * f holds both ends of int32 at its even points and small negatives at its odd ones (scattered);
 * g reads f's pairs (gathered) and needs 64 bits; h is small and read with 32-bit lanes; e leaves
 * its last point unwritten; out mixes them with a parameter, so its lanes are 64-bit.
 */
const mixed = tgt(`pipeline out(k; x in (x.min, x.len)):
{
  allocate f(x in (2 * x.min, 2 * x.len));
  for vectorize f.s0.x in (x.min, x.len) do f[2 * f.s0.x] <- f.s0.x % 2 * 4294967295 - 2147483648;
  for vectorize f.s1.x in (x.min, x.len) do f[2 * f.s1.x + 1] <- 0 - f.s1.x % 7;
  allocate g(x in (x.min, x.len));
  for vectorize g.s0.x in (x.min, x.len) do g[g.s0.x] <- f[2 * g.s0.x] + f[2 * g.s0.x + 1];
  allocate h(x in (x.min, x.len));
  for vectorize h.s0.x in (x.min, x.len) do h[h.s0.x] <- f[h.s0.x + x.min] % 1000 - 500;
  allocate e(x in (x.min, x.len + 1));
  for vectorize e.s0.x in (x.min, x.len) do e[e.s0.x] <- h[e.s0.x] * 3;
  allocate out(x in (x.min, x.len));
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- g[out.s0.x] * k + f[out.s0.x + x.min] + h[out.s0.x] + e[out.s0.x + 1]
}`, 'storage-mixed.tgt');

/** g's values need 41 bits; the output adds one. */
const wide = tgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate g(x in (x.min, x.len));
  for vectorize g.s0.x in (x.min, x.len) do g[g.s0.x] <- g.s0.x % 4 * 1099511627776;
  allocate out(x in (x.min, x.len));
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- g[out.s0.x] + 1
}`, 'storage-wide.tgt');

describe('[C-STORAGE] 32-bit payloads where the ranges prove them', () => {
  it('takes 32 bits for funcs whose range has constant ends inside int32, never for the output or unbounded ones', () => {
    const bits = payloadBits(mixed, ['f', 'g', 'h', 'e', 'out'], funcRanges(mixed));
    expect(Object.fromEntries(bits)).toEqual({ f: 32, g: 64, h: 32, e: 32, out: 64 });
    expect(payloadBits(wide, ['g', 'out'], funcRanges(wide)).get('g')).toBe(64);
    // the planted fault skips the test, but not for the output, whose block the caller takes as int64
    expect(Object.fromEntries(payloadBits(wide, ['g', 'out'], funcRanges(wide), true))).toEqual({ g: 32, out: 64 });
  });

  it('declares, allocates and stores 32-bit payloads in scalar and vector code', () => {
    for (const simd of ['none', 'avx512'] as const) {
      const c = emitC(mixed, { simd });
      expect(c).toContain('int32_t *restrict D_f = NULL;');
      expect(c).toContain('int64_t *restrict D_g = NULL;');
      expect(c).toContain('int64_t *restrict D_out = NULL;');
      expect(c).toMatch(/rs_allocate\(&rsb_\w+\[\d\], "f", 1, am\d+, al\d+, sizeof\(int32_t\)\);/);
      expect(c).toMatch(/D_f\[o\d+\] = \(int32_t\)/);
    }
    const v = emitC(mixed, { simd: 'avx512' });
    expect(v).toMatch(/rs512_scatter32\(D_f, /);
    expect(v).toMatch(/rs512_gather32\(D_f, /);
    // h's lanes are 32-bit when the proof holds: its payloads load without a conversion
    expect(v).toMatch(/= ok\d+ \? rs512_load32\(D_h \+ vo\d+\) : \(rs_h8\)\{0\};/);
    // out's lanes are 64-bit: f's payloads are widened after loading
    expect(v).toMatch(/rs512h_widen\(ok\d+ \? rs512_load32\(D_f \+ vo\d+\) : \(rs_h8\)\{0\}\)/);
  });

  it('reads and writes what the reference does, at both ends of int32 and at unwritten points', async () => {
    const windows = [input([[0, 19]], { k: 3 }), input([[-7, 12]], { k: -5 }), input([[5, 1]], { k: 2 }), input([[0, 0]], { k: 1 })];
    const vs = await agreeEverywhere(mixed, windows);
    expect(bad(vs)).toEqual([]);
    // the last point of out reads e's unwritten point: an error the binary reports too
    expect(vs.flat().filter((v) => v.kind === 'equal').length).toBe(vs.flat().length);
  });

  it('is a planted fault without the range test, caught by values beyond 2^31', async () => {
    const z = [input([[0, 16]])];
    const [faulty] = await validateBatch([{ t: wide, inputs: z, emit: { simd: HOST_ISA, faults: { unprovenStorage: true } } }], { backend: 'simd' });
    expect(faulty!.map((v) => v.kind)).toEqual(['differs']);
    const [sound] = await validateBatch([{ t: wide, inputs: z, emit: { simd: HOST_ISA } }], { backend: 'simd' });
    expect(sound!.map((v) => v.kind)).toEqual(['equal']);
  });
});
