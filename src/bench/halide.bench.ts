// Halide 14 as a peer (spec/halide.md): programs per second through the bridge and its server
// (a campaign of the `halide` property on two jobs), where the time of one check goes (refsem's
// side, Halide's answer, and the fixed costs of the server), and, on the blur and on Harris under one
// Halide-style schedule (examples/*.halide, inlining included), the run time of Halide's JIT code
// against refsem's fast executor and its emitted C, scalar and SIMD, measured in one run on one
// thread each, taking turns; the apps suite (examples/apps/) the same way, with the lines and
// batch times of each C build. Without the bindings the module reports that and measures nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Input, Pipeline } from '../alg-semantics/ast.js';
import { int } from '../expr/value.js';
import { DEFAULT_CONFIG } from '../fuzz/env.js';
import { startCampaign } from '../fuzz/runner.js';
import { NO_SHARD, checkSeed } from '../fuzz/seed.js';
import { generated } from '../fuzz/check.js';
import { makeEnv } from '../fuzz/make-env.js';
import { propertyNamed } from '../fuzz/properties/index.js';
import { halideProgram, narrowType, type ScheduleStep } from '../halide/emit.js';
import { readBridged } from '../halide/load.js';
import { PYTHON, halideAvailable, halideSpent, runHalide } from '../halide/run.js';
import { HalideServer } from '../halide/server.js';
import { complete } from '../pipeline.js';
import { BUILTIN_ENGINES } from '../bounds/engine.js';
import { compileTgt } from '../target-semantics/exec.js';
import { lower } from '../lowering/lower.js';
import { compileAndRun } from '../codegen/toolchain.js';
import { widestHostIsa } from '../codegen/cpu.js';
import { emitC } from '../codegen/emit-c.js';
import { funcRanges } from '../codegen/ranges.js';
import { exampleFile } from './examples.js';
import { fastestMs, median, round } from './timing.js';

export const name = 'halide';
export const group = 'long';

const CAMPAIGN_RUNS = 150;
const CAMPAIGN_SEED = 3;
const PHASE_CHECKS = 40;
const TIMED_RUNS = 20;

/** Programs per second of a `fuzz --backend halide` campaign on two jobs, with its verdicts. */
async function throughput(): Promise<object> {
  const out = mkdtempSync(join(tmpdir(), 'refsem-bench-halide-'));
  const t0 = performance.now();
  const c = await startCampaign({
    properties: ['halide'], seed: CAMPAIGN_SEED, runs: CAMPAIGN_RUNS, jobs: 2, shard: NO_SHARD, config: DEFAULT_CONFIG, out, budgetMs: 60_000,
  }).done;
  const s = (performance.now() - t0) / 1000;
  return { jobs: 2, programs: c.runs, seconds: round(s), programs_per_s: round(c.runs / s), verdicts: c.halide ?? null };
}

/**
 * Where the time of a check goes, on one thread over the campaign's first checks: making the case
 * (generation, the schedule applied), refsem's side of the check (its own run of the schedule, the
 * bridged program, the algorithm's values) and Halide's answer (fork, the Func graph, JIT
 * compilation, realization). Wall times suffer from other load on the machine; CPU times (refsem's
 * process, the programs' processes) much less, and they bound what two otherwise idle cores sustain.
 */
async function phases(): Promise<object> {
  const env = await makeEnv(DEFAULT_CONFIG);
  const prop = propertyNamed('halide');
  let make = 0;
  let check = 0;
  const before = halideSpent();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < PHASE_CHECKS; i++) {
    const t0 = performance.now();
    const c = prop.concretize(generated(prop, env, checkSeed(CAMPAIGN_SEED, i)), env);
    const t1 = performance.now();
    await prop.checkAsync!(c, env);
    make += t1 - t0;
    check += performance.now() - t1;
  }
  const cpu = process.cpuUsage(cpu0);
  const after = halideSpent();
  const refsemCpu = (cpu.user + cpu.system) / 1000 / PHASE_CHECKS;
  const halideCpu = (after.cpuMs - before.cpuMs) / PHASE_CHECKS;
  const per = (ms: number) => round(ms / PHASE_CHECKS);
  return {
    checks: PHASE_CHECKS,
    make_case_ms: per(make),
    refsem_check_ms: per(check - (after.waitedMs - before.waitedMs)),
    halide_answer_ms: per(after.waitedMs - before.waitedMs),
    refsem_cpu_ms: round(refsemCpu),
    halide_cpu_ms: round(halideCpu),
    cpu_bound_programs_per_s_on_2_cores: round(2000 / (refsemCpu + halideCpu)),
  };
}

