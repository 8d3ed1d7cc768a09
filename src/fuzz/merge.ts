// `refsem merge`: one summary from the summary.json files of a campaign's shards (--shard i/N).
// Failures are de-duplicated across shards by key, keeping the lowest check index, exactly as
// one machine running all indices would have.
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { UserError } from '../diag.js';
import type { CampaignResult, FailureEntry } from './runner.js';
import { emptyStats, mergeStats } from './stats.js';

export function readSummary(dir: string): CampaignResult {
  const path = join(dir, 'summary.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError(`no summary in '${dir}' (expected ${path})`, undefined, 'pass the --out directories of finished refsem fuzz runs');
  }
  try {
    return JSON.parse(text) as CampaignResult;
  } catch (e) {
    throw new UserError(`'${path}' is not JSON: ${(e as Error).message}`, { file: path, line: 1, col: 1 });
  }
}

export function mergeSummaries(dirs: readonly string[]): CampaignResult & { readonly shards: number } {
  if (dirs.length === 0) throw new UserError('merge needs at least one directory', { file: '<command line>', line: 1, col: 1 });
  const parts = dirs.map((d) => ({ dir: d, s: readSummary(d) }));
  const seeds = new Set(parts.map((p) => p.s.seed));
  if (seeds.size > 1) {
    throw new UserError(`the summaries come from different campaigns (seeds ${[...seeds].join(', ')})`, undefined, 'merge the shards of one campaign: same --seed, different --shard');
  }
  const stats = emptyStats();
  const failures = new Map<string, FailureEntry>();
  for (const { dir, s } of parts) {
    mergeStats(stats, { constructs: s.constructs ?? {}, directives: s.directives ?? {}, properties: s.properties ?? {} });
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
    failures: [...failures.values()].sort((a, b) => a.check - b.check),
    directives: stats.directives,
    properties: stats.properties,
    constructs: stats.constructs,
    jobs: parts.reduce((n, p) => n + p.s.jobs, 0),
    shard: parts.map((p) => p.s.shard).join(','),
    engine: [...new Set(parts.map((p) => p.s.engine))].join(','),
    interrupted: parts.some((p) => p.s.interrupted),
    shards: parts.length,
  };
}
