// Files the tests read and write: the project's examples/, and scratch directories holding the
// inputs of CLI tests.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const examplesDir = join(__dirname, '..', '..', 'examples');

/** The text of examples/<name>. */
export const example = (name: string): string => readFileSync(join(examplesDir, name), 'utf8');

/** A fresh temporary directory, and `file`, which writes a file into it and returns its path. */
export function scratch(prefix: string): { dir: string; file: (name: string, text: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const file = (name: string, text: string): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  return { dir, file };
}
