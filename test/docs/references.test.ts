// Every document the sources, spec, docs and examples name exists in the repository: references
// to files kept elsewhere (or never written) are caught here, not by a reader. Tests are left
// out: their fixtures name made-up chapters on purpose.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

function files(dir: string, exts: readonly string[]): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' || d.name.startsWith('.') || d.name.startsWith('dist') ? [] : files(p, exts);
    return exts.some((e) => d.name.endsWith(e)) ? [p] : [];
  });
}

const sources = [
  ...['src', 'docs', 'spec', 'examples', 'playground', 'scripts'].flatMap((d) => files(join(root, d), ['.ts', '.md', '.mjs', '.alg', '.sched', '.sh'])),
  join(root, 'README.md'),
];

/** Every markdown file a file names, with where. */
const references = sources.flatMap((file) => {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?<![\w/.-])((?:\.\.?\/)?(?:[\w.-]+\/)*[\w.-]+\.md)(?:#[\w-]*)?/g)].map((m) => ({ file, ref: m[1]! }));
});

/** A reference resolves against the naming file's folder, the root, docs/ or spec/. */
const resolves = (file: string, ref: string) => [dirname(file), root, join(root, 'docs'), join(root, 'spec')].some((base) => existsSync(join(base, ref)));

describe('document references', () => {
  it('finds references to check', () => {
    expect(references.length).toBeGreaterThan(50);
  });

  it('every named document exists', () => {
    const missing = references.filter(({ file, ref }) => !resolves(file, ref)).map(({ file, ref }) => `${relative(root, file)}: ${ref}`);
    expect([...new Set(missing)]).toEqual([]);
  });
});
