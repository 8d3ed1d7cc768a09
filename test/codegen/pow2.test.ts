// [C-POW2] (spec/codegen.md): Euclidean div and mod by a constant 2^k are a shift and a mask, in
// scalar code and in vector lanes, and agree with the reference on negative operands.
import { describe, expect, it } from 'vitest';
import { emitC } from '../../src/codegen/emit-c.js';
import { validateBatch } from '../../src/codegen/validate.js';
import { bad, HOST_ISA, input, pointwise, tgt } from './support.js';

const value = 'f.s0.x / 4 * 10 + f.s0.x % 8 - f.s0.x / 3 + f.s0.x % 5';
const scalar = pointwise(value);
const vector = tgt(`pipeline f(; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for vectorize f.s0.x in (x.min, x.len) do f[f.s0.x] <- ${value}
}`);

describe('[C-POW2] division by a power of two', () => {
  it('is a shift and a mask in scalar code; other divisors keep the Euclidean helpers', () => {
    const c = emitC(scalar, { simd: 'none' });
    expect(c).toMatch(/\(v_f_ds0_dx >> 2\)/);
    expect(c).toMatch(/\(v_f_ds0_dx & INT64_C\(7\)\)/);
    expect(c).toMatch(/rs_div\(v_f_ds0_dx, INT64_C\(3\)\)/);
    expect(c).toMatch(/rs_mod\(v_f_ds0_dx, INT64_C\(5\)\)/);
    expect(c).not.toMatch(/rs_(div|mod)\(v_f_ds0_dx, INT64_C\((4|8)\)\)/);
  });

  it('agrees with the reference on negative and positive operands, scalar and vector', async () => {
    const inputs = [input([[-37, 75]]), input([[-(2 ** 40) - 5, 19]])];
    const vs = await validateBatch(
      [
        { t: scalar, inputs, emit: { simd: 'none' } },
        { t: vector, inputs, emit: { simd: HOST_ISA } },
      ],
      { backend: 'simd' },
    );
    expect(bad(vs)).toEqual([]);
  });
});