const ONE_FUNC = "import halide as hl\nx = hl.Var('x')\nf = hl.Func('f')\nf[x] = x\nf.realize([1])\n";

/**
 * The server's fixed costs: starting one (Python, Halide's import, the warm-up), an empty program
 * (fork and answer), a one-func pipeline (what any JIT compilation costs, wall and CPU), and the CPU
 * time of compiling Halide's runtime in a process that has not yet (what the warm-up saves every
 * program).
 */
async function serverCosts(): Promise<object> {
  const s = new HalideServer(PYTHON);
  const t0 = performance.now();
  await s.run('', 60_000);
  const startMs = performance.now() - t0;
  const runs = async (script: string) => {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      cpu.push((await s.run(script, 60_000)).cpuMs);
      wall.push(performance.now() - t);
    }
    return { wall: round(median(wall)), cpu: round(median(cpu)) };
  };
  const empty = await runs('');
  const oneFunc = await runs(ONE_FUNC);
  s.close();
  const runtime = spawnSync(PYTHON, ['-c', "import time, halide as hl\ndef once():\n    x = hl.Var('x'); f = hl.Func('f'); f[x] = x\n    t = time.process_time(); f.realize([1]); return (time.process_time() - t) * 1000\nprint(once() - once())\n"], { encoding: 'utf8' });
  return {
    server_start_ms: round(startMs),
    empty_program_ms: empty.wall,
    one_func_pipeline_ms: oneFunc.wall,
    one_func_pipeline_cpu_ms: oneFunc.cpu,
    halide_runtime_compile_cpu_ms: round(Number(runtime.stdout.trim())),
  };
}

/**
 * The best of TIMED_RUNS realizations by Halide's JIT code (compiled once, outside the timing), and
 * the values realized; `types` gives the funcs narrow types ([HALIDE-NARROW]).
 */
async function halideRun(p: Pipeline, steps: readonly ScheduleStep[], z: Input, types?: ReadonlyMap<string, string>): Promise<{ ms: number; values: readonly string[] }> {
  const r = await runHalide(halideProgram(p, steps, z, { timedRuns: TIMED_RUNS, ...(types ? { types } : {}) }), 300_000);
  if (r.kind !== 'values' || r.ms === undefined) throw new Error(`Halide did not run the benchmark: ${r.kind === 'values' ? 'no time' : r.message}`);
  return { ms: r.ms, values: r.values };
}


/** Rounds of the side-by-side comparison: C scalar, C SIMD and Halide's JIT take turns. */
const ROUNDS = 2;

const HOST_ISA = widestHostIsa();

/**
 * One pipeline under one schedule: Halide's JIT, the fast executor, emitted C scalar and SIMD.
 * The three take turns for ROUNDS rounds, each timed best of TIMED_RUNS per round, and the best
 * round counts, so that a burst of load on the shared machine falls on all of them alike. Each C
 * build reports its lines and the wall time of its batch: compile, plus its timed runs, whose
 * total (each run's reported time × the repetitions) is reported apart.
 */
