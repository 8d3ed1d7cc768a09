// `refsem --version` (and `-V`) print the version of package.json; reproducers and campaign
// summaries record it, and replay still accepts reproducers written before they did.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { examplesDir, scratchDir } from '../support/files.js';

const version = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

describe('the version of refsem', () => {
  it.each(['--version', '-V'])('%s prints it', async (flag) => {
    const r = await runCli([flag]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${version}\n`);
  });

  it('summaries and reproducers record it; a reproducer without it still replays', async () => {
    const out = scratchDir('refsem-version-');
    const unsound = join(examplesDir, 'directives', 'unsound-parallel.mjs');
    const f = await runCli(['fuzz', '--runs', '10', '--seed', '3', '--jobs', '1', '--property', 'race-free', '--directive', unsound, '--out', out, '--json']);
    expect(JSON.parse(f.stdout).refsem_version).toBe(version);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).refsem_version).toBe(version);
    const file = join(out, readdirSync(out).find((n) => n.startsWith('race-free-'))!);
    const repro = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(repro.refsem_version).toBe(version);
    delete repro.refsem_version;
    writeFileSync(file, JSON.stringify(repro));
    expect((await runCli(['replay', file])).stdout).toContain('(reproduced)');
  }, 120_000);
});
