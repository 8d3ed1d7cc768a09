// Target executors: small-step machine steps per second, fast-executor steps and buffer stores per
// second on a 512×512 two-stage blur (examples/blur.tgt, written out below so the bench needs no
// files), their ratio, and what race detection costs when the output loop is parallel.
import { int } from '../expr/value.js';
import type { Input } from '../alg-semantics/ast.js';
import { compileTgt } from '../target-semantics/exec.js';
import { runMachine } from '../target-semantics/machine.js';
import { parseTgt } from '../target-semantics/parse.js';
import { median, round } from './timing.js';

export const name = 'target-executors';
export const group = 'core';

const BLUR = (trav: string) => `
pipeline blur(; x in (x.min, x.len), y in (y.min, y.len)):
{
  allocate in_(x in (x.min - 1, x.len + 2), y in (y.min - 1, y.len + 2));
  label in_: for in_.s0.y in (y.min - 1, y.len + 2) do
    for in_.s0.x in (x.min - 1, x.len + 2) do
      in_[in_.s0.x, in_.s0.y] <- (in_.s0.x * 7 + in_.s0.y * 13) % 256;
  allocate bx(x in (x.min, x.len), y in (y.min - 1, y.len + 2));
  label bx: for bx.s0.y in (y.min - 1, y.len + 2) do
    for bx.s0.x in (x.min, x.len) do
      bx[bx.s0.x, bx.s0.y] <- in_[bx.s0.x - 1, bx.s0.y] + in_[bx.s0.x, bx.s0.y] + in_[bx.s0.x + 1, bx.s0.y];
  allocate blur(x in (x.min, x.len), y in (y.min, y.len));
  label blur: for ${trav} blur.s0.y in (y.min, y.len) do
    for blur.s0.x in (x.min, x.len) do
      blur[blur.s0.x, blur.s0.y] <- (bx[blur.s0.x, blur.s0.y - 1] + bx[blur.s0.x, blur.s0.y] + bx[blur.s0.x, blur.s0.y + 1]) / 9
}`;

const square = (n: number): Input => ({ window: [[0, int(n)], [0, int(n)]], params: new Map() });
/** Buffer stores of one run on an n×n window: the three stages' loop nests. */
const stores = (n: number) => (n + 2) * (n + 2) + n * (n + 2) + n * n;

/**
 * Median CPU time of `reps` runs after a warm-up. CPU time (user + system of this process) rather
 * than wall time, so that other processes on a shared machine do not distort the figures.
 */
function timed(f: () => number, reps: number): { ms: number; steps: number } {
  f(); // warm up
  const ms: number[] = [];
  let steps = 0;
  for (let i = 0; i < reps; i++) {
    const t0 = process.cpuUsage();
    steps = f();
    const d = process.cpuUsage(t0);
    ms.push((d.user + d.system) / 1000);
  }
  return { ms: median(ms), steps };
}

export async function run(): Promise<object> {
  const serial = parseTgt(BLUR('serial'), 'blur.tgt');
  const parallel = parseTgt(BLUR('parallel'), 'blur.tgt');
  const small = square(24);
  const machine = timed(() => runMachine(serial, small).steps, 3);
  const big = square(512);
  const cs = compileTgt(serial);
  const cp = compileTgt(parallel);
  const fast = timed(() => cs.run(big).steps, 7);
  const fastPar = timed(() => cp.run(big, { seed: 1 }).steps, 7);
  const machineRate = machine.steps / (machine.ms / 1000);
  const fastRate = fast.steps / (fast.ms / 1000);
  return {
    program: 'two-stage 3×3 blur (examples/blur.tgt)',
    machine_window: '24×24',
    machine_steps_per_s: round(machineRate),
    fast_window: '512×512',
    fast_steps_per_run: fast.steps,
    fast_cpu_ms_per_run: round(fast.ms),
    fast_steps_per_s: round(fastRate),
    fast_stores_per_s: round(stores(512) / (fast.ms / 1000)),
    fast_vs_machine: round(fastRate / machineRate),
    parallel_output_loop_cpu_ms_per_run: round(fastPar.ms),
    race_detection_slowdown: round(fastPar.ms / fast.ms),
  };
}
