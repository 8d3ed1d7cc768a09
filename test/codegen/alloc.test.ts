// [C-ALLOC]: an allocation inside a loop keeps the func's previous block when it is large enough,
// and what the previous iteration wrote there is never read: every point starts unwritten again.
import { describe, expect, it } from 'vitest';
import { emitC } from '../../src/codegen/emit-c.js';
import { agreeEverywhere, bad, input, tgt } from './support.js';

/**
 * g is allocated per iteration of out's loop at 1 to 5 points (growing, then shrinking to 1) and
 * written at all but its last point, which out then reads: err.mem in the reference, although an
 * earlier iteration wrote that place of a larger block.
 */
const perIteration = tgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate out(x in (x.min, x.len));
  for out.s0.x in (x.min, x.len) do {
    allocate g(x in (0, out.s0.x % 5 + 1));
    for g.s0.x in (0, out.s0.x % 5) do g[g.s0.x] <- out.s0.x * 10 + g.s0.x;
    out[out.s0.x] <- g[out.s0.x % 5] + g[0]
  }
}`, 'alloc-per-iteration.tgt');

describe('[C-ALLOC] blocks kept across allocations', () => {
  it('reuses a large enough block and marks every point unwritten again', () => {
    const c = emitC(perIteration, { simd: 'none' });
    expect(c).toContain('if (!b->data || b->cap < bytes) {');
    expect(c).toContain('memset(b->tag, RS_TAG_MEM, points);');
  });

  it('equals the reference when a smaller allocation follows a larger one in the same block', async () => {
    const windows = [input([[0, 12]]), input([[-7, 9]]), input([[4, 2]]), input([[0, 0]])];
    const vs = await agreeEverywhere(perIteration, windows);
    expect(bad(vs)).toEqual([]);
  });
});