async function compareOn(alg: string, sched: string, window: readonly (readonly [number, number])[]): Promise<object> {
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
  const builds = { scalar: 'none', simd: HOST_ISA } as const;
  const ranges = funcRanges(t);
  const types = new Map(p.funcs.map((f) => [f.name, narrowType(ranges.get(f.name))]));
  let narrowEqual = true;
  const best = { scalar: Infinity, simd: Infinity, jit: Infinity, narrow: Infinity };
  const batch = { scalar: Infinity, simd: Infinity };
  const runsMs = { scalar: 0, simd: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    for (const b of ['scalar', 'simd'] as const) {
      const t0 = performance.now();
      const res = await compileAndRun([{ t, inputs: zs, emit: { simd: builds[b] } }], { repeat: TIMED_RUNS, jobs: 1, env: { ...process.env, OMP_NUM_THREADS: '1' } });
      batch[b] = Math.min(batch[b], performance.now() - t0);
      best[b] = Math.min(best[b], fastestMs(res, 1)[0]!);
      runsMs[b] = res.reduce((a, x) => a + (x.kind === 'ran' ? (x.timeNs / 1e6) * TIMED_RUNS : 0), 0);
    }
    const wide = await halideRun(p, steps, z);
    best.jit = Math.min(best.jit, wide.ms);
    // Int(32) arithmetic may wrap where refsem's does not: the narrow times count only if the values agree.
    const narrow = await halideRun(p, steps, z, types);
    narrowEqual &&= narrow.values.length === wide.values.length && narrow.values.every((v, i) => v === wide.values[i]);
    best.narrow = Math.min(best.narrow, narrow.ms);
  }
  const lines = (b: keyof typeof builds) => emitC(t, { simd: builds[b] }).split('\n').length;
  return {
    schedule: sched,
    window: window.map(([m, l]) => `${m}+${l}`).join(','),
    halide_jit_ms: round(best.jit),
    fast_executor_ms: round(execMs),
    c_scalar_ms: round(best.scalar),
    c_simd_ms: round(best.simd),
    c_scalar_over_halide: round(best.scalar / best.jit),
    c_simd_over_halide: round(best.simd / best.jit),
    halide_narrow_types: Object.fromEntries(types),
    halide_narrow_equal: narrowEqual,
    halide_narrow_ms: narrowEqual ? round(best.narrow) : null,
    c_simd_over_halide_narrow: narrowEqual ? round(best.simd / best.narrow) : null,
    c_simd_isa: HOST_ISA,
    c_scalar_lines: lines('scalar'),
    c_simd_lines: lines('simd'),
    c_scalar_batch_ms: round(batch.scalar),
    c_simd_batch_ms: round(batch.simd),
    c_scalar_timed_runs_ms: round(runsMs.scalar),
    c_simd_timed_runs_ms: round(runsMs.simd),
    rounds: ROUNDS,
    load_average: loadavg().map((l) => round(l)),
  };
}

/** The apps suite (examples/apps/) and the window each is timed on. */
const APPS: readonly [string, readonly [number, number][]][] = [
  ['bilateral', [[0, 256], [0, 256]]], ['camera', [[0, 256], [0, 256], [0, 3]]], ['conv', [[0, 64], [0, 64], [0, 4]]],
  ['histeq', [[0, 256], [0, 256]]], ['iir', [[0, 256], [0, 256]]], ['maxfilter', [[0, 256], [0, 256]]],
  ['pyramid', [[0, 256], [0, 256]]], ['resize', [[0, 256], [0, 256]]], ['stencil_chain', [[0, 256], [0, 256]]],
  ['unsharp', [[0, 256], [0, 256]]],
];

const geomean = (xs: readonly number[]): number => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

/**
 * Every pipeline of the apps suite under its app's schedule, side by side with Halide's JIT, and
 * the geometric means of the ratios (below 1: refsem's C is faster).
 */
export async function appsSuite(only?: readonly string[]): Promise<object> {
  const per: Record<string, { c_scalar_over_halide: number; c_simd_over_halide: number; c_simd_over_halide_narrow: number | null }> = {};
  for (const [app, window] of APPS.filter(([a]) => only === undefined || only.includes(a))) per[app] = (await compareOn(`apps/${app}.alg`, `apps/${app}.halide`, window)) as (typeof per)[string];
  const ratios = Object.values(per);
  return {
    pipelines: per,
    c_scalar_over_halide_geomean: round(geomean(ratios.map((r) => r.c_scalar_over_halide))),
    c_simd_over_halide_geomean: round(geomean(ratios.map((r) => r.c_simd_over_halide))),
    c_simd_worst: round(Math.max(...ratios.map((r) => r.c_simd_over_halide))),
    // over the pipelines whose narrow Halide program computes the same values
    c_simd_over_halide_narrow_geomean: round(geomean(ratios.flatMap((r) => (r.c_simd_over_halide_narrow === null ? [] : [r.c_simd_over_halide_narrow])))),
    load_average: loadavg().map((l) => round(l)),
  };
}

export async function run(): Promise<object> {
  if (!halideAvailable()) return { skipped: 'python3-halide is not installed for /usr/bin/python3' };
  // One thread everywhere: the comparison is about the code, not the machine's cores.
  process.env.HL_NUM_THREADS = '1';
  return {
    bridge: await throughput(),
    bridge_phases: await phases(),
    bridge_server: await serverCosts(),
    blur_512: await compareOn('blur.alg', 'blur.halide', [[0, 512], [0, 512]]),
    harris_256: await compareOn('harris.alg', 'harris.halide', [[0, 256], [0, 256]]),
    apps: await appsSuite(),
  };
}
