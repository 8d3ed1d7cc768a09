// The seed's fixed-point kernels (examples/fpir/, spec/fpir.md [FPIR-BENCH]): refsem's lifted and
// selected AVX2 intrinsics against the same plain C at -O3 -march=native, both equal to the
// interpreter, timed side by side in one program; the geometric-mean speed-up beside the seed's.
import { SEED_AVX2_GEOMEAN, benchKernels, geomean, kernelsIn } from '../codegen/fpir-bench.js';
import { exampleFile } from './examples.js';
import { round } from './timing.js';

export const name = 'fpir-suite';
export const group = 'core';

export async function run(): Promise<object> {
  const results = await benchKernels(kernelsIn(exampleFile('fpir')), { runs: 3 });
  return {
    kernels: results.length,
    all_equal_to_interpreter: results.every((r) => r.equal),
    geomean_speedup_over_plain_c_O3: round(geomean(results.map((r) => r.speedup)), 2),
    seed_avx2_geomean_over_llvm: SEED_AVX2_GEOMEAN,
    slower_than_plain_c: results.filter((r) => r.speedup < 1).map((r) => r.kernel),
    speedups: Object.fromEntries(results.map((r) => [r.kernel, round(r.speedup, 2)])),
  };
}
