// The prover on generated schedules (spec/effects.md, [OBL-DIRECTIVE], [OBL-AGREE]): of the
// directive applications in 1,000 generated cases of the default profile, how many are proved,
// refuted and unknown (and why); which directive faults of the bug zoo `--prove` refutes with a
// witness that replays; and a prove-vs-run campaign of ten minutes on two jobs. Long (tens of
// minutes): the sizes can be lowered with REFSEM_PROVE_CASES, REFSEM_PROVE_ZOO_CASES and
// REFSEM_PROVE_MINUTES.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shutdownZ3 } from '../expr/smt.js';
import { DEFAULT_CONFIG } from '../fuzz/env.js';
import { type DirectiveProof, proveOne } from '../fuzz/prove-directive.js';
import { startCampaign } from '../fuzz/runner.js';
import { NO_SHARD } from '../fuzz/seed.js';
import { FAULTS } from '../fuzz/zoo/faults.js';
import { round } from './timing.js';

export const name = 'prove';
export const group = 'long';

const size = (v: string | undefined, dflt: number): number => (v !== undefined && Number(v) >= 0 ? Number(v) : dflt);

/** The counts of a proof run, its examples left out. */
const figures = (p: DirectiveProof) => ({
  cases: p.checks, seconds: p.elapsed_s, applications: p.applications, proved: p.proved,
  proved_share: round(p.proved / Math.max(p.applications, 1)),
  refuted_replayed: p.refuted_replayed, refuted_not_replayed: p.refuted_not_replayed, unknown: p.unknown, unknown_reasons: p.unknown_reasons,
});

/** Each directive fault of the zoo: its applications proved, and whether a refutation replayed. */
export async function zooFaults(cases: number, out: string): Promise<object> {
  const rows: Record<string, object> = {};
  for (const f of FAULTS.filter((x) => x.directive !== undefined)) {
    const p = await proveOne(f.directive, { ...DEFAULT_CONFIG, fault: f.name, ...(f.engine ? { engine: f.engine } : {}) }, { seed: 1, runs: cases, out });
    rows[f.name] = { ...figures(p), refuted_with_replaying_witness: p.refuted_replayed > 0 };
  }
  const all = Object.values(rows) as { refuted_with_replaying_witness: boolean }[];
  return { faults: all.length, refuted_with_replaying_witness: all.filter((r) => r.refuted_with_replaying_witness).length, per_fault: rows };
}

export async function run(): Promise<object> {
  const out = mkdtempSync(join(tmpdir(), 'refsem-bench-prove-'));
  let generated: object;
  let zoo: object;
  try {
    generated = figures(await proveOne(undefined, DEFAULT_CONFIG, { seed: 1, runs: size(process.env.REFSEM_PROVE_CASES, 1000), out }));
    zoo = await zooFaults(size(process.env.REFSEM_PROVE_ZOO_CASES, 20), out);
  } finally {
    await shutdownZ3();
  }
  const minutes = size(process.env.REFSEM_PROVE_MINUTES, 10);
  const c = await startCampaign({
    properties: ['prove-vs-run'], seed: 1, timeMs: minutes * 60_000, jobs: 2, shard: NO_SHARD, config: DEFAULT_CONFIG, out: join(out, 'prove-vs-run'), budgetMs: 60_000,
  }).done;
  const tallies = Object.fromEntries(Object.entries(c.constructs).filter(([k]) => k.startsWith('tally prove-vs-run: ')).map(([k, v]) => [k.slice('tally prove-vs-run: '.length), v]));
  return {
    generated,
    zoo,
    prove_vs_run: { minutes, checks: c.runs, failures: c.failures.map((f) => ({ verdict: f.verdict, reproducer: f.reproducer })), tallies, discards: c.properties['prove-vs-run']?.discards ?? 0 },
  };
}
