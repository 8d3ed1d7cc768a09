// [C-ARITH], [C-VALUE], [C-OVERFLOW-CONFIRM]: the binary's arithmetic equals the reference's exact
// arithmetic (ops.ts) whenever the exact result fits in 64 bits, and ends with a confirmed overflow
// status otherwise; Euclidean div/mod are total on 0. One batch, one compile.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INT_OPS } from '../../src/expr/ops.js';
import type { OpName } from '../../src/expr/ast.js';
import { type Int, normBig, toBig } from '../../src/expr/value.js';
import { compileAndRun } from '../../src/codegen/toolchain.js';
import { judgeBatch, overflowConfirmed } from '../../src/codegen/validate.js';
import { mangle } from '../../src/codegen/abi.js';
import { HOST_ISA, input, pointwise, tgt } from './support.js';

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;
const fits = (v: Int) => toBig(v) >= MIN && toBig(v) <= MAX;

const edge = fc.constantFrom<bigint>(MIN, MIN + 1n, -1n, 0n, 1n, MAX, MAX - 1n, 2n ** 32n, -(2n ** 31n), 3n, -3n, 7n, -7n);
const arbI64 = fc.oneof(edge, fc.bigInt({ min: MIN, max: MAX }), fc.bigInt({ min: -100n, max: 100n }), fc.bigInt({ min: -(2n ** 33n), max: 2n ** 33n }));

const OPS: readonly [OpName, string][] = [
  ['+', 'a + b'], ['-', 'a - b'], ['*', 'a * b'], ['div', 'a / b'], ['mod', 'a % b'], ['min', 'min(a, b)'], ['max', 'max(a, b)'],
  ['<', 'a < b'], ['=', 'a == b'], ['and', 'a && b'], ['or', 'a || b'], ['select', 'select(a, b, a)'],
];

describe('C arithmetic against the exact operators', () => {
  it('equals ops.ts or reports a confirmed overflow, for every operator', async () => {
    const pairs = fc.sample(fc.tuple(arbI64, arbI64), { seed: 11, numRuns: 120 });
    const inputs = pairs.map(([a, b]) => input([[0, 1]], { a: normBig(a), b: normBig(b) }));
    const items = OPS.map(([, text]) => ({ t: pointwise(text, ['a', 'b']), inputs }));
    const res = await compileAndRun(items);
    let overflows = 0;
    res.forEach((r) => {
      const [op] = OPS[r.program]!;
      const [a, b] = pairs[r.input]!;
      const norm = normBig;
      const exact = op === 'select' ? INT_OPS.select(norm(a), norm(b), norm(a)) : INT_OPS[op](norm(a), norm(b));
      expect(r.kind).toBe('ran');
      if (r.kind !== 'ran') return;
      if (fits(exact)) {
        expect(r.status, `${op} ${a} ${b}`).toBe('ok');
        expect(r.output?.window).toEqual([exact]);
      } else {
        overflows++;
        expect(r.status, `${op} ${a} ${b}`).toBe('overflow');
        expect(overflowConfirmed(r)).toBe(true);
      }
    });
    expect(overflows).toBeGreaterThan(10);
  });

  it('vector lanes (AVX-512, portable) compute the same operators as the reference', async () => {
    const pairs = fc.sample(fc.tuple(arbI64, arbI64), { seed: 12, numRuns: 40 });
    const inputs = pairs.map(([a, b]) => input([[-3, 11]], { a: normBig(a), b: normBig(b) }));
    // Each lane works on its own operands: a2 = a - x and b2 = b + 3x.
    const vec = (text: string) =>
      tgt(`pipeline f(a, b; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); for vectorize f.s0.x in (x.min, x.len) do
        let a2 = a - f.s0.x in let b2 = b + 3 * f.s0.x in f[f.s0.x] <- ${text.replace(/\b([ab])\b/g, '$12')} }`);
    const items = OPS.flatMap(([, text]) => ([HOST_ISA, 'generic'] as const).map((simd) => ({ t: vec(text), inputs, emit: { simd } })));
    const vs = judgeBatch(items, await compileAndRun(items));
    expect(vs.flat().filter((v) => !v.ok)).toEqual([]);
    expect(vs.flat().filter((v) => v.kind === 'equal').length).toBeGreaterThan(items.length * 20);
    expect(vs.flat().filter((v) => v.kind === 'overflow').length).toBeGreaterThan(20);
  });

  it('a wrong overflow report is not confirmed', () => {
    const base = { program: 0, input: 0, kind: 'ran' as const, status: 'overflow' as const, timeNs: 0 };
    expect(overflowConfirmed({ ...base, overflow: { op: '+', a: 1, b: 2 } })).toBe(false);
    expect(overflowConfirmed({ ...base, overflow: { op: '+', a: 2n ** 62n, b: 2n ** 62n } })).toBe(true);
    expect(overflowConfirmed({ ...base, overflow: { op: '/', a: -(2n ** 63n), b: -1 } })).toBe(true);
    expect(overflowConfirmed({ ...base, overflow: { op: '*', a: 2 ** 31, b: 2 ** 31 } })).toBe(false);
  });
});

describe('mangle', () => {
  it('is injective and yields C identifiers', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '_', '.', "'", 'd', 'x', '1') }), fc.string({ unit: fc.constantFrom('a', 'b', '_', '.', "'", 'd', 'x', '1') }), (s, t) => {
        expect(mangle(s)).toMatch(/^[A-Za-z0-9_]*$/);
        if (s !== t) expect(mangle(s)).not.toBe(mangle(t));
      }),
    );
  });
});
