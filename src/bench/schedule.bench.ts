// Scheduling throughput, which bounds how fast the fuzzers can exercise directives: applying the
// tiled schedule of §2.2 (parse + validate + rewrite, with and without the lemma 2.4 / 2.5
// checks), and proposing-then-applying random directives with their `generate`.
import { lower } from '../lowering/lower.js';
import { seededRng } from '../rng.js';
import { applySchedule, generateCall } from '../schedule/apply.js';
import { builtinRegistry } from '../schedule/builtins.js';
import { parseSchedule } from '../schedule/parse.js';
import type { DirectiveCall } from '../schedule/plugin.js';
import { loadBlur } from './examples.js';
import { opsPerSecond, round } from './timing.js';

export const name = 'schedule';
export const group = 'core';

const TILED = `split blur_y.x by 4
split blur_y.y by 2
reorder blur_y.yo, blur_y.xo, blur_y.yi, blur_y.xi
traverse blur_y.yo parallel
vectorize blur_y.s0.xi
compute-at blur_x at blur_y.s0.xo
store-at blur_x at blur_y.s0.xo
`;

export async function run(): Promise<object> {
  const p = loadBlur();
  const t0 = lower(p);
  const registry = builtinRegistry();
  const tiled = opsPerSecond(() => void applySchedule(t0, parseSchedule(TILED, 't.sched', registry)), 7);
  const checked = opsPerSecond(() => void applySchedule(t0, parseSchedule(TILED, 't.sched', registry), { check: true, pipeline: p }), 7);
  let seed = 1;
  let applied = 0;
  const random = opsPerSecond(() => {
    let t = t0;
    const calls: DirectiveCall[] = [];
    for (const d of registry.directives) {
      const call = generateCall(d, t, seededRng(seed++), registry, calls);
      if (!call) continue;
      t = applySchedule(t, { file: 'g', calls: [call], registry });
      calls.push(call);
      applied++;
    }
  }, registry.directives.length);
  return {
    unit: 'directives/s on the 3-func blur pipeline',
    tiled_schedule: round(tiled),
    tiled_schedule_with_lemma_checks: round(checked),
    generate_and_apply: round(random),
    generated_calls_applied: applied,
  };
}
