// Running the bug zoo: one campaign per planted fault, over the properties that fault concerns,
// stopped at the first failure; the time (and number of checks) to detection is what it reports.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Found, type SeedOrigin, evaluate, evaluateAsync } from '../check.js';
import { seedsOption } from '../seeds.js';
import { DEFAULT_CONFIG, type FuzzEnv } from '../env.js';
import { makeEnv } from '../make-env.js';
import { propertyNamed } from '../properties/index.js';
import { type CampaignResult, startCampaign } from '../runner.js';
import { NO_SHARD } from '../seed.js';
import { FAULTS, type Fault } from './faults.js';
import { median } from '../shrink-summary.js';

export interface ZooOptions {
  readonly seed: number;
  readonly jobs: number;
  /** per-fault limit: a wall-clock budget … */
  readonly timeMs?: number;
  /** … or a number of checks (deterministic, for the tests) */
  readonly runs?: number;
  readonly inProcess?: boolean;
  readonly faults?: readonly string[];
  readonly out?: string;
  /** swarm testing in the detection campaigns (docs/fuzzing.md) */
  readonly swarm?: boolean;
  /** the seed corpus: a directory, `apps` (the default, examples/apps) or `off` (fuzz/seeds.ts) */
  readonly seeds?: string;
}

export interface ZooEntry {
  readonly fault: string;
  readonly history: string;
  readonly detected: boolean;
  /** seconds until the first failure's reproducer, shrunk (or the whole campaign when undetected) */
  readonly seconds: number;
  /** seconds until that check's first failing evaluation, before shrinking */
  readonly failed_s?: number;
  readonly checks: number;
  readonly property?: string;
  readonly verdict?: string;
  readonly check?: number;
  readonly reproducer?: string;
  /** the size of the shrunk case (shrink-summary.ts) */
  readonly funcs?: number;
  readonly directives?: number;
  /** the detecting check's case came from this seed of the corpus, as written or mutated */
  readonly seed?: SeedOrigin;
}

/**
 * Is a failure the planted fault's doing? A planted directive or plug-in engine must be the one the
 * failure is pinned on; any other fault must be needed: the same case passes without it. Failures of the
 * unmodified components (they exist) therefore never count as detections.
 */
export function attribution(f: Fault, clean: FuzzEnv): (found: Found) => boolean | Promise<boolean> {
  return (found) => {
    if (found.failure.verdict === 'timeout') return false;
    if (f.directive !== undefined) return found.culprit === f.directive;
    if (f.culprit !== undefined) return found.culprit === f.culprit;
    const prop = propertyNamed(found.property);
    let c: unknown;
    try {
      c = prop.decode(found.text, clean);
    } catch {
      // Without the fault the case cannot even be stated (e.g. real validity rejects the program).
      return true;
    }
    // The compiled backends check asynchronously: the answer comes after the clean compile.
    if (prop.checkAsync) return evaluateAsync(prop, c, clean).then((r) => r.status !== 'fail');
    return evaluate(prop, c, clean).status !== 'fail';
  };
}

export async function runFault(f: Fault, o: ZooOptions): Promise<ZooEntry> {
  const out = o.out ?? mkdtempSync(join(tmpdir(), `refsem-zoo-${f.name}-`));
  const seeds = seedsOption(o.seeds);
  const config = { ...DEFAULT_CONFIG, engine: f.engine ?? DEFAULT_CONFIG.engine, swarm: o.swarm ?? DEFAULT_CONFIG.swarm, ...(f.backend ? { backend: f.backend } : {}), ...(seeds !== undefined ? { seeds } : {}) };
  const accept = attribution(f, await makeEnv(config));
  let first: { found: Found; at: number } | undefined;
  const pending: Promise<void>[] = [];
  const t0 = Date.now();
  const r: CampaignResult = await startCampaign({
    properties: f.properties,
    seed: o.seed,
    ...(o.runs !== undefined ? { runs: o.runs } : { timeMs: o.timeMs ?? 60_000 }),
    jobs: o.jobs,
    shard: NO_SHARD,
    config: { ...config, fault: f.name },
    out: join(out, f.name),
    budgetMs: 10_000,
    stopWhen: (found) => {
      const at = (Date.now() - t0) / 1000;
      const take = (yes: boolean) => {
        // The failure found first counts, whatever order the (asynchronous) answers arrive in.
        if (yes && (!first || at < first.at)) first = { found, at };
        return yes;
      };
      const yes = accept(found);
      if (typeof yes === 'boolean') return take(yes);
      const p = yes.then(take);
      pending.push(p.then(() => undefined));
      return p;
    },
    ...(o.inProcess ? { inProcess: true } : {}),
  }).done;
  await Promise.all(pending);
  const hit = first && r.failures.find((e) => e.key === first!.found.key);
  return {
    fault: f.name,
    history: f.history,
    detected: first !== undefined,
    seconds: first?.at ?? r.elapsed_s,
    ...(first?.found.failedAt !== undefined ? { failed_s: Math.round(first.found.failedAt - t0) / 1000 } : {}),
    checks: r.runs,
    ...(first ? { property: first.found.property, verdict: first.found.failure.verdict, check: first.found.index, ...(first.found.origin ? { seed: first.found.origin } : {}) } : {}),
    ...(hit ? { reproducer: hit.reproducer, ...(hit.funcs !== undefined ? { funcs: hit.funcs, directives: hit.directives ?? 0 } : {}) } : {}),
  };
}

export async function runZoo(o: ZooOptions, onEntry: (e: ZooEntry) => void = () => {}): Promise<ZooEntry[]> {
  const chosen = o.faults && o.faults.length > 0 ? FAULTS.filter((f) => o.faults!.includes(f.name)) : FAULTS;
  const out: ZooEntry[] = [];
  for (const f of chosen) {
    const e = await runFault(f, o);
    onEntry(e);
    out.push(e);
  }
  return out;
}

/** Median and worst time to detection; undetected faults count as the whole budget. */
export function zooFigures(es: readonly ZooEntry[]): { detected: number; faults: number; median_s: number; worst_s: number } {
  const ts = es.map((e) => e.seconds).sort((a, b) => a - b);
  const mid = median(ts);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return { detected: es.filter((e) => e.detected).length, faults: es.length, median_s: r2(mid), worst_s: r2(ts[ts.length - 1] ?? 0) };
}
