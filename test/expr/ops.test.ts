// The operators of spec/expr.md against an independent bigint reference, and the algebraic laws
// the spec states (Euclidean division, totality, error absorption, canonical representation).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BITS, applyOp, div, mod, mul } from '../../src/expr/ops.js';
import { UserError } from '../../src/diag.js';
import { E_MEM, E_RDOM, type Int, type Value, isError, toBig } from '../../src/expr/value.js';
import { ALL_OPS, arbInt, arbValue } from '../../src/fuzz/arbitraries/expr.js';
import { OP_ARITY, type OpName } from '../../src/expr/ast.js';

const abs = (b: bigint) => (b < 0n ? -b : b);

/** Reference semantics written directly over bigint, without the fast path. */
function reference(o: OpName, a: bigint[]): bigint {
  const [x, y, z] = a as [bigint, bigint, bigint];
  const t = (b: boolean) => (b ? 1n : 0n);
  switch (o) {
    case '+': return x + y;
    case '-': return x - y;
    case '*': return x * y;
    case 'div': {
      if (y === 0n) return 0n;
      // search-free Euclidean quotient: floor for positive divisors, ceil for negative ones
      const q = x / y; // truncates
      const r = x - q * y;
      if (r >= 0n) return q;
      return y > 0n ? q - 1n : q + 1n;
    }
    case 'mod': {
      if (y === 0n) return 0n;
      const r = x % y;
      return r < 0n ? r + abs(y) : r;
    }
    case 'or': return t(x !== 0n || y !== 0n);
    case 'and': return t(x !== 0n && y !== 0n);
    case 'not': return t(x === 0n);
    case '<': return t(x < y);
    case '>': return t(x > y);
    case '=': return t(x === y);
    case 'select': return x !== 0n ? y : z;
    case 'min': return x < y ? x : y;
    case 'max': return x > y ? x : y;
  }
}

const canonical = (v: Int) =>
  typeof v === 'number' ? Number.isSafeInteger(v) && !Object.is(v, -0) : v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER);

describe('operators', () => {
  it.each(ALL_OPS)('%s agrees with the bigint reference and returns canonical integers', (o) => {
    fc.assert(
      fc.property(fc.array(arbInt, { minLength: OP_ARITY[o], maxLength: OP_ARITY[o] }), (args) => {
        const got = applyOp(o, args) as Int;
        expect(isError(got)).toBe(false);
        expect(canonical(got)).toBe(true);
        expect(toBig(got)).toBe(reference(o, args.map(toBig)));
      }),
      { numRuns: 2000 },
    );
  });

  it('division and remainder are Euclidean: a = b·q + r with 0 ≤ r < |b|', () => {
    fc.assert(
      fc.property(arbInt, arbInt, (a, b) => {
        fc.pre(b !== 0);
        const q = toBig(div(a, b));
        const r = toBig(mod(a, b));
        expect(toBig(b) * q + r).toBe(toBig(a));
        expect(r >= 0n && r < abs(toBig(b))).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('division and remainder by zero are zero (§2.9)', () => {
    fc.assert(
      fc.property(arbInt, (a) => {
        expect(div(a, 0)).toBe(0);
        expect(mod(a, 0)).toBe(0);
      }),
    );
  });

  it('logical operators and comparisons return exactly 0 or 1', () => {
    const logical: OpName[] = ['or', 'and', 'not', '<', '>', '='];
    fc.assert(
      fc.property(fc.constantFrom(...logical), arbInt, arbInt, (o, a, b) => {
        const r = applyOp(o, o === 'not' ? [a] : [a, b]);
        expect(r === 0 || r === 1).toBe(true);
      }),
    );
  });

  it('an operation involving error values yields the greatest of them (def. 2.6)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ALL_OPS).chain((o) => fc.tuple(fc.constant(o), fc.array(arbValue, { minLength: OP_ARITY[o], maxLength: OP_ARITY[o] }))),
        ([o, args]) => {
          const errs = args.filter(isError);
          fc.pre(errs.length > 0);
          const want: Value = errs.some((e) => e === E_MEM) ? E_MEM : E_RDOM;
          expect(applyOp(o, args)).toBe(want);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('select evaluates its untaken branch: an error there is the result', () => {
    expect(applyOp('select', [1, 5, E_RDOM])).toBe(E_RDOM);
    expect(applyOp('select', [0, E_MEM, 5])).toBe(E_MEM);
  });

  it('products that leave the safe range are exact', () => {
    const big = applyOp('*', [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);
    expect(big).toBe(BigInt(Number.MAX_SAFE_INTEGER) ** 2n);
    expect(applyOp('-', [big, big])).toBe(0);
  });
});

describe('[VAL-LIMIT] integer size limit', () => {
  it('computes products up to the limit exactly and refuses larger ones with a resource error', () => {
    const big = 1n << BigInt(MAX_BITS / 2 - 64);
    expect(mul(big, big)).toBe(1n << BigInt(MAX_BITS - 128));
    const huge = 1n << BigInt(MAX_BITS / 2 + 64);
    expect(() => mul(huge, huge)).toThrow(UserError);
    expect(() => mul(huge, -huge)).toThrow(/the evaluators stop at integers of 1048576 bits \[VAL-LIMIT\]/);
    // Small factors never meet the limit, whatever the other operand.
    expect(mul(huge, 3)).toBe(huge * 3n);
  });
});
