// What a campaign prints: the live progress line (a terminal), plain periodic lines (a pipe or a
// log), the human summary, and the JSON summary of docs/architecture.md.
import type { IO } from '../node/io.js';
import type { CampaignResult, Snapshot } from './runner.js';
import { ENGINE_CULPRIT } from './check.js';
import { VERDICT_KEYS, type VerdictCounts, showStats, vacuousShare } from './stats.js';
import { REFSEM_VERSION } from '../node/package.js';
import type { SliceReport } from './time-slice.js';

const secs = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;

export function progressLine(s: Snapshot): string {
  const rate = s.checks / Math.max(s.elapsedMs / 1000, 1e-3);
  const left = s.remainingMs !== undefined ? `  ${secs(s.remainingMs)} left` : s.remainingChecks !== undefined ? `  ${s.remainingChecks} checks left` : '';
  return `fuzz: ${s.checks} checks  ${Math.round(rate)} checks/s  ${s.failures} failure${s.failures === 1 ? '' : 's'}  ${secs(s.elapsedMs)} elapsed${left}`;
}

/** Progress on stderr: rewritten in place on a terminal, a line every `everyMs` otherwise. */
export function progressPrinter(io: IO, everyMs = 5000): { tick(s: Snapshot): void; end(): void } {
  let last = 0;
  let drawn = false;
  return {
    tick(s) {
      if (io.isTTY) {
        io.err(`\r\x1b[K${progressLine(s)}`);
        drawn = true;
      } else if (s.elapsedMs - last >= everyMs) {
        last = s.elapsedMs;
        io.err(`${progressLine(s)}\n`);
      }
    },
    end() {
      if (drawn) io.err('\n');
    },
  };
}

export function humanSummary(r: CampaignResult, withStats: boolean): string {
  const lines = [
    `refsem fuzz: ${r.runs} checks in ${r.elapsed_s} s (${r.checks_per_s} checks/s), seed ${r.seed}, ${r.jobs} job${r.jobs === 1 ? '' : 's'}, shard ${r.shard}, engine ${r.engine}${r.interrupted ? ' (interrupted)' : ''}`,
  ];
  for (const [name, c] of Object.entries(r.properties).sort()) {
    const v = r.verdicts[name];
    lines.push(`  ${name}: ${c.checks} checks, ${c.failures} failing, ${c.discards} discarded${v ? `; ${verdictLine(v)}` : ''}`);
  }
  if (r.time_slices) lines.push(sliceLine(r.time_slices));
  if (r.seeds) lines.push(seedLine(r.seeds));
  const g = r.generated;
  if (g.checks) lines.push(shapeLine(g));
  const warning = vacuityWarning(r);
  if (warning) lines.push(warning);
  lines.push(...discardWarnings(r));
  if (r.failures.length === 0) lines.push('no counterexample found');
  else {
    lines.push(`${r.failures.length} distinct failure${r.failures.length === 1 ? '' : 's'}:`);
    for (const f of r.failures) {
      lines.push(`  ${f.property}: ${f.verdict}${f.culprit ? ` (${f.culprit.startsWith(ENGINE_CULPRIT) ? `engine ${f.culprit.slice(ENGINE_CULPRIT.length)}` : `directive ${f.culprit}`})` : ''}, check ${f.check}, found after ${f.detected_s} s, shrunk by ${f.reported_s} s → ${f.reproducer}`);
    }
    const k = r.shrinking;
    if (k) lines.push(`shrunk to a median of ${k.median_funcs} func${k.median_funcs === 1 ? '' : 's'} and ${k.median_directives} directive${k.median_directives === 1 ? '' : 's'}${k.stopped_by_time ? ` (${k.stopped_by_time} shrink${k.stopped_by_time === 1 ? '' : 's'} stopped by the clock)` : ''}${k.reserve_s ? `; the last ${k.reserve_s} s of --time were kept for shrinking` : ''}`);
    lines.push('replay one with: refsem replay FILE');
  }
  const body = lines.join('\n') + '\n';
  return withStats ? body + showStats(r) : body;
}

