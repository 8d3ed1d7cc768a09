// [C-RECURRENCE] (spec/codegen.md): a func whose stores read the func itself (a scan) is bounded by
// iterating its stores' intervals from the hull of its other stores, up to an invariant range or
// as often as the stores run; the bound gives 32-bit payloads and lanes that agree with the
// reference. And [C-NARROW]'s passes run until nothing changes, so a chain of stages longer than
// three is bounded to its end.
import { describe, expect, it } from 'vitest';
import { funcRanges } from '../../src/codegen/ranges.js';
import { payloadBits } from '../../src/codegen/storage.js';
import { constOf } from '../../src/expr/symbolic.js';
import type { Interval } from '../../src/expr/interval.js';
import { agreeEverywhere, bad, input, tgt } from './support.js';

const constEnds = (i: Interval | undefined) => [i?.lo ? constOf(i.lo) : undefined, i?.hi ? constOf(i.hi) : undefined];

/** A cumulative sum over 16 bins, looked up by the output. */
const scan = tgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate cdf(b in (0, 16));
  for cdf.s0.b in (0, 16) do cdf[cdf.s0.b] <- cdf.s0.b * cdf.s0.b;
  for cdf.s1.r in (1, 15) do cdf[cdf.s1.r] <- cdf[cdf.s1.r - 1] + cdf[cdf.s1.r];
  allocate out(x in (x.min, x.len));
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- cdf[out.s0.x * 7 % 16] * 3 - out.s0.x
}`, 'recurrence-scan.tgt');

/** A first-order smoothing down the rows, as many rows as the window is high: an invariant range. */
const smooth = tgt(`pipeline out(; x in (x.min, x.len), y in (y.min, y.len)):
{
  allocate s(x in (x.min, x.len), y in (0, y.len));
  for s.s0.y in (0, y.len) do for vectorize s.s0.x in (x.min, x.len) do s[s.s0.x, s.s0.y] <- (s.s0.x * 13 + s.s0.y * 7) % 256 * 4;
  for s.s1.r in (1, y.len - 1) do for vectorize s.s1.x in (x.min, x.len) do s[s.s1.x, s.s1.r] <- (s[s.s1.x, s.s1.r - 1] * 3 + s[s.s1.x, s.s1.r]) / 4;
  allocate out(x in (x.min, x.len), y in (y.min, y.len));
  for out.s0.y in (y.min, y.len) do for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x, out.s0.y] <- s[out.s0.x, out.s0.y - y.min] * 2 - 1
}`, 'recurrence-smooth.tgt');

/** Doubling as often as the window is wide: no count and no invariant bound it. */
const doubling = tgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate h(x in (0, 1));
  h[0] <- 3;
  for d in (0, x.len) do h[0] <- h[0] * 2;
  allocate out(x in (x.min, x.len));
  for out.s0.x in (x.min, x.len) do out[out.s0.x] <- h[0]
}`, 'recurrence-doubling.tgt');

describe('[C-RECURRENCE] stores that read their own func', () => {
  it('bounds a scan by its number of runs, and a smoothing by an invariant range', () => {
    // base [0, 225], 15 runs each at most doubling it
    expect(constEnds(funcRanges(scan).get('cdf'))).toEqual([0, 225 * 2 ** 15]);
    expect(payloadBits(scan, ['cdf', 'out'], funcRanges(scan)).get('cdf')).toBe(32);
    // (3a + b) / 4 of values in [0, 1020] stays in [0, 1020], however many rows run
    expect(constEnds(funcRanges(smooth).get('s'))).toEqual([0, 1020]);
    expect(constEnds(funcRanges(smooth).get('out'))).toEqual([-1, 2039]);
  });

  it('leaves [−∞, ∞] when neither a count nor an invariant bounds the runs', () => {
    expect(funcRanges(doubling).get('h')).toEqual({ lo: null, hi: null });
  });

  it('agrees with the reference under the narrower payloads and lanes', async () => {
    expect(bad(await agreeEverywhere(scan, [input([[-5, 29]]), input([[3, 9]])]))).toEqual([]);
    expect(bad(await agreeEverywhere(smooth, [input([[-3, 19], [2, 7]]), input([[0, 8], [-4, 1]])]))).toEqual([]);
  });
});

describe('[C-NARROW] passes until the ranges stop changing', () => {
  it('bounds every stage of a chain of six', () => {
    const stage = (k: number) => `allocate s${k}(x in (x.min - ${6 - k}, x.len + ${2 * (6 - k)}));
  for s${k}.s0.x in (x.min - ${6 - k}, x.len + ${2 * (6 - k)}) do s${k}[s${k}.s0.x] <- (s${k - 1}[s${k}.s0.x - 1] + 2 * s${k - 1}[s${k}.s0.x] + s${k - 1}[s${k}.s0.x + 1]) / 4;`;
    const t = tgt(`pipeline s6(; x in (x.min, x.len)):
{
  allocate s0(x in (x.min - 6, x.len + 12));
  for s0.s0.x in (x.min - 6, x.len + 12) do s0[s0.s0.x] <- s0.s0.x * 37 % 256;
  ${[1, 2, 3, 4, 5, 6].map(stage).join('\n  ')}
}`);
    const ranges = funcRanges(t);
    for (let k = 0; k <= 6; k++) expect(constEnds(ranges.get(`s${k}`))).toEqual([0, 255]);
  });
});
