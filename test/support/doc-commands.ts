// The shell commands of the project's documents: every ```sh block holds commands a reader can run
// as written from the repository root. Blocks that are not meant to run (a cluster job, a campaign
// of minutes) are fenced ```text instead (docs/development.md, "Commands in the documents").
//
// A line `[npx] refsem ARGS  # comment` is a command; a comment that starts like a value or a JSON
// object is the output the command prints, and a comment `exit N …` states its exit code (0
// otherwise). Lines that are blank or only a comment explain the lines above them.
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { shellWords } from './spec-examples.js';

export const repoRoot = join(__dirname, '..', '..');

export interface DocCommand {
  /** the command line after `refsem ` */
  readonly line: string;
  readonly argv: string[];
  /** the output the document shows in the comment, when it shows one */
  readonly output?: string;
  /** the exit code the document states in the comment, when it states one */
  readonly exit?: number;
}

export interface ShBlock {
  /** 1-based line of the opening fence */
  readonly line: number;
  readonly commands: DocCommand[];
  /** lines that are neither a refsem command nor blank nor a comment, with their line numbers */
  readonly others: { readonly line: number; readonly text: string }[];
}

function commandOf(raw: string): DocCommand | undefined {
  const m = /^(?:npx )?refsem (.*?)(?:\s+#\s*(.*))?$/.exec(raw.trim());
  if (!m) return undefined;
  const comment = m[2]?.trim();
  const output = comment !== undefined && /^[-\d{["]/.test(comment) ? comment : undefined;
  const exit = comment === undefined ? undefined : /^exit (\d+)\b/.exec(comment)?.[1];
  return { line: m[1]!, argv: shellWords(m[1]!), ...(output !== undefined ? { output } : {}), ...(exit !== undefined ? { exit: Number(exit) } : {}) };
}

/** The ```sh blocks of a Markdown text, in order. */
export function shBlocks(md: string): ShBlock[] {
  const lines = md.split('\n');
  const blocks: ShBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const block: ShBlock = { line: i + 1, commands: [], others: [] };
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) {
      const raw = lines[i]!;
      const c = commandOf(raw);
      if (c) block.commands.push(c);
      else if (raw.trim() !== '' && !raw.trim().startsWith('#')) block.others.push({ line: i + 1, text: raw });
    }
    blocks.push(block);
  }
  return blocks;
}

/**
 * Runs the test file's commands from a fresh directory where `examples/` is the project's examples
 * (as in a clone), so that what they write (fuzz-out/, …) stays out of the repository.
 */
export function inScratchRoot(prefix: string): void {
  let dir: string;
  let cwd: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    symlinkSync(join(repoRoot, 'examples'), join(dir, 'examples'));
    cwd = process.cwd();
    process.chdir(dir);
  });
  afterAll(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });
}
