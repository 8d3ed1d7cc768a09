// FPIR-EMIT-PROGRAM: portable lanes of the instructions whose exact values need the most bits.
import { describe, expect, it } from 'vitest';
import { runSelected } from '../../src/codegen/fpir-run.js';
import { varsOf } from '../../src/fpir/ast.js';
import { parseFpir } from '../../src/fpir/parse.js';
import { selectInstructions } from '../../src/fpir/select.js';

const I64 = [-(2n ** 63n), -(2n ** 63n) + 1n, -(2n ** 32n), -3n, -1n, 0n, 1n, 2n, 3n, 2n ** 31n, 2n ** 62n + 5n, 2n ** 63n - 1n];
const U64 = [0n, 1n, 2n, 3n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 2n, 2n ** 64n - 1n];
const SHIFTS = [0n, 1n, 2n, 31n, 62n, 63n, 64n, 65n, 126n, 127n, 128n, 129n, 200n, 2n ** 62n];

/** Every combination of x, y and z, padded to whole vectors of the target. */
function lanes(xs: readonly bigint[], zs: readonly bigint[]): bigint[][] {
  const rows: bigint[][] = [];
  for (const x of xs) for (const y of xs) for (const z of zs) rows.push([x, y, z]);
  while (rows.length % 32 !== 0) rows.push(rows[0]!);
  return rows;
}

describe('FPIR-EMIT-PROGRAM', () => {
  it.each([
    ['mul_shr(x_i64, y_i64, z_i64)', I64, [...SHIFTS, -1n, -2n, -63n, -64n, -65n, -(2n ** 63n)]],
    ['rounding_mul_shr(x_i64, y_i64, z_i64)', I64, [...SHIFTS, -1n, -64n, -(2n ** 63n)]],
    ['mul_shr(x_u64, y_u64, z_u64)', U64, [...SHIFTS, 2n ** 64n - 1n]],
    ['rounding_mul_shr(x_u64, y_u64, z_u64)', U64, [...SHIFTS, 2n ** 64n - 1n]],
  ])('runs %s on 64-bit lanes like the interpreter (such code used to be refused)', async (src, xs, zs) => {
    const e = parseFpir(src);
    const rows = lanes(xs, zs);
    const env = new Map(varsOf(e).map((v, i) => [v.name, rows.map((r) => r[i]!)]));
    const r = await runSelected(e, selectInstructions(e, 'avx2'), 'avx2', env);
    expect(r.detail ?? '').toBe('');
    expect(r.status).toBe('agree');
  });
});
