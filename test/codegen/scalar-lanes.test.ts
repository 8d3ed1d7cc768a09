// [C-SCALAR-LANES]: a chunk computes the values whose lanes are uniform or consecutive as scalars
// of lane 0 — lets, guard bounds, the bases of contiguous accesses — in 32-bit chunks and, for
// proved operations, in 64-bit ones; operations that keep their overflow checks and variables
// that may hold errors keep their lanes; and every such program equals the reference.
import { describe, expect, it } from 'vitest';
import { emitC } from '../../src/codegen/emit-c.js';
import { HOST_ISA, agreeEverywhere, bad, input, tgt } from './support.js';

/**
 * A tiled, guarded consumer of a stencil producer: the tile's coordinate is a consecutive let, the
 * guard's bound and the row are uniform, and out reads f at both sides of its point.
 */
const tiled = tgt(`pipeline out(k; x in (x.min, x.len), y in (y.min, y.len)):
{
  allocate f(x in (x.min - 1, x.len + 2), y in (y.min, y.len));
  for f.s0.y in (y.min, y.len) do
    for vectorize f.s0.x in (x.min - 1, x.len + 2) do f[f.s0.x, f.s0.y] <- (f.s0.x * 37 + f.s0.y * 91) % 256;
  allocate out(x in (x.min, x.len), y in (y.min, y.len));
  for out.s0.y in (y.min, y.len) do
    for out.s0.xo in (0, (x.len + 3) / 4) do
      for vectorize out.s0.xi in (0, 4) do
        let out.s0.x = x.min + out.s0.xo * 4 + out.s0.xi in
        if out.s0.x < x.min + x.len then out[out.s0.x, out.s0.y] <- f[out.s0.x - 1, out.s0.y] + f[out.s0.x + 1, out.s0.y] * k else nop
}`, 'scalar-lanes-tiled.tgt');

/**
 * The read's offset k * k is too wide for the ranges to prove (k is a parameter), so its product
 * keeps its check in 64-bit lanes; with k = 2^32 it overflows and the chunk must fall back.
 */
/**
 * k^90 is too wide a product for the proof's text budget ([C-PROVED]): its outer factors keep their
 * overflow checks in the proved variant, the only one with vector code ([C-FALLBACK-SCALAR]).
 */
const checkedIndex = tgt(`pipeline out(k; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len + 16));
  for vectorize f.s0.x in (x.min, x.len + 16) do f[f.s0.x] <- f.s0.x * k;
  allocate out(x in (x.min, x.len));
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- f[out.s0.x + (${Array.from({ length: 90 }, () => 'k').join(' * ')}) % 16]
}`, 'scalar-lanes-checked.tgt');

/** e may be an error (g[1] is never written when n < 2); it is uniform and used in an index. */
const taggedUniform = tgt(`pipeline out(n; x in (x.min, x.len)):
{
  allocate g(x in (0, 4));
  for g.s0.x in (0, n) do g[g.s0.x] <- 2;
  allocate f(x in (x.min, x.len + 8));
  for vectorize f.s0.x in (x.min, x.len + 8) do f[f.s0.x] <- f.s0.x;
  allocate out(x in (x.min, x.len));
  let e = g[1] in
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- f[out.s0.x + e]
}`, 'scalar-lanes-tagged.tgt');

/**
 * A weight that depends only on the row and the parameter, reduced modulo 7 and divided by 4: a
 * uniform div and mod by positive constants, of values beyond the doubles' exact range when k is.
 */
const uniformDiv = tgt(`pipeline out(k; x in (x.min, x.len), y in (y.min, y.len)):
{
  allocate out(x in (x.min, x.len), y in (y.min, y.len));
  for out.s0.y in (y.min, y.len) do
    for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x, out.s0.y] <- (out.s0.y * k + 5) % 7 * out.s0.x + (out.s0.y - k) / 4 - out.s0.x / 3
}`, 'scalar-lanes-div.tgt');

