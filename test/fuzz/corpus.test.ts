// A regression corpus: reproducers replayed before the campaign, bad files skipped with their path.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratchDir } from '../support/files.js';

const UNSOUND = join(__dirname, '..', '..', 'examples', 'directives', 'unsound-parallel.mjs');

describe('fuzz --corpus', () => {
  it('replays every reproducer first, reports those still failing and skips files that are not reproducers', async () => {
    const dir = scratchDir('refsem-corpus-');
    const corpus = join(dir, 'corpus');
    const first = await runCli(['fuzz', '--runs', '10', '--seed', '3', '--jobs', '1', '--property', 'race-free', '--directive', UNSOUND, '--out', corpus, '--json']);
    expect(first.code).toBe(1);
    writeFileSync(join(corpus, 'broken.json'), '{"format": "refsem-reproducer/1"');
    writeFileSync(join(corpus, 'foreign.json'), '{"hello": 1}');
    const r = await runCli(['fuzz', '--runs', '5', '--seed', '1', '--jobs', '1', '--property', 'roundtrip', '--corpus', corpus, '--out', join(dir, 'out')]);
    expect(r.stdout).toMatch(/corpus .*: \d+ reproducers? replayed, [1-9]\d* still failing, 0 fixed, 2 skipped/);
    expect(r.stdout).toMatch(/skipped: .*broken\.json:\d+:\d+: error/);
    expect(r.stdout).toMatch(/skipped: .*foreign\.json:1:1: error: not a refsem reproducer/);
    expect(r.stdout).toMatch(/roundtrip: 5 checks/);
    expect(r.code).toBe(1);
  }, 120_000);

  it('reports a missing directory with exit 2', async () => {
    const r = await runCli(['fuzz', '--runs', '1', '--corpus', join(scratchDir('refsem-corpus-'), 'nowhere')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read the corpus directory/);
  });

  it('an empty corpus replays nothing and the campaign runs', async () => {
    const dir = scratchDir('refsem-corpus-');
    mkdirSync(join(dir, 'c'));
    const r = await runCli(['fuzz', '--runs', '3', '--seed', '1', '--jobs', '1', '--property', 'roundtrip', '--corpus', join(dir, 'c'), '--out', join(dir, 'o')]);
    expect(r.stdout).toMatch(/0 reproducers replayed, 0 still failing, 0 fixed/);
    expect(r.code).toBe(0);
  });
});
