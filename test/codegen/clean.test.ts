// [C-CLEAN] and [C-VECTOR-UPDATE]: tag-free nests are taken only when every buffer they read holds
// integers, and error values written later are still seen; updates of one point run lane-wise and
// leave exactly what the serial loop leaves, failures included (spec/codegen.md).
import { describe, expect, it } from 'vitest';
import { emitC } from '../../src/codegen/emit-c.js';
import { HOST_ISA, agreeEverywhere, bad, input, tgt } from './support.js';

/**
 * f is allocated wider than its pure stage writes; a later stage writes err.mem into f (read from
 * h, which nothing writes) after g has read f while it was all integers; out then reads f.
 */
const errorAfterClean = tgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x * 3;
  allocate g(x in (x.min, x.len));
  for vectorize g.s0.x in (x.min, x.len) do g[g.s0.x] <- f[g.s0.x] + 1;
  allocate h(x in (x.min, 1));
  for f.s1.x in (x.min, 1) do f[f.s1.x] <- h[f.s1.x];
  allocate out(x in (x.min, x.len));
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- f[out.s0.x] + g[out.s0.x]
}`, 'error-after-clean.tgt');

/**
 * A box sum as an update: taps by two weights, over a producer whose two edge points are never
 * written. The producer's loop is vectorized, so that the program has vector variants at all.
 */
const boxSum = (taps: string) => tgt(`pipeline s(k; x in (x.min, x.len)):
{
  allocate a(x in (x.min - 2, x.len + 4));
  for vectorize a.s0.x in (x.min - 1, x.len + 2) do a[a.s0.x] <- a.s0.x * k;
  allocate s(x in (x.min, x.len));
  for s.s0.x in (x.min, x.len) do s[s.s0.x] <- 0;
  for s.s1.x in (x.min, x.len) do
    for s.s1.r in (${taps}) do
      for unroll s.s1.q in (0, 2) do
        s[s.s1.x] <- s[s.s1.x] + a[s.s1.x + s.s1.r] * (s.s1.q + 1)
}`, 'box-sum.tgt');

const windows = [input([[0, 13]], { k: 5 }), input([[-5, 8]], { k: -7 }), input([[3, 1]], { k: 2 }), input([[0, 0]], { k: 1 }), input([[0, 4]], { k: 2 ** 59 })];

describe('[C-CLEAN] tag-free nests', () => {
  it('a nest with vector code that reads buffers tests them at its entry and has a variant whose reads load no tags', () => {
    const c = emitC(errorAfterClean, { simd: HOST_ISA });
    expect(c).toContain('/* [C-CLEAN] tag-free if f hold only integers */');
    expect(c).toMatch(/if \(RS_LIKELY\(rs_clean\(&rsb_refsem_out\[\d\]\)\)\) \{/);
    // the variant of g's loop that runs first reads f's payload only
    const tagFree = c.slice(c.indexOf('[C-CLEAN] tag-free if f hold'), c.indexOf('} else {', c.indexOf('[C-CLEAN] tag-free if f hold')));
    expect(tagFree).toContain('D_f[');
    expect(tagFree).not.toContain('T_f[o');
  });

  it('scalar builds, and nests without vector code, keep one tagged copy', () => {
    expect(emitC(errorAfterClean, { simd: 'none' })).not.toContain('/* [C-CLEAN] tag-free');
    const serial = tgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x * 3;
  allocate out(x in (x.min, x.len));
  for out.s0.x in (x.min, x.len) do out[out.s0.x] <- f[out.s0.x] + 1
}`, 'serial-consumer.tgt');
    expect(emitC(serial, { simd: HOST_ISA })).not.toContain('/* [C-CLEAN] tag-free');
  });

  it('a scalar nest that updates a func in place has a tag-free variant, which writes no tags into buffers it found clean', () => {
    // a histogram: the scatter reads the bin it writes; `out` reads it with vector code
    const hist = tgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate h(b in (0, 8));
  for h.s0.b in (0, 8) do h[h.s0.b] <- 0;
  for h.s1.r in (0, 40) do h[h.s1.r * h.s1.r % 8] <- h[h.s1.r * h.s1.r % 8] + 1;
  allocate out(x in (x.min, x.len));
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- h[out.s0.x % 8] * 2
}`, 'hist-clean.tgt');
    const c = emitC(hist, { simd: HOST_ISA });
    const at = c.indexOf('/* [C-CLEAN] tag-free if h hold only integers */');
    expect(at).toBeGreaterThan(0);
    const tagFree = c.slice(at, c.indexOf('} else {', at));
    expect(tagFree).toMatch(/D_h\[o\d+\] = /);
    expect(tagFree).not.toContain('T_h[');
    // the tagged variant still writes the tags, and the scalar build has one copy
    expect(c.slice(c.indexOf('} else {', at), c.indexOf('} else {', at) + 4000)).toMatch(/T_h\[o\d+\] = /);
    expect(emitC(hist, { simd: 'none' })).not.toContain('/* [C-CLEAN] tag-free');
  });

  it('an error stored into a buffer after a scan found it clean is still read as an error', async () => {
    const vs = await agreeEverywhere(errorAfterClean, [input([[0, 9]]), input([[-4, 1]]), input([[2, 16]])]);
    expect(bad(vs)).toEqual([]);
    // the first output point reads err.mem: the binaries returned it, not an integer
    expect(vs.flat().every((v) => v.kind === 'equal')).toBe(true);
  });

  it('a histogram whose scatter runs tag-free equals the reference, and one that reads unwritten bins too', async () => {
    const hist = (bins: number) => tgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate h(b in (0, 8));
  for h.s0.b in (0, ${bins}) do h[h.s0.b] <- 0;
  for h.s1.r in (0, 40) do h[h.s1.r * 3 % 8] <- h[h.s1.r * 3 % 8] + h.s1.r;
  allocate out(x in (x.min, x.len));
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- h[out.s0.x % 8] * 2
}`, 'hist-clean-run.tgt');
    expect(bad(await agreeEverywhere(hist(8), [input([[-3, 20]])]))).toEqual([]);
    expect(bad(await agreeEverywhere(hist(5), [input([[-3, 20]])]))).toEqual([]);
  });

  it('reads of points never written keep their tags: the nest runs tagged and the edges are err.mem', async () => {
    const vs = await agreeEverywhere(boxSum('-2, 5'), windows);
    expect(bad(vs)).toEqual([]);
  });

  it('[C-FALLBACK-SCALAR] the tagged copy of a nest runs scalar loops; a nest with one copy keeps its vector code', () => {
    for (const isa of ['avx512', 'avx2', 'generic'] as const) {
      const c = emitC(errorAfterClean, { simd: isa });
      const test = c.indexOf('[C-CLEAN] tag-free if f hold');
      const tagged = c.indexOf('} else {', test);
      expect(c.slice(test, tagged)).toMatch(/C-VECTOR: \w+, \d+ lanes/);
      const taggedCopy = c.slice(tagged, c.indexOf('allocate h', tagged));
      expect(taggedCopy).toContain('tagged */');
      expect(taggedCopy).toContain('T_f[o');
      expect(taggedCopy).not.toContain('C-VECTOR');
      // f's own loop reads nothing and has no [C-CLEAN] decision: its one copy keeps vector code
      expect(c.slice(0, test)).toMatch(/C-VECTOR: \w+, \d+ lanes/);
    }
  });
});

