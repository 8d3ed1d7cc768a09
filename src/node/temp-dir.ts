// Temporary folders that do not outlive refsem: a folder removed only in a `finally` stays behind
// when a signal ends the process, so each live folder is also a cleanup of src/node/exit-cleanup.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanupOnExit } from './exit-cleanup.js';

const live = new Map<string, () => void>();

/** A new folder under the system's temporary folder, removed by {@link removeTempDir} or when refsem ends. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  live.set(dir, cleanupOnExit(() => rmSync(dir, { recursive: true, force: true })));
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  live.get(dir)?.();
  live.delete(dir);
}
