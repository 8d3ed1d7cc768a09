// [C-GATHER] (spec/codegen.md): a read whose index varies across the lanes in no regular way loads
// each lane's point on its own and builds the vector from the loads in registers, for 64-bit and
// for 32-bit payloads, in every instruction set; the lookups agree with the reference, unwritten
// table points (error values) and points outside the table included.
import { describe, expect, it } from 'vitest';
import { emitC, runtimeText } from '../../src/codegen/emit-c.js';
import { agreeEverywhere, bad, input, tgt } from './support.js';

/**
 * A table of 16 small values (32-bit payloads) and one scaled by the parameter (64-bit payloads),
 * both read at a data-dependent bin; the last bin of `big` is never written (an error value).
 */
const lookup = tgt(`pipeline out(k; x in (x.min, x.len)):
{
  allocate small(b in (0, 16));
  for small.s0.b in (0, 16) do small[small.s0.b] <- small.s0.b * small.s0.b - 7;
  allocate big(b in (0, 16));
  for big.s0.b in (0, 15) do big[big.s0.b] <- big.s0.b * k;
  allocate out(x in (x.min, x.len));
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- small[out.s0.x * out.s0.x % 16] + big[(out.s0.x * 5 + 3) % 16]
}`, 'gather-lookup.tgt');

describe('[C-GATHER] gathers lane by lane, in registers', () => {
  it('builds gathered vectors as literals of the lanes\' loads, without gather instructions', () => {
    const rt = runtimeText(true);
    expect(rt).not.toMatch(/i64gather/);
    expect(rt).toContain('rs512_gather(const int64_t *base, rs_v8 off) { return (rs_v8){base[off[0]], base[off[1]], base[off[2]], base[off[3]], base[off[4]], base[off[5]], base[off[6]], base[off[7]]}; }');
    expect(rt).toContain('rs256_gather32(const int32_t *base, rs_v4 off) { return (rs_h4){base[off[0]], base[off[1]], base[off[2]], base[off[3]]}; }');
    const c = emitC(lookup, { simd: 'avx512' });
    expect(c).toMatch(/rs512h?_gather32\(D_small, /);
    expect(c).toMatch(/rs512_gather\(D_big, /);
  });

  it('agrees with the reference on tables of 32- and 64-bit payloads, error values included', async () => {
    const inputs = [input([[-13, 40]], { k: 3 }), input([[5, 9]], { k: -(2 ** 40) })];
    expect(bad(await agreeEverywhere(lookup, inputs))).toEqual([]);
  });
});
