// Bounds inference costs and quality: query extraction + β0 (and β1) per generated program, the
// tightness of β1 against β0 (total allocated points), and Z3 verification per completion on the
// examples, with the solver's start-up reported separately.
import { type ScheduledCase as Case, sampleScheduled } from '../fuzz/gen/scheduled-sample.js';
import type { Input } from '../alg-semantics/ast.js';
import { scheduled } from '../pipeline.js';
import { parseSchedule } from '../schedule/parse.js';
import { loadPipeline } from '../alg-semantics/load.js';

import type { TgtProgram } from '../target-semantics/ast.js';
import { beta0 } from '../bounds/beta0.js';
import { beta1 } from '../bounds/beta1.js';
import { checkConcrete } from '../bounds/concrete-check.js';
import { withAssertions } from '../bounds/completion.js';
import type { EngineResult } from '../bounds/engine.js';
import { extractQuery } from '../bounds/query.js';
import { verifyCompletion } from '../bounds/verify-z3.js';
import { shutdownZ3, z3StartupMs } from '../expr/smt.js';
import { median, round } from './timing.js';

export const name = 'bounds';
export const group = 'core';


const SEC22 = 'pipeline f() { func g(x) = x * x; func f(x) = g(x) + g(x + 1); }';
export const EXAMPLES: readonly { name: string; alg: string; schedule: string; window: number }[] = [
  { name: 'sec22-default', alg: SEC22, schedule: '', window: 64 },
  { name: 'sec22-tiles', alg: SEC22, schedule: 'split f.x into xo, xi by 3\ncompute-at g at f.xo\nstore-at g at f.xo', window: 64 },
  { name: 'sec22-round', alg: SEC22, schedule: 'split f.x into xo, xi by 4 tail round', window: 62 },
  { name: 'sec22-guard-tiles', alg: SEC22, schedule: 'split f.x into xo, xi by 8\ncompute-at g at f.xo\nstore-at g at f.xo', window: 61 },
  { name: 'lookup', alg: 'pipeline o() { func l(x) = min(max(x * x - 3, 0), 9); func o(x) = l(l(x)); }', schedule: '', window: 64 },
  { name: 'stencil-round', alg: 'pipeline o() { func a(x) = x; func b(x) = a(x - 1) + a(x + 1); func o(x) = b(x) + b(x + 2); }', schedule: 'split o.x into xo, xi by 8 tail round', window: 61 },
];

/** Total allocated points on the input, or undefined when the engine fails. */
export function allocated(t: TgtProgram, r: EngineResult, input: Input): number | undefined {
  if (!r.ok) return undefined;
  const tt = withAssertions(t, r.assertions ?? []);
  const rep = checkConcrete(tt, extractQuery(tt), r.completion, input, { maxSteps: 2_000_000 });
  return rep.budgetExceeded ? undefined : Number(rep.allocatedPoints);
}

function timePerProgram(cases: readonly Case[], f: (t: TgtProgram) => void): number[] {
  return cases.map(({ t }) => {
    f(t); // warm up
    const reps = 5;
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) f(t);
    return (performance.now() - t0) / reps;
  });
}

export async function run(): Promise<object> {
  const cases = sampleScheduled(300);
  const b0 = timePerProgram(cases, (t) => void beta0(t, extractQuery(t)));
  const b1 = timePerProgram(cases, (t) => void beta1(t, extractQuery(t)));

  // Generated programs sometimes index at 2^53: totals use the programs whose β0 allocation stays
  // below 10^7 points, and per-program ratios use all of them.
  let genB0 = 0;
  let genB1 = 0;
  let compared = 0;
  const ratios: number[] = [];
  let succeeded0 = 0;
  let succeeded1 = 0;
  for (const c of cases) {
    const q = extractQuery(c.t);
    const r0 = beta0(c.t, q);
    const r1 = beta1(c.t, q);
    if (r0.ok) succeeded0++;
    if (r1.ok) succeeded1++;
    const a0 = allocated(c.t, r0, c.input);
    const a1 = allocated(c.t, r1, c.input);
    if (a0 === undefined || a1 === undefined) continue;
    compared++;
    if (a0 > 0) ratios.push(a1 / a0);
    if (a0 > 1e7) continue;
    genB0 += a0;
    genB1 += a1;
  }

  const examples: Record<string, object> = {};
  let exB0 = 0;
  let exB1 = 0;
  const verifyMs: number[] = [];
  let firstCallMs = 0;
  for (const ex of EXAMPLES) {
    const p = loadPipeline(ex.alg, `${ex.name}.alg`);
    const t = scheduled({ algorithm: p }, ex.schedule ? parseSchedule(ex.schedule, `${ex.name}.sched`) : undefined);
    const q = extractQuery(t);
    const input: Input = { window: [[0, ex.window]], params: new Map() };
    const r0 = beta0(t, q);
    const r1 = beta1(t, q);
    const a0 = allocated(t, r0, input);
    const a1 = allocated(t, r1, input);
    if (a0 !== undefined && a1 !== undefined) {
      exB0 += a0;
      exB1 += a1;
    }
    const status: Record<string, string> = {};
    for (const [engine, r] of [['beta0', r0], ['beta1', r1]] as const) {
      if (!r.ok) continue;
      const t0 = performance.now();
      const v = await verifyCompletion(t, r.completion, undefined, { assertions: r.assertions ?? [], timeoutMs: 20_000 });
      const ms = performance.now() - t0;
      if (firstCallMs === 0) firstCallMs = ms;
      else verifyMs.push(ms);
      status[engine] = v.status;
    }
    examples[ex.name] = { window: ex.window, allocated_beta0: a0 ?? 'fails', allocated_beta1: a1 ?? 'fails', verify: status };
  }
  const startup = z3StartupMs();
  await shutdownZ3();

  return {
    generated_programs: cases.length,
    query_plus_beta0_ms: { median: round(median(b0)), p90: round(quantile(b0, 0.9)), max: round(Math.max(...b0)), target_median: 1 },
    query_plus_beta1_ms: { median: round(median(b1)), p90: round(quantile(b1, 0.9)), max: round(Math.max(...b1)) },
    engine_success: { beta0: succeeded0, beta1: succeeded1 },
    tightness_allocated_points: {
      examples: { beta0: exB0, beta1: exB1, ratio: round(exB1 / exB0) },
      generated: {
        programs_where_both_succeed: compared,
        total_below_1e7_points: { beta0: genB0, beta1: genB1, ratio: round(genB1 / genB0) },
        per_program_ratio: { mean: round(ratios.reduce((a, b) => a + b, 0) / ratios.length), median: round(median(ratios)), strictly_tighter: ratios.filter((r) => r < 1).length },
      },
    },
    z3: {
      startup_ms: round(startup),
      first_call_ms_including_startup: round(firstCallMs),
      verify_ms_after_startup: { median: round(median(verifyMs)), max: round(Math.max(...verifyMs)), completions: verifyMs.length + 1 },
      target_median_ms_including_startup: 2000,
    },
    examples,
  };
}

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}