describe('[C-VECTOR-UPDATE] updates of one point', () => {
  it('a serial loop around constant-extent loops of updates runs lane-wise in the vector variants only', () => {
    const t = boxSum('-1, 3');
    expect(emitC(t, { simd: HOST_ISA })).toContain('6 updates of one point per lane');
    expect(emitC(t, { simd: 'none' })).not.toContain('updates of one point');
  });

  it('equals the reference with and without errors at the edges, and on an overflow inside the updates', async () => {
    const vs = await agreeEverywhere(boxSum('-1, 3'), windows);
    expect(bad(vs)).toEqual([]);
    // k = 2^59: the sum at x = 2 is 18·2^59, past 2^63, while every tap fits: a confirmed overflow
    expect(vs.flat().some((v) => v.kind === 'overflow')).toBe(true);
  });

  it('stores to another point, or reads of the func elsewhere, keep the scalar loop', () => {
    const shifted = tgt(`pipeline s(; x in (x.min, x.len)):
{
  allocate s(x in (x.min, x.len + 1));
  for s.s0.x in (x.min, x.len + 1) do s[s.s0.x] <- 0;
  for s.s1.x in (x.min, x.len) do
    for s.s1.r in (0, 2) do s[s.s1.x + s.s1.r] <- s[s.s1.x + s.s1.r] + 1
}`, 'shifted.tgt');
    const neighbour = tgt(`pipeline s(; x in (x.min, x.len)):
{
  allocate s(x in (x.min - 1, x.len + 1));
  for s.s0.x in (x.min - 1, x.len + 1) do s[s.s0.x] <- 0;
  for s.s1.x in (x.min, x.len) do
    for s.s1.r in (0, 2) do s[s.s1.x] <- s[s.s1.x - 1] + 1
}`, 'neighbour.tgt');
    for (const t of [shifted, neighbour]) expect(emitC(t, { simd: HOST_ISA })).not.toContain('updates of one point');
  });

  it('the rejected forms still equal the reference', async () => {
    const neighbour = tgt(`pipeline s(; x in (x.min, x.len)):
{
  allocate s(x in (x.min - 1, x.len + 1));
  for s.s0.x in (x.min - 1, x.len + 1) do s[s.s0.x] <- s.s0.x;
  for s.s1.x in (x.min, x.len) do
    for s.s1.r in (0, 2) do s[s.s1.x] <- s[s.s1.x - 1] + s[s.s1.x]
}`, 'neighbour.tgt');
    expect(bad(await agreeEverywhere(neighbour, [input([[0, 11]]), input([[-3, 4]])]))).toEqual([]);
  });
});

