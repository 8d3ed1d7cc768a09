// `refsem replay --html`: a reproducer rendered as a report page, with the replayed verdict on top.
// The campaign that makes the reproducer is the README's ten-check one (seed 3 finds the race): a
// sixty-check campaign made the test time out on a loaded machine.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { examplesDir, scratchDir } from '../support/files.js';

describe('refsem replay --html', () => {
  it('renders the failing case of a campaign with its program, schedule and verdict', async () => {
    const out = scratchDir('refsem-replay-html-');
    const unsound = join(examplesDir, 'directives', 'unsound-parallel.mjs');
    const f = await runCli(['fuzz', '--runs', '10', '--seed', '3', '--jobs', '1', '--property', 'race-free', '--directive', unsound, '--out', out, '--json']);
    expect(f.code).toBe(1);
    const repro = readdirSync(out).find((n) => n.startsWith('race-free-'))!;
    const page = join(out, 'case.html');
    const r = await runCli(['replay', join(out, repro), '--html', page]);
    expect(r.code).toBe(1);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('replayed verdict: data-race (recorded: data-race, property race-free)');
    expect(html).toContain('<section id="programs">');
    expect(html).toMatch(/after <code>parallel-any /);
  }, 120_000);
});