function verdictLine(v: VerdictCounts): string {
  const vacuous = v.vacuous_assertion + v.vacuous_alg_error + v.empty_window;
  if (vacuous === 0) return `${v.equal} compared values`;
  return `${v.equal} compared values, ${vacuous} vacuous (failed assertion ${v.vacuous_assertion}, error value in the algorithm ${v.vacuous_alg_error}, empty window ${v.empty_window})`;
}

/** The checks of seeded cases (gen/seeded.ts): how many, as written and mutated, and what they compared. */
function seedLine(seeds: NonNullable<CampaignResult['seeds']>): string {
  const part = (kind: string, v: VerdictCounts | undefined) => {
    if (!v) return `${kind} 0`;
    const checks = VERDICT_KEYS.reduce((n, k) => n + v[k], 0);
    return `${kind} ${checks} (${v.fail} failing, ${v.discard} discarded; ${verdictLine(v)})`;
  };
  return `  from seeds: ${part('as written', seeds.exact)}; ${part('mutated', seeds.mutated)}`;
}

/** The time slices of a default campaign: the seconds each took of its share, or why it was skipped. */
function sliceLine(slices: Readonly<Record<string, SliceReport>>): string {
  return `  time slices: ${Object.entries(slices).map(([name, s]) => ('skipped' in s ? `${name} skipped: ${s.skipped}` : `${name} ${s.seconds} s (share ${Math.round(s.share * 100)}%)`)).join('; ')}`;
}

const pct = (n: number, of: number) => `${Math.round((100 * n) / Math.max(of, 1))}%`;

function shapeLine(g: Readonly<Record<string, number>>): string {
  const n = g.checks!;
  return `  generated: ${n} scheduled cases; ${pct(g.funcs_ge_4!, n)} with ≥ 4 funcs, ${pct(g.compute_at!, n)} compute-at, ${pct(g.nested_compute_at!, n)} nested compute-at, `
    + `${pct(g.store_at_other_level!, n)} store-at at another level, ${pct(g.order_sensitive_reduction!, n)} order-sensitive reductions; ${g.directives_mean} directives on average (max ${g.directives_max})`;
}

/** Beyond this share of vacuous confluence checks, a campaign says so at the end. */
export const VACUOUS_WARNING_SHARE = 0.5;

function vacuityWarning(r: CampaignResult): string | undefined {
  const v = r.verdicts.confluence;
  const share = v && vacuousShare(v);
  if (share === undefined || share <= VACUOUS_WARNING_SHARE) return undefined;
  const cause = v!.vacuous_assertion >= v!.vacuous_alg_error + v!.empty_window
    ? `most completed programs failed an assertion: engine ${r.engine} gave up on them${r.engine === 'beta0' ? '; try --engine beta1' : ''}`
    : 'most algorithms had an error value in the window or the window was empty';
  // Below the floor on completions the campaign fails (exit 1), above it it only warns.
  return `${r.below_completion_floor ? 'error' : 'warning'}: ${Math.round(share * 100)}% of the confluence checks compared no value (${cause}), so passing them proves little${r.below_completion_floor ? '; the campaign fails' : ''}`;
}

/** Campaigns against a backend, whose cases the backend may decline (a case Halide rejects is discarded). */
const BACKEND_PROPERTIES = ['halide', 'backend'];

/**
 * Like the vacuity warning of confluence: when a backend's campaign discarded most of its cases,
 * "no counterexample" rests on the few it compared, and the summary says so.
 */
function discardWarnings(r: CampaignResult): string[] {
  return BACKEND_PROPERTIES.flatMap((name) => {
    const c = r.properties[name];
    if (!c || c.checks === 0 || c.discards / c.checks <= VACUOUS_WARNING_SHARE) return [];
    const why = name === 'halide' && r.halide ? ` (${Object.entries(r.halide).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ')})` : '';
    return [`warning: ${c.discards} of the ${c.checks} ${name} checks were discarded${why}, so passing them proves little; run more checks or widen the cases`];
  });
}

/** The JSON summary (docs/architecture.md: seed, runs, elapsed_s, checks_per_s, failures, per-directive counts). */
export function jsonSummary(r: CampaignResult, withStats: boolean): string {
  const { constructs, ...rest } = r;
  const summary = { refsem_version: REFSEM_VERSION, ...rest };
  return JSON.stringify(withStats ? { ...summary, constructs } : summary) + '\n';
}
