// `refsem merge`: one summary from the summary.json files of a campaign's shards (--shard i/N).
// Failures are de-duplicated across shards by key, keeping the lowest check index, exactly as
// one machine running all indices would have.
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { cannotRead } from '../node/source.js';
import { parseJson, CLI_LOC, UserError } from '../diag.js';
import type { CampaignResult, FailureEntry } from './runner.js';
import { belowCompletionFloor, emptyStats, generatedFromSummary, generatedSummary, mergeStats, nonVacuous } from './stats.js';
import { shrinkSummary } from './shrink-summary.js';

const MERGE_HINT = "pass the --out directories of finished campaigns (refsem fuzz --out DIR --shard i/N), each holding the summary.json the campaign wrote";

/** The summary.json a campaign wrote into its --out directory `dir`. */
export function readSummary(dir: string): CampaignResult {
  const path = join(dir, 'summary.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException)?.code;
    // The argument names no campaign output: reported at the command line, as every missing file.
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new UserError(`no campaign summary in '${dir}' (expected ${path})`, CLI_LOC, `run a campaign with refsem fuzz --out ${dir} first, or pass the --out directory of a finished campaign`);
    }
    throw cannotRead(path, e, 'campaign summary ', MERGE_HINT);
  }
  const s = parseJson(text, path, `${MERGE_HINT}; summary.json is written by the campaign and is not edited by hand`) as Partial<Record<keyof CampaignResult, unknown>> | null;
  const at = { file: path, line: 1, col: 1 };
  const bad = (what: string): never => {
    throw new UserError(`not a campaign summary: ${what}`, at, `summary.json is written by refsem fuzz and is not edited by hand; ${MERGE_HINT}`);
  };
  if (typeof s !== 'object' || s === null || Array.isArray(s)) bad('expected a JSON object');
  for (const k of ['seed', 'runs', 'elapsed_s', 'jobs'] as const) if (typeof s![k] !== 'number') bad(`"${k}" must be a number`);
  if (!Array.isArray(s!.failures) || s!.failures.some((f) => typeof f !== 'object' || f === null || typeof f.key !== 'string' || typeof f.check !== 'number' || typeof f.reproducer !== 'string')) {
    bad('"failures" must be a list of failures, each with a key, a check index and a reproducer');
  }
  return s as CampaignResult;
}

/**
 * The shards of one campaign partition its check indices, so a merge must see each shard `i/N`
 * exactly once: a shard given twice would count its checks twice, and a missing one would make a
 * partial campaign look whole. With `partial`, missing shards are allowed and listed instead.
 */
/** How many missing shards a message names. */
const MAX_NAMED = 10;

function checkShards(parts: readonly { dir: string; s: CampaignResult }[], partial: boolean): string[] {
  const seen = new Map<number, string>();
  const counts = new Set<number>();
  for (const { dir, s } of parts) {
    const m = /^(\d+)\/(\d+)$/.exec(String(s.shard));
    if (!m) throw new UserError(`not a campaign summary: shard ${JSON.stringify(s.shard)} is not i/N`, { file: join(dir, 'summary.json'), line: 1, col: 1 }, MERGE_HINT);
    const [i, n] = [Number(m[1]), Number(m[2])];
    counts.add(n);
    const twice = seen.get(i);
    if (twice !== undefined) throw new UserError(`shard ${i}/${n} is given twice ('${twice}' and '${dir}')`, CLI_LOC, 'pass each shard directory once');
    seen.set(i, dir);
  }
  if (counts.size > 1) throw new UserError(`the summaries split the campaign differently (${[...counts].map((n) => `/${n}`).join(', ')})`, CLI_LOC, 'merge the shards of one campaign: the same N in every --shard i/N');
  const n = [...counts][0]!;
  // N comes from a file: name at most a few missing shards, without counting to N one by one.
  const count = n - seen.size;
  const named: string[] = [];
  for (let i = 0; named.length < Math.min(count, MAX_NAMED); i++) if (!seen.has(i)) named.push(`${i}/${n}`);
  const list = count > named.length ? `${named.join(', ')} and ${count - named.length} more` : named.join(', ');
  if (count > 0 && !partial) {
    throw new UserError(`shard${count === 1 ? '' : 's'} ${list} of the campaign ${count === 1 ? 'is' : 'are'} missing`, CLI_LOC, 'pass the output directory of every shard, or --partial to merge the shards at hand');
  }
  return count > named.length ? [...named, `… ${count - named.length} more`] : named;
}

export function mergeSummaries(dirs: readonly string[], opts: { partial?: boolean } = {}): CampaignResult & { readonly shards: number; readonly missing_shards: readonly string[] } {
  if (dirs.length === 0) throw new UserError('merge needs at least one directory', CLI_LOC, MERGE_HINT);
  const parts = dirs.map((d) => ({ dir: d, s: readSummary(d) }));
  const seeds = new Set(parts.map((p) => p.s.seed));
  if (seeds.size > 1) {
    throw new UserError(`the summaries come from different campaigns (seeds ${[...seeds].join(', ')})`, CLI_LOC, 'merge the shards of one campaign: same --seed, different --shard');
  }
  const missing = checkShards(parts, Boolean(opts.partial));
  const stats = emptyStats();
  const failures = new Map<string, FailureEntry>();
  for (const { dir, s } of parts) {
    // Summaries of older versions lack the verdict and shape counts: they count as none.
    mergeStats(stats, { constructs: s.constructs ?? {}, directives: s.directives ?? {}, properties: s.properties ?? {}, verdicts: s.verdicts ?? {}, generated: generatedFromSummary(s.generated), seeds: s.seeds ?? {} });
    for (const f of s.failures) {
      // Reproducers live next to their summary; the directory may have moved since (copied off a node).
      const abs = { ...f, reproducer: resolve(dir, basename(f.reproducer)) };
      const old = failures.get(f.key);
      if (!old || f.check < old.check) failures.set(f.key, abs);
    }
  }
  const runs = parts.reduce((n, p) => n + p.s.runs, 0);
  // Shards run side by side: the campaign took as long as its slowest shard.
  const elapsed = Math.max(...parts.map((p) => p.s.elapsed_s));
  return {
    seed: parts[0]!.s.seed,
    runs,
    elapsed_s: elapsed,
    checks_per_s: Math.round((runs / Math.max(elapsed, 1e-3)) * 100) / 100,
    non_vacuous_checks_per_s: Math.round((nonVacuous(stats.verdicts) / Math.max(elapsed, 1e-3)) * 100) / 100,
    failures: [...failures.values()].sort((a, b) => a.check - b.check),
    directives: stats.directives,
    properties: stats.properties,
    constructs: stats.constructs,
    generated: generatedSummary(stats.generated),
    verdicts: stats.verdicts,
    below_completion_floor: belowCompletionFloor(stats.verdicts),
    ...(Object.keys(stats.seeds).length > 0 ? { seeds: stats.seeds } : {}),
    shrinking: shrinkSummary([...failures.values()], Math.max(...parts.map((p) => (p.s.shrinking?.reserve_s ?? 0) * 1000))),
    jobs: parts.reduce((n, p) => n + p.s.jobs, 0),
    shard: parts.map((p) => p.s.shard).join(','),
    engine: [...new Set(parts.map((p) => p.s.engine))].join(','),
    interrupted: parts.some((p) => p.s.interrupted),
    shards: parts.length,
    missing_shards: missing,
  };
}
