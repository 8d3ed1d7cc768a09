// Files the tests read and write: the project's examples/, and scratch directories holding the
// inputs of CLI tests.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export const examplesDir = join(__dirname, '..', '..', 'examples');

/** The text of examples/<name>. */
export const example = (name: string): string => readFileSync(join(examplesDir, name), 'utf8');

const made: string[] = [];
// Every test file that imports this module removes its scratch directories when it ends.
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh temporary directory, removed when the test file ends. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A fresh temporary directory, and `file`, which writes a file into it and returns its path. */
export function scratch(prefix: string): { dir: string; file: (name: string, text: string) => string } {
  const dir = scratchDir(prefix);
  const file = (name: string, text: string): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  return { dir, file };
}
