// Campaigns in-process (TypeScript sources): determinism over jobs and shards, de-duplication,
// reproducers that replay without the campaign, merge of shard outputs.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { mergeSummaries } from '../../src/fuzz/merge.js';
import { replay } from '../../src/fuzz/replay.js';
import { readReproducer } from '../../src/fuzz/reproducer.js';
import { type CampaignOptions, startCampaign } from '../../src/fuzz/runner.js';
import { NO_SHARD } from '../../src/fuzz/seed.js';
import { jsonSummary } from '../../src/fuzz/report.js';
import { scratchDir } from '../support/files.js';

const scratch = () => scratchDir('refsem-fuzz-test-');

function options(o: Partial<CampaignOptions>): CampaignOptions {
  return {
    properties: ['race-free'], seed: 7, runs: 20, jobs: 1, shard: NO_SHARD, out: scratch(), budgetMs: 60_000, inProcess: true,
    config: { ...DEFAULT_CONFIG, fault: 'parallel-reduction' },
    ...o,
  };
}

const keyed = (r: { failures: readonly { key: string; check: number; verdict: string }[] }) => r.failures.map((f) => [f.key, f.check, f.verdict]);

describe('campaign runner', () => {
  it('finds the same failures with any number of jobs', async () => {
    const one = await startCampaign(options({ jobs: 1 })).done;
    const three = await startCampaign(options({ jobs: 3 })).done;
    expect(one.runs).toBe(20);
    expect(three.runs).toBe(20);
    expect(one.failures.length).toBeGreaterThan(0);
    expect(keyed(three)).toEqual(keyed(one));
    expect(three.properties).toEqual(one.properties);
    expect(three.directives).toEqual(one.directives);
  });

  it('writes one self-contained reproducer per distinct failure, and it replays to the same verdict', async () => {
    const r = await startCampaign(options({ runs: 8 })).done;
    const f = r.failures[0]!;
    const files = readdirSync(join(f.reproducer, '..')).filter((n) => n.endsWith('.json') && n !== 'summary.json');
    expect(files).toHaveLength(r.failures.length);
    const repro = readReproducer(f.reproducer);
    expect(repro.case.program).toMatch(/^pipeline /);
    expect(repro.case.schedule).toMatch(/parallel-any-loop/);
    expect(repro.fault).toBe('parallel-reduction');
    expect(repro.verdict).toBe(f.verdict);
    const again = await replay(f.reproducer);
    expect(again.reproduced).toBe(true);
    // The replayed program was parsed, so its statements carry source locations; so do those of
    // a recorded case whose constants were folded (the folded case is parsed from its text).
    const unlocated = (s: string) => s.replace(/ at <[^>]*>:\d+:\d+/, '');
    expect(again.result.status === 'fail' && unlocated(again.result.actual)).toBe(unlocated(repro.actual));
  });

  it('pins failures on the planted directive and de-duplicates them by it', async () => {
    const r = await startCampaign(options({ runs: 30 })).done;
    const blamed = r.failures.filter((f) => f.culprit === 'parallel-any-loop');
    expect(blamed).toHaveLength(1);
    expect(blamed[0]!.key).toBe('race-free/directive:parallel-any-loop');
  });

  it('shards partition the campaign: merged shard outputs equal the whole run', async () => {
    const whole = await startCampaign(options({ runs: 30 })).done;
    const dirs = await Promise.all([0, 1, 2].map(async (i) => {
      const out = scratch();
      const r = await startCampaign(options({ runs: 30, shard: { index: i, count: 3 }, out })).done;
      writeFileSync(join(out, 'summary.json'), jsonSummary(r, true));
      return out;
    }));
    const merged = mergeSummaries(dirs);
    expect(merged.runs).toBe(whole.runs);
    expect(keyed(merged)).toEqual(keyed(whole));
    expect(merged.properties).toEqual(whole.properties);
  });

  it('refuses to merge summaries of different campaigns', async () => {
    const a = scratch();
    const b = scratch();
    writeFileSync(join(a, 'summary.json'), jsonSummary(await startCampaign(options({ runs: 3, seed: 1, config: DEFAULT_CONFIG })).done, true));
    writeFileSync(join(b, 'summary.json'), jsonSummary(await startCampaign(options({ runs: 3, seed: 2, config: DEFAULT_CONFIG })).done, true));
    expect(() => mergeSummaries([a, b])).toThrow(/different campaigns/);
    expect(JSON.parse(readFileSync(join(a, 'summary.json'), 'utf8')).seed).toBe(1);
  });
});
