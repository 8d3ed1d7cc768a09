// Every command of the documents under docs/ and spec/ runs as written. A ```sh block holds refsem
// commands run in order from a folder laid out like the repository root (test/cli/readme-tour.test.ts
// does the same for the README); each must exit with the code its comment states (0 otherwise)
// and print the output its comment shows. Commands that are not meant to run are fenced ```text,
// and an unlabelled fence must not hide a command (docs/development.md, "Commands in the documents").
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { type ShBlock, inScratchRoot, repoRoot, shBlocks } from '../support/doc-commands.js';

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? markdownFiles(join(dir, d.name)) : d.name.endsWith('.md') ? [join(dir, d.name)] : []));
}

const documents = [...markdownFiles(join(repoRoot, 'docs')), ...markdownFiles(join(repoRoot, 'spec'))].map((f) => ({ file: relative(repoRoot, f), md: readFileSync(f, 'utf8') }));
const blocks: (ShBlock & { readonly file: string })[] = documents.flatMap(({ file, md }) => shBlocks(md).map((b) => ({ ...b, file })));
const where = (b: { file: string; line: number }) => `${b.file}:${b.line}`;

/** Lines of fences without an info string that read like shell commands. */
function hiddenCommands(file: string, md: string): string[] {
  const found: string[] = [];
  let fence: { ticks: string; info: string } | undefined;
  md.split('\n').forEach((l, i) => {
    const f = /^(`{3,})(.*)$/.exec(l);
    if (fence === undefined) {
      if (f) fence = { ticks: f[1]!, info: f[2]!.trim() };
    } else if (f && f[1] === fence.ticks && f[2]!.trim() === '') fence = undefined;
    else if (fence.info === '' && /^(\$ |npx |npm |node |refsem )/.test(l)) found.push(`${file}:${i + 1}: ${l}`);
  });
  return found;
}

const ran = new Set<string>();

describe('the commands of the documents', () => {
  inScratchRoot('refsem-docs-');

  it('holds only refsem commands in its ```sh blocks, at least one per block', () => {
    expect(blocks.flatMap((b) => b.others.map((o) => `${b.file}:${o.line}: ${o.text}`))).toEqual([]);
    expect(blocks.filter((b) => b.commands.length === 0).map(where)).toEqual([]);
  });

  it('hides no command in a fence without an info string (```sh runs, ```text does not)', () => {
    expect(documents.flatMap(({ file, md }) => hiddenCommands(file, md))).toEqual([]);
  });

  it.each(blocks.map((b) => [where(b), b] as const))('%s', async (_at, b) => {
    for (const c of b.commands) {
      const r = await runCli(c.argv);
      expect(r.code, `refsem ${c.line}\n${r.stdout}\n${r.stderr}`).toBe(c.exit ?? 0);
      if (c.output !== undefined) expect(r.stdout.trim()).toBe(c.output);
    }
    ran.add(where(b));
  }, 120_000);

  it('ran every ```sh block of every document', () => {
    expect(blocks.length).toBeGreaterThan(0);
    expect([...ran].sort()).toEqual(blocks.map(where).sort());
  });
});