describe('[C-SCALAR-LANES] uniform and consecutive values as scalars', () => {
  it('computes a uniform div and mod by a positive constant as a scalar, a varying one in lanes', () => {
    const c = emitC(uniformDiv, { simd: HOST_ISA });
    const chunk64 = c.slice(c.indexOf('lanes of int64', c.indexOf('for vectorize out.s0.x')));
    expect(chunk64).toMatch(/_splat\(rs_mod\(.*INT64_C\(7\)\)\)/);
    expect(chunk64).toMatch(/_splat\(\(rs_w?sub\(v_out_ds0_dy, v_k\) >> 2\)\)|_splat\(\(\(v_out_ds0_dy - v_k\) >> 2\)\)/);
    expect(chunk64).toMatch(/_div\(vx, rs\d+_splat\(INT64_C\(3\)\), &an\)/);
  });

  it('equals the reference on uniform div and mod of both signs, and beyond 2^52', async () => {
    const windows = [input([[-5, 11], [-3, 4]], { k: 9 }), input([[0, 9], [1, 2]], { k: -(2 ** 55) }), input([[3, 8], [-2, 2]], { k: 2 ** 53 + 3 })];
    expect(bad(await agreeEverywhere(uniformDiv, windows))).toEqual([]);
  });

  it('computes a 32-bit chunk\'s consecutive let, its guard bound and its access bases as scalars', () => {
    const all = emitC(tiled, { simd: HOST_ISA });
    const at = all.indexOf('lanes of int32', all.indexOf('for vectorize out.s0.xi'));
    const c = all.slice(at, all.indexOf('lanes of int64', at));
    expect(c).toMatch(/const int64_t l0_out_ds0_dx = rs_wadd\(.*x0\);/);
    // the let's lanes are a ramp of the scalar; no vector holds it
    expect(c).toMatch(/_iota\(l0_out_ds0_dx\)/);
    expect(c).not.toMatch(/\w+ w_out_ds0_dx = /);
    // the guard's bound is one scalar broadcast
    expect(c).toMatch(/h_lt\(rs\d+h_iota\(l0_out_ds0_dx\), rs\d+h_splat\(rs_wadd\(v_x_dmin, v_x_dlen\)\)\)/);
    // both reads of f take their base from the scalar, not from a lane of a vector
    expect(c).toContain('(rs_wsub(l0_out_ds0_dx, INT64_C(1)) - M_f_0) + S_f_1 * (v_out_ds0_dy - M_f_1)');
    expect(c).toContain('(rs_wadd(l0_out_ds0_dx, INT64_C(1)) - M_f_0) + S_f_1 * (v_out_ds0_dy - M_f_1)');
  });

  it('keeps the lanes of a product that keeps its overflow check, and of a variable that may be an error', () => {
    const c = emitC(checkedIndex, { simd: HOST_ISA });
    const chunk64 = c.slice(c.indexOf('lanes of int64', c.indexOf('for vectorize out.s0.x')));
    expect(chunk64).toMatch(/_mulk?\(.*&an\)/);
    expect(chunk64).toMatch(/\[0\] - M_f_0\)/);
    // e's tag is tested at the entry of the tag-free variant ([C-CLEAN]), where its scalar is
    // followed; the tagged variant runs the scalar loop ([C-FALLBACK-SCALAR]), which tests it
    const t = emitC(taggedUniform, { simd: HOST_ISA });
    const tagged = t.slice(t.indexOf('} else {', t.indexOf('& !g_e)) {')));
    expect(t.slice(t.indexOf('& !g_e)) {'), t.indexOf('} else {', t.indexOf('& !g_e)) {')))).toContain('(rs_wadd(x0, v_e) - M_f_0)');
    expect(tagged).not.toContain('C-VECTOR');
    expect(tagged).toMatch(/const uint8_t (g\d+) = g_e;[^]*if \(RS_UNLIKELY\(\1\)\) rs_oob/);
  });

  it('[C-VECTOR] tests the lanes\' anomaly mask only in chunks where some operation may set it', () => {
    const all = emitC(tiled, { simd: HOST_ISA });
    const at = all.indexOf('lanes of int32', all.indexOf('for vectorize out.s0.xi'));
    const narrow = all.slice(at, all.indexOf('lanes of int64', at));
    expect(narrow).toContain('if (RS_UNLIKELY(ans)) {');
    expect(narrow).not.toContain('_any(an)');
    const c = emitC(checkedIndex, { simd: HOST_ISA });
    const chunk64 = c.slice(c.indexOf('lanes of int64', c.indexOf('for vectorize out.s0.x')));
    expect(chunk64).toMatch(/if \(RS_UNLIKELY\(\(ans \| rs\d+_any\(an\)\)\)\) \{/);
  });

  it('equals the reference with tiles, guarded tails and both signs of the parameter, checked and unchecked', async () => {
    const windows = [
      input([[0, 13], [0, 3]], { k: 3 }),
      input([[-6, 9], [-2, 2]], { k: -7 }),
      input([[5, 1], [4, 1]], { k: 1 }),
      input([[0, 0], [0, 4]], { k: 2 }),
      input([[2147483640, 12], [0, 2]], { k: 5 }),
    ];
    expect(bad(await agreeEverywhere(tiled, windows))).toEqual([]);
  });

  it('equals the reference when a checked index product overflows and when a uniform variable is an error', async () => {
    const big = 2 ** 32;
    expect(bad(await agreeEverywhere(checkedIndex, [input([[0, 9]], { k: 3 }), input([[-4, 8]], { k: big }), input([[1, 16]], { k: -1 }), input([[-2, 11]], { k: 1 })]))).toEqual([]);
    expect(bad(await agreeEverywhere(taggedUniform, [input([[0, 9]], { n: 4 }), input([[-3, 8]], { n: 1 })]))).toEqual([]);
  });
});
