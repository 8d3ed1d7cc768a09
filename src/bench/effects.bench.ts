// Proving schedules (spec/effects.md): milliseconds per obligation and per schedule, on the
// example schedules, with Z3's start-up kept out of the figures (a first proof warms it).
import { readFileSync } from 'node:fs';
import { loadPipeline } from '../alg-semantics/load.js';
import { shutdownZ3 } from '../expr/smt.js';
import { proveSchedule } from '../fuzz/prove.js';
import { lower } from '../lowering/lower.js';
import { parseSchedule } from '../schedule/parse.js';
import { median, round } from './timing.js';

export const name = 'effects';
export const group = 'core';

export async function run(): Promise<object> {
  const out: Record<string, object> = {};
  try {
    for (const ex of ['sec22', 'blur', 'harris']) {
      const p = loadPipeline(readFileSync(`examples/${ex}.alg`, 'utf8'), `${ex}.alg`);
      const s = parseSchedule(readFileSync(`examples/${ex}.sched`, 'utf8'), `${ex}.sched`);
      await proveSchedule(lower(p), s);
      const t0 = performance.now();
      const proofs = await proveSchedule(lower(p), s);
      const ms = proofs.flatMap((c) => c.results.map((r) => r.ms));
      out[ex] = {
        directives: proofs.length, funcs: p.funcs.length, obligations: ms.length,
        median_ms_per_obligation: round(median(ms)), schedule_ms: round(performance.now() - t0),
        proved: proofs.filter((c) => c.verdict === 'proved').length,
      };
    }
  } finally {
    await shutdownZ3();
  }
  return out;
}
