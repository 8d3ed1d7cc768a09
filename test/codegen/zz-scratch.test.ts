import { it, expect } from 'vitest';
import fc from 'fast-check';
import type { Expr } from '../../src/expr/ast.js';
import { arbExpr } from '../../src/fuzz/arbitraries/expr.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { printExpr } from '../../src/expr/print.js';
import { validateBatch, showVerdict } from '../../src/codegen/validate.js';
import { input, tgt } from './support.js';
const printE = (e: Expr) => printExpr(e, 'tgt');
const arbVectorProgram: fc.Arbitrary<TgtProgram> = fc
  .record({
    g: arbExpr({ vars: ['g.s0.x', 'n'], depth: 3 }),
    f: arbExpr({ vars: ['f.s0.x', 'n', 'a', 'b', 'c'], depth: 3 }),
    shift: fc.integer({ min: -3, max: 3 }),
    gather: arbExpr({ vars: ['f.s0.x'], depth: 2 }),
  })
  .map(({ g, f, shift, gather }) => {
    const show = (e: Expr) => printE(e);
    return tgt(`pipeline f(n; x in (x.min, x.len)):
{
  allocate g(x in (x.min - 8, x.len + 16));
  for g.s0.x in (x.min - 8, x.len + 16) do g[g.s0.x] <- ${show(g)};
  allocate f(x in (x.min, x.len));
  for vectorize f.s0.x in (x.min, x.len) do
    let a = g[f.s0.x + ${shift}] in let b = g[f.s0.x] in let c = g[x.min + (${show(gather)}) % (x.len + 16) - 8] in
    f[f.s0.x] <- (${show(f)}) * n + a
}`);
  });


it('narrow fuzz', async () => {
  for (const seed of [21, 22, 23]) {
    const progs = fc.sample(arbVectorProgram, { seed, numRuns: 60 });
    const items = progs.map((t, i) => ({ t, inputs: [input([[i % 5 - 2, 9 + (i % 11)]], { n: (i % 9) - 4 }), input([[3, 17]], { n: 100000 + i }), input([[-30000, 17]], { n: 2 ** 20 + i })] }));
    for (const simd of ['avx512', 'avx2'] as const) {
      const vs = await validateBatch(items, { backend: 'simd', simd, maxSteps: 200_000 });
      const bad = vs.flatMap((row, i) => row.flatMap((v, j) => v.ok ? [] : [[i, j, showVerdict(v)]]));
      console.log(seed, simd, vs.flat().filter((v) => v.kind === 'equal').length, 'equal', bad.slice(0, 3));
      if (bad.length) console.log(printExpr as unknown as string, require('../../src/target-semantics/print.js').printTgt(items[bad[0]![0] as number]!.t));
      expect(bad).toEqual([]);
    }
  }
}, 900_000);
