// Regression: merge accepted the same shard twice (counting its checks twice) and merged an
// incomplete set of shards as if it were the whole campaign.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratchDir } from '../support/files.js';

/** An output directory holding the summary of shard `shard` of a campaign with seed 7. */
function shardDir(shard: string, runs = 10): string {
  const dir = join(scratchDir('refsem-merge-'), 'out');
  mkdirSync(dir);
  const summary = { seed: 7, runs, elapsed_s: 1, checks_per_s: runs, jobs: 1, shard, engine: 'beta0', interrupted: false, failures: [], directives: {}, properties: {}, constructs: {} };
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
  return dir;
}

describe('refsem merge checks the shards form one campaign', () => {
  it('merges every shard once', async () => {
    const r = await runCli(['merge', shardDir('0/3'), shardDir('1/3'), shardDir('2/3'), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).runs).toBe(30);
  });

  it('refuses a shard given twice, naming both directories', async () => {
    const a = shardDir('1/2');
    const r = await runCli(['merge', shardDir('0/2'), a, a]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('shard 1/2 is given twice');
  });

  it('refuses missing shards unless --partial, which lists them', async () => {
    const dirs = [shardDir('0/4'), shardDir('2/4')];
    const r = await runCli(['merge', ...dirs]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('shards 1/4, 3/4 of the campaign are missing');
    expect(r.stderr).toContain('--partial');
    const p = await runCli(['merge', ...dirs, '--partial', '--json']);
    expect(p.code).toBe(0);
    expect(p.stderr).toContain('warning: merged without shards 1/4, 3/4');
    expect(JSON.parse(p.stdout).runs).toBe(20);
  });

  it('a summary claiming a huge number of shards is answered at once (regression: the check counted to N)', async () => {
    const r = await runCli(['merge', shardDir('0/99999999999')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('shards 1/99999999999, 2/99999999999');
    expect(r.stderr).toContain('and 99999999988 more of the campaign are missing');
  });

  it('refuses shards that split the campaign differently', async () => {
    const r = await runCli(['merge', shardDir('0/2'), shardDir('1/3')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('split the campaign differently');
  });
});
