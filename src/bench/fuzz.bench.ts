// Fuzzing throughput and the bug zoo: checks per second of the default campaign (all properties,
// two worker threads, as long as `npm start`: 60 s), how many of them compared real values, the
// shapes of the cases it generated, and the median and worst time to detection over the zoo's
// planted faults, with swarm testing off and on. The first seconds of a campaign start the workers
// and warm up the JIT, so the rate after them is reported too.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../fuzz/env.js';
import { startCampaign } from '../fuzz/runner.js';
import { NO_SHARD } from '../fuzz/seed.js';
import { runZoo, zooFigures } from '../fuzz/zoo/run.js';
import { round } from './timing.js';
import { median } from '../fuzz/shrink-summary.js';

export const name = 'fuzz';
export const group = 'long';

const CAMPAIGN_MS = 60_000;
const WARMUP_MS = 10_000;

export async function run(): Promise<object> {
  const out = mkdtempSync(join(tmpdir(), 'refsem-bench-fuzz-'));
  const cpu0 = process.cpuUsage();
  let warm: { checks: number; ms: number } | undefined;
  const c = await startCampaign({
    properties: [], seed: 1, timeMs: CAMPAIGN_MS, jobs: 2, shard: NO_SHARD, config: DEFAULT_CONFIG, out, budgetMs: 10_000, timeSlices: true,
  }, (snap) => {
    if (!warm && snap.elapsedMs >= WARMUP_MS) warm = { checks: snap.checks, ms: snap.elapsedMs };
  }).done;
  const cpu = process.cpuUsage(cpu0);
  const zoo = await runZoo({ seed: 1, jobs: 2, timeMs: 60_000, out: join(out, 'zoo') });
  const figures = zooFigures(zoo);
  const swarmZoo = await runZoo({ seed: 1, jobs: 2, timeMs: 60_000, out: join(out, 'zoo-swarm'), swarm: true });
  const swarmFigures = zooFigures(swarmZoo);
  const g = c.generated;
  const share = (k: string) => round((g[k] ?? 0) / Math.max(g.checks ?? 0, 1));
  const conf = c.verdicts.confluence;
  const confJudged = conf ? conf.equal + conf.vacuous_assertion + conf.vacuous_alg_error + conf.empty_window + conf.fail : 0;
  return {
    campaign: {
      jobs: 2,
      seconds: c.elapsed_s,
      checks: c.runs,
      checks_per_s: c.checks_per_s,
      // After the warm-up: what a long campaign sustains.
      steady_checks_per_s: warm ? round((c.runs - warm.checks) / (c.elapsed_s - warm.ms / 1000)) : null,
      warmup: warm ? { seconds: round(warm.ms / 1000), checks_per_s: round(warm.checks / (warm.ms / 1000)) } : null,
      failures: c.failures.length,
      // Discards are counted as checks (docs/fuzzing.md, "How checks are counted"): shown so the figure can be judged.
      per_property: Object.fromEntries(Object.entries(c.properties).map(([k, v]) => [k, { checks: v.checks, discards: v.discards }])),
      // CPU of the whole process, worker threads included: checks per CPU-second is load-independent.
      process_cpu_s: round((cpu.user + cpu.system) / 1e6),
      checks_per_cpu_s: round(c.runs / Math.max((cpu.user + cpu.system) / 1e6, 1e-3)),
      // Checks that compared a value (or failed): vacuous ones prove nothing (docs/fuzzing.md, "Vacuity").
      non_vacuous_checks_per_s: c.non_vacuous_checks_per_s,
      verdicts: c.verdicts,
      confluence_non_vacuous_share: conf ? round((conf.equal + conf.fail) / Math.max(confJudged, 1)) : null,
      // The shrink reserve of --time and the median size of the reproducers (docs/fuzzing.md, "De-duplication").
      shrinking: c.shrinking,
      // How far the campaign ran past its --time, as a share of it (shrinking must stay within a tenth).
      overrun_share: round(Math.max(0, c.elapsed_s * 1000 - CAMPAIGN_MS) / CAMPAIGN_MS),
      // The compiled properties' time slices (docs/fuzzing.md, "Time slices").
      time_slices: c.time_slices,
    },
    // The shapes of the scheduled cases, as shares of them (docs/fuzzing.md, "What campaigns generate").
    shapes: {
      scheduled_checks: g.checks,
      funcs_ge_4: share('funcs_ge_4'),
      compute_at: share('compute_at'),
      nested_compute_at: share('nested_compute_at'),
      store_at_other_level: share('store_at_other_level'),
      order_sensitive_reduction: share('order_sensitive_reduction'),
      directives_mean: g.directives_mean,
      directives_max: g.directives_max,
    },
    zoo: {
      faults: figures.faults,
      detected: figures.detected,
      median_s: figures.median_s,
      worst_s: figures.worst_s,
      // How small the zoo's reproducers were shrunk: median funcs and directives over the detected faults.
      median_reproducer: { funcs: median(zoo.flatMap((e) => (e.funcs !== undefined ? [e.funcs] : []))), directives: median(zoo.flatMap((e) => (e.directives !== undefined ? [e.directives] : []))) },
      per_fault: Object.fromEntries(zoo.map((e) => [e.fault, { detected: e.detected, seconds: e.seconds, checks: e.checks }])),
    },
    zoo_swarm: {
      detected: swarmFigures.detected,
      median_s: swarmFigures.median_s,
      worst_s: swarmFigures.worst_s,
      per_fault: Object.fromEntries(swarmZoo.map((e) => [e.fault, { detected: e.detected, seconds: e.seconds, checks: e.checks }])),
    },
    targets: {
      median_s: 10, worst_s: 60, funcs_ge_4: 0.3, compute_at: 0.25, nested_compute_at: 0.1, store_at_other_level: 0.1,
      order_sensitive_reduction: 0.05, directives_mean: 6, confluence_non_vacuous_share: 0.85,
    },
  };
}
