// [C-VECTOR-PLANES] (spec/codegen.md): a vectorized loop whose unrolled body stores one func at
// points that differ in a constant coordinate (the channels of a colour matrix) runs its stores for
// all lanes one after the other; stores whose points may coincide, or a body that reads the func,
// keep the scalar loop; and every such program equals the reference, tails and failures included.
import { describe, expect, it } from 'vitest';
import { emitC } from '../../src/codegen/emit-c.js';
import { vectorPlan } from '../../src/codegen/emit-simd.js';
import type { Stmt } from '../../src/target-semantics/ast.js';
import { HOST_ISA, agreeEverywhere, bad, input, tgt } from './support.js';

/** Three channels per pixel, the channel loop unrolled inside the vector loop, a guarded tail. */
const channels = tgt(`pipeline out(k; x in (x.min, x.len), c in (c.min, c.len)):
{
  assert c.min >= 0 && c.min + c.len <= 3;
  allocate g(x in (x.min, x.len));
  for vectorize g.s0.x in (x.min, x.len) do g[g.s0.x] <- g.s0.x * 7 % 13;
  allocate out(x in (x.min, x.len), c in (0, 3));
  for out.s0.xo in (0, (x.len + 7) / 8) do
    for vectorize out.s0.xi in (0, 8) do
      let out.s0.x = x.min + out.s0.xo * 8 + out.s0.xi in
      if out.s0.x < x.min + x.len then
        for unroll out.s0.c in (0, 3) do out[out.s0.x, out.s0.c] <- g[out.s0.x] * (out.s0.c + 1) * k - out.s0.c
      else nop
}`, 'planes-channels.tgt');

/** The first store's point of one lane is the second store's point of the next lane. */
const overlapping = tgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate out(x in (x.min, x.len + 1));
  for vectorize out.s0.x in (x.min, x.len) do
    for unroll out.s0.d in (0, 2) do out[out.s0.x + out.s0.d] <- out.s0.x * 10 + out.s0.d
}`, 'planes-overlapping.tgt');

/** The second channel reads the first. */
const reading = tgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate out(x in (x.min, x.len), c in (0, 2));
  for vectorize out.s0.x in (x.min, x.len) do
    for unroll out.s0.c in (0, 2) do out[out.s0.x, out.s0.c] <- out[out.s0.x, 0] + out.s0.c
}`, 'planes-reading.tgt');

const vectorLoop = (t: ReturnType<typeof tgt>): Extract<Stmt, { k: 'for' }> => {
  let found: Extract<Stmt, { k: 'for' }> | undefined;
  const visit = (s: Stmt): void => {
    if (s.k === 'for' && s.trav === 'vectorize' && s.var.startsWith('out.')) found = s;
    if (s.k === 'seq') s.body.forEach(visit);
    else if (s.k === 'for' || s.k === 'let' || s.k === 'label') visit(s.body);
    else if (s.k === 'if') visit(s.then);
  };
  visit(t.body);
  return found!;
};

describe('[C-VECTOR-PLANES] stores to distinct points of one func', () => {
  it('vectorizes stores whose points differ in a constant coordinate, and no other multi-store body', () => {
    expect(vectorPlan(vectorLoop(channels), () => true)?.planes).toBe(true);
    expect(vectorPlan(vectorLoop(overlapping), () => true)).toBeUndefined();
    expect(vectorPlan(vectorLoop(reading), () => true)).toBeUndefined();
    const c = emitC(channels, { simd: HOST_ISA });
    expect(c).toMatch(/C-VECTOR-PLANES: \w+, \d+ lanes of int64, 3 stores to distinct points per lane/);
  });

  it('equals the reference on tails, channel windows, overflows and a failed assertion', async () => {
    const windows = [
      input([[-5, 21], [0, 3]], { k: 3 }),
      input([[2, 8], [1, 2]], { k: -9 }),
      input([[0, 3], [0, 1]], { k: 1 }),
      input([[7, 17], [0, 3]], { k: 2 ** 62 }),
      input([[0, 4], [2, 2]], { k: 1 }),
    ];
    expect(bad(await agreeEverywhere(channels, windows))).toEqual([]);
    expect(bad(await agreeEverywhere(overlapping, [input([[-3, 13]])]))).toEqual([]);
  });
});
