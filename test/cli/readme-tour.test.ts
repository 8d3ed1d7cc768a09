// Every `refsem` command of the README runs as written, in order, from a folder where
// `examples/` is the project's examples (as in a clone); where the README shows the output in a
// comment, the output is that. Commands that report a failure on purpose are listed with why.
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { shellWords } from '../support/spec-examples.js';

const root = join(__dirname, '..', '..');

/** Commands whose documented outcome is a non-zero exit code. */
const EXPECTED_EXIT: Record<string, { code: number; why: string }> = {
  'fuzz --runs 60 --seed 5 --property race-free': { code: 1, why: 'the unsound example directive is found out: a data race' },
  'replay fuzz-out/race-free-0ffa3769e6.json': { code: 1, why: 'the reproducer still fails' },
  'fuzz --corpus fuzz-out --runs 30': { code: 1, why: 'the corpus holds the race-free reproducer, which still fails' },
};

interface Command {
  readonly line: string;
  readonly argv: string[];
  /** the output the README shows in the comment, when it shows one */
  readonly output?: string;
}

function readmeCommands(): Command[] {
  const md = readFileSync(join(root, 'README.md'), 'utf8');
  const blocks = [...md.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((b) =>
    b.split('\n').flatMap((raw) => {
      const m = /^(?:npx )?refsem (.*?)(?:\s+#\s*(.*))?$/.exec(raw.trim());
      if (!m) return [];
      const comment = m[2]?.trim();
      // A comment that starts like a value or a JSON object is the command's output.
      const output = comment !== undefined && /^[-\d{["]/.test(comment) ? comment : undefined;
      return [{ line: m[1]!, argv: shellWords(m[1]!), ...(output !== undefined ? { output } : {}) }];
    }),
  );
}

const commands = readmeCommands();
let dir: string;
let cwd: string;

describe('the README tour', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'refsem-readme-'));
    symlinkSync(join(root, 'examples'), join(dir, 'examples'));
    cwd = process.cwd();
    process.chdir(dir);
  });
  afterAll(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('has commands to run', () => {
    expect(commands.length).toBeGreaterThan(25);
  });

  it.each(commands.map((c) => [c.line, c] as const))('refsem %s', async (_line, c) => {
    const r = await runCli(c.argv);
    const expected = Object.entries(EXPECTED_EXIT).find(([prefix]) => c.line.startsWith(prefix))?.[1].code ?? 0;
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(expected);
    if (c.output !== undefined) expect(r.stdout.trim()).toBe(c.output);
  }, 120_000);
});
