// FPIR syntax and typing: round trips, literal typing, located errors for ill-typed input.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { parseFpir } from '../../src/fpir/parse.js';
import { printFpir } from '../../src/fpir/print.js';
import { evalVector } from '../../src/fpir/eval.js';
import { type FExpr, varsOf } from '../../src/fpir/ast.js';
import type { ScalarType } from '../../src/fpir/types.js';

const err = (text: string): string => {
  try {
    parseFpir(text, 'k.fpir');
  } catch (e) {
    if (e instanceof UserError) return e.render();
    throw e;
  }
  throw new Error(`accepted: ${text}`);
};

describe('FPIR-SYNTAX', () => {
  it.each([
    'saturating_cast<u8>(absd(widening_add(a_u8, c_u8) + widening_shl(b_u8, 1), widening_add(d_u8, f_u8) + widening_shl(e_u8, 1)))',
    'u8(min(x_u16, 255))',
    'select(x_i8 > y_i8, x_i8 - y_i8, 0)',
    'mul_shr(x_i16, y_i16, 16)',
    'x_u16 >> u16(3)',
    'extending_add(x_u16, 7)',
    'halving_sub(x_i32, -3)',
  ])('prints what it parses: %s', (text) => {
    const e = parseFpir(text);
    expect(printFpir(parseFpir(printFpir(e)))).toBe(printFpir(e));
    expect(parseFpir(printFpir(e))).toEqual(parseFpir(printFpir(e)));
  });

  it('prints an operator between two literals so that it parses again (a typed first literal)', () => {
    const u8: ScalarType = { signed: false, bits: 8 };
    const lit = (value: bigint): FExpr => ({ k: 'const', value, type: u8 });
    const two: FExpr = { k: 'prim', op: 'min', type: u8, args: [lit(7n), lit(64n)] };
    const sum: FExpr = { k: 'prim', op: '+', type: u8, args: [lit(7n), lit(64n)] };
    expect(printFpir(two)).toBe('min(u8(7), 64)');
    for (const e of [two, sum]) {
      const back = parseFpir(printFpir(e));
      expect(back.k === 'prim' && back.args.map((a) => [a.k, a.type])).toEqual([['const', u8], ['const', u8]]);
      expect(printFpir(back)).toBe(printFpir(e));
    }
  });

  it('reports errors at their line and column', () => {
    expect(err('x_u8 +\n  y_u16')).toMatch(/^k\.fpir:1:6: error: \[FPIR-TYPING\] '\+' on mixed types u8 and u16/);
    expect(err('widening_add(x_u8, y_u16)')).toMatch(/^k\.fpir:1:1: error: \[FPIR-TYPING\] widening_add: operands must have the same width/);
    expect(err('x_u8 + 300')).toMatch(/^k\.fpir:1:8: error: \[FPIR-TYPING\] literal 300 does not fit u8/);
    expect(err('x + 1')).toMatch(/^k\.fpir:1:1: error: \[FPIR-SYNTAX\] 'x' is no variable/);
    expect(err('widening_add(x_u64, y_u64)')).toMatch(/u64 has no wider type/);
    expect(err('1 + 2')).toMatch(/cannot tell the type/);
    expect(err('saturating_add(x_u8)')).toMatch(/takes 2 operands, got 1/);
    expect(err('x_u8 $ 1')).toMatch(/^k\.fpir:1:6: error: \[FPIR-SYNTAX\] unexpected character/);
  });

  it('hints suggest only types that hold the literal (they offered i8 for 300 and u8(1000))', () => {
    expect(err('x_u8 + 300')).toContain('hint: use a value within u8, or make the other operand u16 or wider');
    expect(err('1000')).toContain('hint: give it one, e.g. u16(1000)');
    expect(err('70000 + 5')).toContain('e.g. u32(70000)');
    expect(err('-3 + 1')).toContain('e.g. i8(-3)');
    expect(err('99999999999999999999999 + 1')).toContain('fits no integer type');
  });
});

describe('FPIR-EVAL', () => {
  it('FPIR-TYPES and FPIR-EXACT: 64-bit instructions saturate and wrap like 8-bit ones (FPIR-MIXED-SIGN keeps widths equal)', () => {
    const one = (t: string, env: Record<string, bigint>) => evalVector(parseFpir(t), new Map(Object.entries(env).map(([k, v]) => [k, [v]])), varsOf(parseFpir(t)))[0];
    expect(one('saturating_add(x_u64, y_u64)', { x_u64: 2n ** 64n - 2n, y_u64: 5n })).toBe(2n ** 64n - 1n);
    expect(one('saturating_sub(x_i64, y_i64)', { x_i64: -(2n ** 63n), y_i64: 1n })).toBe(-(2n ** 63n));
    expect(one('halving_add(x_i64, y_i64)', { x_i64: 2n ** 63n - 1n, y_i64: 2n ** 63n - 1n })).toBe(2n ** 63n - 1n);
    expect(one('widening_mul(x_u32, y_i32)', { x_u32: 2n ** 32n - 1n, y_i32: -(2n ** 31n) })).toBe((2n ** 32n - 1n) * -(2n ** 31n));
    expect(printFpir(parseFpir('widening_mul(x_u8, y_i8)'))).toBe('widening_mul(x_u8, y_i8)');
    expect(parseFpir('widening_mul(x_u8, y_i8)').type).toEqual({ signed: true, bits: 16 });
  });

  it('evaluates lane by lane and rejects lanes outside their type', () => {
    const e = parseFpir('saturating_add(x_u8, y_u8)');
    expect(evalVector(e, new Map([['x_u8', [1n, 200n]], ['y_u8', [2n, 100n]]]), varsOf(e))).toEqual([3n, 255n]);
    expect(() => evalVector(e, new Map([['x_u8', [256n]], ['y_u8', [0n]]]), varsOf(e))).toThrow(/256 is no u8/);
  });
  it('FPIR-PRIM wraps, FPIR-DIV is Euclidean and total, FPIR-SHIFT takes amounts of any size', () => {
    const one = (t: string) => evalVector(parseFpir(t), new Map(), [])[0];
    expect(one('i8(127) + 1')).toBe(-128n);
    expect(one('i8(-7) / 2')).toBe(-4n);
    expect(one('i8(-7) % 2')).toBe(1n);
    expect(one('i8(7) / 0')).toBe(0n);
    expect(one('i8(-128) / -1')).toBe(-128n);
    expect(one('u8(200) >> 9')).toBe(0n);
    expect(one('i8(-100) >> 100')).toBe(-1n);
    expect(one('u8(3) << -1')).toBe(1n);
    expect(one('u8(3) << 7')).toBe(128n);
  });
});