/**
 * A guarded split of out's loop (a GuardWithIf tail) over f, allocated exactly for the window: in
 * the last chunk the lanes past the window would read past f's allocation.
 */
const guardedTail = tgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x * 3;
  allocate out(x in (x.min, x.len));
  for out.s0.xo in (0, (x.len + 3) / 4) do
    for vectorize out.s0.xi in (0, 4) do
      let out.s0.x = x.min + out.s0.xo * 4 + out.s0.xi in
      if out.s0.x < x.min + x.len then out[out.s0.x] <- f[out.s0.x] + 1 else nop
}`, 'guarded-tail.tgt');

describe('[C-VECTOR] trusted accesses', () => {
  it('a chunk with a guard that can fail runs the rest of its body only when the guard holds in every lane, then trusts its accesses', () => {
    const c = emitC(guardedTail, { simd: HOST_ISA });
    const tagFree = c.slice(c.indexOf('[C-CLEAN] tag-free if f hold'), c.indexOf('} else {', c.indexOf('[C-CLEAN] tag-free if f hold')));
    const guard = tagFree.indexOf('if (!ans) {');
    const load = tagFree.indexOf('_loadu(D_f');
    expect(guard).toBeGreaterThan(0);
    expect(load).toBeGreaterThan(guard);
    // the range test of the load exists only in checked builds
    expect(tagFree.slice(guard, load)).toMatch(/#ifdef REFSEM_CHECKED\n\s*const int ok\d+ = \(uint64_t\)/);
    expect(tagFree.slice(guard, load)).toMatch(/#else\n\s*const int ok\d+ = 1;/);
  });

  it('equals the reference on windows whose last chunk is partly outside, checked and unchecked', async () => {
    const windows = [input([[0, 13]]), input([[-5, 6]]), input([[7, 1]]), input([[0, 0]]), input([[2, 8]])];
    expect(bad(await agreeEverywhere(guardedTail, windows))).toEqual([]);
  });
});

describe('[C-VECTOR] trusted accesses after an overflow', () => {
  // k^90 is too wide a product for the proof's text budget ([C-PROVED]), so its outer
  // multiplications stay checked in the proved variant (the checked variant has no vector code,
  // [C-FALLBACK-SCALAR]). For k = ±1 the index is the point itself; with k = 255 or 2 the product
  // overflows and wraps, so the index of f's read would be wild.
  const power = Array.from({ length: 90 }, () => 'k').join(' * ');
  const wideIndex = tgt(`pipeline out(k; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x * 3;
  allocate out(x in (x.min, x.len));
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- f[out.s0.x + min(${power}, 1) - 1]
}`, 'wide-index.tgt');

  it('a trusted access whose index an unproved operation computed is taken only when no lane overflowed', () => {
    expect(emitC(wideIndex, { simd: HOST_ISA })).toMatch(/#else\n\s*const int ok\d+ = !rs(512|256|g)_any\(an\);/);
  });

  it('reports the overflow like the reference, and the index itself when nothing overflows', async () => {
    expect(bad(await agreeEverywhere(wideIndex, [input([[0, 16]], { k: 255 }), input([[-3, 9]], { k: -1 }), input([[2, 5]], { k: 2 })]))).toEqual([]);
  });
});
