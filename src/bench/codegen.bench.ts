// Code generation benchmarks (spec/codegen.md): validation throughput of the batched toolchain on
// small generated programs, and the run time of the emitted C for the blur example at 512×512
// against the fast executor, scalar against SIMD.
import fc from 'fast-check';
import type { Input } from '../alg-semantics/ast.js';
import { arbTgtInput, arbTgtProgram } from '../fuzz/arbitraries/tgt.js';
import { compileTgt } from '../target-semantics/exec.js';
import { parseTgt } from '../target-semantics/parse.js';
import { compileAndRun, detectToolchain } from '../codegen/toolchain.js';
import { validateBatch } from '../codegen/validate.js';
import { readExample } from './examples.js';
import { fastestMs, median, round } from './timing.js';

export const name = 'codegen';
export const group = 'core';

/** Programs validated per second: emit, compile one batch, run, judge against the reference. */
async function throughput(n: number, backend: 'c' | 'simd'): Promise<number> {
  const progs = fc.sample(arbTgtProgram(), { seed: 3, numRuns: n });
  const inputs = fc.sample(arbTgtInput, { seed: 4, numRuns: 3 * n });
  const items = progs.map((t, i) => ({ t, inputs: inputs.slice(3 * i, 3 * i + 3) }));
  const t0 = performance.now();
  await validateBatch(items, { backend, checked: true, maxSteps: 100_000, runTimeoutMs: 5000 });
  return n / ((performance.now() - t0) / 1000);
}

export async function run(): Promise<object> {
  const tc = detectToolchain();
  const text = readExample('blur.tgt');
  const blur = parseTgt(text, 'blur.tgt');
  const blurVec = parseTgt(text.replace(/for (\w+)\.s0\.x/g, 'for vectorize $1.s0.x'), 'blurv.tgt');
  const z: Input = { window: [[0, 512], [0, 512]], params: new Map() };

  const exec = compileTgt(blur);
  const execMs = median([0, 1, 2].map(() => {
    const t0 = performance.now();
    exec.run(z);
    return performance.now() - t0;
  }));

  // Each configuration runs 5 times (10 calls each, interleaved with the others); the fastest mean
  // counts, which filters out the noise of other processes.
  const reps = 10;
  const zs = [z, z, z, z, z];
  const configs = [
    { t: blur, inputs: zs, emit: { simd: 'none' as const } },
    { t: blurVec, inputs: zs, emit: { simd: 'none' as const } },
    { t: blurVec, inputs: zs, emit: { simd: 'auto' as const } },
    { t: blurVec, inputs: zs, emit: { simd: 'avx2' as const } },
    { t: blurVec, inputs: zs, emit: { simd: 'generic' as const } },
  ];
  // One thread: the comparison is about the code, not about how busy the machine is.
  const res = await compileAndRun(configs, { repeat: reps, jobs: 1, env: { ...process.env, OMP_NUM_THREADS: '1' } });
  const ms = fastestMs(res, configs.length);
  const [scalarMs, scalarVecSchedMs, simdMs, avx2Ms, genericMs] = ms as [number, number, number, number, number];

  return {
    compiler: tc.version,
    openmp: tc.openmp,
    validated_programs_per_s_c: round(await throughput(60, 'c')),
    validated_programs_per_s_simd: round(await throughput(30, 'simd')),
    blur_512: {
      fast_executor_ms: round(execMs),
      c_scalar_ms: round(scalarMs),
      c_scalar_vectorize_schedule_ms: round(scalarVecSchedMs),
      simd_auto_ms: round(simdMs),
      simd_avx2_ms: round(avx2Ms),
      simd_generic_ms: round(genericMs),
      executor_over_c_scalar: round(execMs / scalarMs),
      simd_speedup_over_scalar: round(scalarVecSchedMs / simdMs),
    },
  };
}
