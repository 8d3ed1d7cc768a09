// Every `refsem` command of the README runs as written, in order, from a folder where
// `examples/` is the project's examples (as in a clone); where the README shows the output in a
// comment, the output is that. Commands that report a failure on purpose are listed with why.
// test/docs/commands.test.ts does the same for the other documents.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { inScratchRoot, repoRoot, shBlocks } from '../support/doc-commands.js';

/** Commands whose documented outcome is a non-zero exit code. */
const EXPECTED_EXIT: Record<string, { code: number; why: string }> = {
  'step examples/racy.tgt': { code: 1, why: 'the racy program gets stuck in a data race, which is the point of the example' },
  'fuzz --runs 10 --seed 3 --property race-free': { code: 1, why: 'the unsound example directive is found out: a data race' },
  'replay fuzz-out/race-free-70f4f6c69e.json': { code: 1, why: 'the reproducer still fails' },
  'fuzz --corpus fuzz-out --runs 30': { code: 1, why: 'the corpus holds the race-free reproducer, which still fails' },
};

const commands = shBlocks(readFileSync(join(repoRoot, 'README.md'), 'utf8')).flatMap((b) => b.commands);

describe('the README tour', () => {
  inScratchRoot('refsem-readme-');

  it('has commands to run', () => {
    expect(commands.length).toBeGreaterThan(25);
  });

  it.each(commands.map((c) => [c.line, c] as const))('refsem %s', async (_line, c) => {
    const r = await runCli(c.argv);
    const expected = Object.entries(EXPECTED_EXIT).find(([prefix]) => c.line.startsWith(prefix))?.[1].code ?? 0;
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(expected);
    if (c.output !== undefined) expect(r.stdout.trim()).toBe(c.output);
  }, 300_000);
});
