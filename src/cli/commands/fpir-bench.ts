// `refsem fpir-bench [DIR] [--json]`: the seed's fixed-point kernels (examples/fpir/) as refsem's
// selected intrinsics against the same plain C at -O3 -march=native, both checked against the
// interpreter and timed (spec/fpir.md, [FPIR-BENCH]); exit 1 when a version differs.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Register } from './index.js';
import { UserError, argLoc } from '../../diag.js';
import { SEED_AVX2_GEOMEAN as SEED_AVX2, benchKernels, geomean, kernelsIn } from '../../codegen/fpir-bench.js';

export const register: Register = (program, io, setExit) => {
  program
    .command('fpir-bench [dir]')
    .description('time the fixed-point kernels: selected intrinsics against plain C at -O3 -march=native (spec/fpir.md)')
    .option('--json', 'print one JSON object')
    .option('--runs <n>', 'runs of the program; each kernel keeps its best', '3')
    .action(async (dir: string | undefined, o: { json?: boolean; runs: string }) => {
      const runs = Number(o.runs);
      if (!Number.isInteger(runs) || runs < 1) throw new UserError(`--runs needs a positive integer, got '${o.runs}'`, argLoc('--runs', o.runs));
      const root = dir ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'examples', 'fpir');
      let kernels;
      try {
        kernels = kernelsIn(root);
      } catch {
        throw new UserError(`cannot read the kernels in '${root}'`, argLoc('dir', root), 'give a directory of .fpir files');
      }
      if (kernels.length === 0) throw new UserError(`no .fpir kernels in '${root}'`, argLoc('dir', root));
      const results = await benchKernels(kernels, { runs });
      const g = geomean(results.map((r) => r.speedup));
      if (o.json) io.out(`${JSON.stringify({ target: 'avx2', geomean_speedup: g, seed_avx2_geomean: SEED_AVX2, kernels: results }, null, 1)}\n`);
      else {
        for (const r of results) io.out(`${r.kernel.padEnd(18)} ${r.equal ? 'equal' : 'DIFFERS'}  selected ${r.selectedNsPerLane.toFixed(3)} ns/lane  plain C ${r.portableNsPerLane.toFixed(3)} ns/lane  speed-up ${r.speedup.toFixed(2)}x${r.detail ? `\n  ${r.detail}` : ''}\n`);
        io.out(`geometric mean speed-up ${g.toFixed(2)}x over plain C at -O3 -march=native on ${results.length} kernels (Pitchfork: ${SEED_AVX2}x over LLVM on AVX2)\n`);
      }
      if (results.some((r) => !r.equal)) setExit(1);
    });
};
