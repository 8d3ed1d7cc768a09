// [C-DIV-POSITIVE] (spec/codegen.md): a vector division whose dividend is never negative and whose
// divisor is never below 1 divides through doubles without the corrections of the Euclidean and
// zero cases; other divisions keep them; both equal the reference, unwritten points included.
import { describe, expect, it } from 'vitest';
import { emitC } from '../../src/codegen/emit-c.js';
import { HOST_ISA, agreeEverywhere, bad, input, tgt } from './support.js';

/** s and w are small and never negative; n may be negative; w's last point is never written. */
const ratio = (value: string) => tgt(`pipeline out(k; x in (x.min, x.len)):
{
  allocate s(x in (x.min, x.len));
  for vectorize s.s0.x in (x.min, x.len) do s[s.s0.x] <- s.s0.x * 37 % 1000;
  allocate w(x in (x.min, x.len + 1));
  for vectorize w.s0.x in (x.min, x.len) do w[w.s0.x] <- w.s0.x % 5;
  allocate n(x in (x.min, x.len));
  for vectorize n.s0.x in (x.min, x.len) do n[n.s0.x] <- n.s0.x % 7 - 3;
  allocate out(x in (x.min, x.len));
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- ${value}
}`, 'div-positive.tgt');

const positive = ratio('s[out.s0.x] / max(1, w[out.s0.x]) + s[out.s0.x] % max(1, w[out.s0.x + 1])');
const signed = ratio('n[out.s0.x] / max(1, w[out.s0.x]) + s[out.s0.x] % w[out.s0.x] + s[out.s0.x] / (n[out.s0.x] + k)');

describe('[C-DIV-POSITIVE] division of non-negative values by positive ones', () => {
  it('takes the short form only where the ranges rule out negative dividends and divisors below 1', () => {
    // the pipeline's own code, after the runtime header that defines the helpers
    const code = (t: ReturnType<typeof ratio>) => {
      const c = emitC(t, { simd: HOST_ISA });
      return c.slice(c.indexOf('static rs_alloc rsb_'));
    };
    expect(code(positive)).toMatch(/h_divp\(/);
    expect(code(positive)).toMatch(/h_modp\(/);
    expect(code(signed)).not.toMatch(/_divp\(|_modp\(/);
  });

  it('equals the reference, the never-written divisor included', async () => {
    expect(bad(await agreeEverywhere(positive, [input([[-9, 30]], { k: 4 }), input([[3, 8]], { k: -1 })]))).toEqual([]);
  });
});
