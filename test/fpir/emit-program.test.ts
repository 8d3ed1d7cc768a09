// FPIR-EMIT-PROGRAM: portable lanes of the instructions whose exact values need the most bits,
// and of those computed on 32- or 64-bit integers instead of 128-bit ones, at their boundaries.
import { describe, expect, it } from 'vitest';
import { type RunItem, runSelectedAll } from '../../src/codegen/fpir-run.js';
import { varsOf } from '../../src/fpir/ast.js';
import { parseFpir } from '../../src/fpir/parse.js';
import { selectInstructions } from '../../src/fpir/select.js';
import { typeNamed, inRange } from '../../src/fpir/types.js';

const I64 = [-(2n ** 63n), -(2n ** 63n) + 1n, -(2n ** 32n), -3n, -1n, 0n, 1n, 2n, 3n, 2n ** 31n, 2n ** 62n + 5n, 2n ** 63n - 1n];
const U64 = [0n, 1n, 2n, 3n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 2n, 2n ** 64n - 1n];
const SHIFTS = [0n, 1n, 2n, 31n, 62n, 63n, 64n, 65n, 126n, 127n, 128n, 129n, 200n, 2n ** 62n];

/** Values of a narrow type around the powers of two where 32- and 64-bit helpers could go wrong. */
const around = (t: string): bigint[] => {
  const ty = typeNamed(t)!;
  const vs = [0n, 1n, 2n, 3n, -1n, -2n, -3n];
  for (const k of [7, 8, 14, 15, 16, 17, 29, 30, 31, 32]) for (const d of [-1n, 0n, 1n]) vs.push((1n << BigInt(k)) + d, -(1n << BigInt(k)) + d);
  return [...new Set(vs.filter((v) => inRange(v, ty)))];
};

/** Every combination of the variables' values, padded to whole vectors of the target. */
function lanes(cols: readonly (readonly bigint[])[]): bigint[][] {
  let rows: bigint[][] = [[]];
  for (const c of cols) rows = rows.flatMap((r) => c.map((v) => [...r, v]));
  while (rows.length % 32 !== 0) rows.push(rows[0]!);
  return rows;
}

const CASES: readonly [string, (readonly bigint[])[]][] = [
  ['mul_shr(x_i64, y_i64, z_i64)', [I64, I64, [...SHIFTS, -1n, -2n, -63n, -64n, -65n, -(2n ** 63n)]]],
  ['rounding_mul_shr(x_i64, y_i64, z_i64)', [I64, I64, [...SHIFTS, -1n, -64n, -(2n ** 63n)]]],
  ['mul_shr(x_u64, y_u64, z_u64)', [U64, U64, [...SHIFTS, 2n ** 64n - 1n]]],
  ['rounding_mul_shr(x_u64, y_u64, z_u64)', [U64, U64, [...SHIFTS, 2n ** 64n - 1n]]],
  // On 64-bit integers: 16-bit products, 32-bit operands.
  ['rounding_mul_shr(x_i16, y_i16, z_i16)', [around('i16'), around('i16'), around('i16')]],
  ['mul_shr(x_u16, y_u16, z_u16)', [around('u16'), around('u16'), around('u16')]],
  ['x_u32 * y_u32', [around('u32'), around('u32')]],
  ['x_i32 / y_i32', [around('i32'), around('i32')]],
  ['rounding_shr(x_i32, y_i32)', [around('i32'), around('i32')]],
  ['saturating_shl(x_u32, y_u32)', [around('u32'), around('u32')]],
  ['widening_mul(x_u16, y_u16)', [around('u16'), around('u16')]],
  ['abs(x_i32)', [around('i32')]],
  // On 32-bit integers: operands and results within 16 bits.
  ['rounding_shr(x_u16, y_u16)', [around('u16'), around('u16')]],
  ['rounding_shl(x_i16, y_i16)', [around('i16'), around('i16')]],
  ['saturating_shl(x_i16, y_i16)', [around('i16'), around('i16')]],
  ['x_i16 >> y_i16', [around('i16'), around('i16')]],
  ['x_u16 << y_u16', [around('u16'), around('u16')]],
  ['x_i16 % y_i16', [around('i16'), around('i16')]],
  ['saturating_sub(x_i16, y_i16)', [around('i16'), around('i16')]],
  ['rounding_halving_add(x_u16, y_u16)', [around('u16'), around('u16')]],
  ['widening_mul(x_i8, y_u8)', [around('i8'), around('u8')]],
  ['u8(x_i16 * 6)', [around('i16')]],
];

describe('FPIR-EMIT-PROGRAM', () => {
  it('runs every portable lane like the interpreter, on 128-, 64- and 32-bit exact integers (one program)', async () => {
    const items: RunItem[] = CASES.map(([src, cols]) => {
      const e = parseFpir(src);
      const rows = lanes(cols);
      // No rules: every node is portable.
      return { expr: e, sel: selectInstructions(e, 'avx2', []), target: 'avx2', env: new Map(varsOf(e).map((v, i) => [v.name, rows.map((r) => r[i]!)])) };
    });
    const out = await runSelectedAll(items);
    expect(out.map((r, i) => `${CASES[i]![0]}: ${r.status} ${r.detail ?? ''}`.trim())).toEqual(CASES.map(([src]) => `${src}: agree`));
  }, 120_000);
});
