// [C-NARROW-HOIST] and [C-PROOF-DAG] (spec/codegen.md): a vector loop of one chunk per entry,
// under a tile loop, takes its 32-bit decision once at the outermost loop that can make it, and
// range proofs evaluate each distinct subterm once. The binaries still agree with the reference.
import { describe, expect, it } from 'vitest';
import { emitC } from '../../src/codegen/emit-c.js';
import { bad, HOST_ISA, input, tgt } from './support.js';
import { validateBatch } from '../../src/codegen/validate.js';

/** `vectorize(x, 8)` after a split: the vector loop runs one chunk per entry of the x1 loop. */
const tiled = tgt(`pipeline f(k; x in (x.min, x.len), y in (y.min, y.len)):
{
  allocate f(x in (x.min, 8 * ((x.len + 7) / 8)), y in (y.min, y.len));
  for f.s0.y in (y.min, y.len) do
    for f.s0.x1 in (0, (x.len + 7) / 8) do
      for vectorize f.s0.xv in (0, 8) do
        f[x.min + f.s0.x1 * 8 + f.s0.xv, f.s0.y] <- (x.min + f.s0.x1 * 8 + f.s0.xv) / 2 * k + (x.min + f.s0.x1 * 8 + f.s0.xv) % 3 * f.s0.y
}`);

describe('[C-NARROW-HOIST] the 32-bit decision at the outermost loop that can make it', () => {
  it('is made before the outer loop starts, and the vector loop only tests its flag', () => {
    const c = emitC(tiled, { simd: 'avx2' });
    const decided = /\/\* \[C-NARROW-HOIST\] for f\.s0\.xv, decided once here \*\/[^]*?const int (n32\d+) = /.exec(c);
    expect(decided).not.toBeNull();
    // the decision precedes the first loop of the nest: evaluated once per run, not per chunk
    expect(c.indexOf(decided![0])).toBeLessThan(c.indexOf('for (int64_t'));
    expect(c).toContain('32-bit lanes if the proof at the entry of an outer loop held, else if its own holds here');
    // the vector loop's own proof is evaluated only when the outer one failed
    const own = new RegExp(`int (n32\\d+) = ${decided![1]};\\n\\s*if \\(RS_UNLIKELY\\(!\\1\\)\\) \\{`).exec(c);
    expect(own).not.toBeNull();
    expect(c).toMatch(new RegExp(`if \\(${own![1]}\\) \\{\\n\\s*/\\* C-VECTOR: avx2, 4 lanes of int32`));
    expect(c).not.toContain("lanes' value ranges, evaluated here");
  });

  it('agrees with the reference whether the hoisted proof holds or not', async () => {
    const inputs = [input([[-3, 21], [2, 3]], { k: 5 }), input([[0, 16], [-1, 2]], { k: 2 ** 31 }), input([[7, 9], [0, 2]], { k: -(2 ** 20) })];
    const vs = await validateBatch([{ t: tiled, inputs, emit: { simd: HOST_ISA } }], { backend: 'simd' });
    expect(bad(vs)).toEqual([]);
  });
});

describe('[C-PROOF-DAG] range proofs evaluated as a DAG', () => {
  it('evaluates each distinct subterm of a proof once', () => {
    const c = emitC(tiled, { simd: 'avx2' });
    const defs = [...c.matchAll(/const rs_q (q\d+) = ([^\n]*);\n/g)].map((m) => m[2]!);
    expect(defs.length).toBeGreaterThan(0);
    // x.min + x1 * 8 + xv occurs in several ends, but its terms are temporaries only once per proof
    const proofs = c.split(/int bad\d+ = 0;/).slice(1).map((p) => [...p.matchAll(/const rs_q q\d+ = ([^\n]*);/g)].map((m) => m[1]!));
    for (const p of proofs) expect(new Set(p).size).toBe(p.length);
  });
});
