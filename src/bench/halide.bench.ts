// Halide 14 as a peer (spec/halide.md): programs per second through the bridge and its server
// (a campaign of the `halide` property on two jobs), and, on the blur and on Harris under one
// Halide-style schedule (examples/*.halide, inlining included), the run time of Halide's JIT code
// against refsem's fast executor and its emitted C, scalar and SIMD, measured in one run on one
// thread each. Without the bindings the module reports that and measures nothing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Input, Pipeline } from '../alg-semantics/ast.js';
import { int } from '../expr/value.js';
import { DEFAULT_CONFIG } from '../fuzz/env.js';
import { startCampaign } from '../fuzz/runner.js';
import { NO_SHARD } from '../fuzz/seed.js';
import { halideProgram, type ScheduleStep } from '../halide/emit.js';
import { readBridged } from '../halide/load.js';
import { halideAvailable, runHalide } from '../halide/run.js';
import { complete } from '../pipeline.js';
import { BUILTIN_ENGINES } from '../bounds/engine.js';
import { compileTgt } from '../target-semantics/exec.js';
import { lower } from '../lowering/lower.js';
import { compileAndRun } from '../codegen/toolchain.js';
import { exampleFile } from './examples.js';
import { fastestMs, median, round } from './timing.js';

export const name = 'halide';
export const group = 'core';

const CAMPAIGN_RUNS = 150;
const TIMED_RUNS = 20;

/** Programs per second of a `fuzz --backend halide` campaign on two jobs, with its verdicts. */
async function throughput(): Promise<object> {
  const out = mkdtempSync(join(tmpdir(), 'refsem-bench-halide-'));
  const t0 = performance.now();
  const c = await startCampaign({
    properties: ['halide'], seed: 3, runs: CAMPAIGN_RUNS, jobs: 2, shard: NO_SHARD, config: DEFAULT_CONFIG, out, budgetMs: 60_000,
  }).done;
  const s = (performance.now() - t0) / 1000;
  return { jobs: 2, programs: c.runs, seconds: round(s), programs_per_s: round(c.runs / s), verdicts: c.halide ?? null };
}

/** The best of TIMED_RUNS realizations by Halide's JIT code (compiled once, outside the timing). */
async function halideMs(p: Pipeline, steps: readonly ScheduleStep[], z: Input): Promise<number> {
  const r = await runHalide(halideProgram(p, steps, z, { timedRuns: TIMED_RUNS }), 300_000);
  if (r.kind !== 'values' || r.ms === undefined) throw new Error(`Halide did not run the benchmark: ${r.kind === 'values' ? 'no time' : r.message}`);
  return r.ms;
}

/** One pipeline under one schedule: Halide's JIT, the fast executor, emitted C scalar and SIMD. */
async function compareOn(alg: string, sched: string, window: readonly [number, number][]): Promise<object> {
  const { alg: p, steps } = await readBridged({ prog: exampleFile(alg), schedule: exampleFile(sched), directives: [] });
  const z: Input = { window: window.map(([m, l]) => [int(m), int(l)] as const), params: new Map() };
  const t = complete(steps.length > 0 ? steps[steps.length - 1]!.after : lower(p), BUILTIN_ENGINES.beta1!);
  const exec = compileTgt(t);
  const execMs = median([0, 1, 2].map(() => {
    const t0 = performance.now();
    exec.run(z);
    return performance.now() - t0;
  }));
  const zs = [z, z, z, z, z];
  const configs = [{ t, inputs: zs, emit: { simd: 'none' as const } }, { t, inputs: zs, emit: { simd: 'auto' as const } }];
  const res = await compileAndRun(configs, { repeat: TIMED_RUNS, jobs: 1, env: { ...process.env, OMP_NUM_THREADS: '1' } });
  const [scalarMs, simdMs] = fastestMs(res, configs.length) as [number, number];
  const jitMs = await halideMs(p, steps, z);
  return {
    schedule: sched,
    window: window.map(([m, l]) => `${m}+${l}`).join(','),
    halide_jit_ms: round(jitMs),
    fast_executor_ms: round(execMs),
    c_scalar_ms: round(scalarMs),
    c_simd_ms: round(simdMs),
    c_scalar_over_halide: round(scalarMs / jitMs),
    c_simd_over_halide: round(simdMs / jitMs),
  };
}

export async function run(): Promise<object> {
  if (!halideAvailable()) return { skipped: 'python3-halide is not installed for /usr/bin/python3' };
  // One thread everywhere: the comparison is about the code, not the machine's cores.
  process.env.HL_NUM_THREADS = '1';
  return {
    bridge: await throughput(),
    blur_512: await compareOn('blur.alg', 'blur.halide', [[0, 512], [0, 512]]),
    harris_256: await compareOn('harris.alg', 'harris.halide', [[0, 256], [0, 256]]),
  };
}
