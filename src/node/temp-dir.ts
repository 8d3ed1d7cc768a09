// Temporary folders that do not outlive refsem. A folder removed only in a `finally` stays behind
// when the process is ended by a signal (Ctrl-C during a long C compile, or `timeout`), since no
// `finally` runs then. Live folders are removed on SIGINT, SIGTERM and exit; the signal then ends
// the process as it would have, unless another handler (a campaign's Ctrl-C, which ends its run
// with a summary and cleans up on its own way out) has taken the signal over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const live = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

function removeAll(): void {
  for (const d of live) rmSync(d, { recursive: true, force: true });
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  removeAll();
  detach();
  process.kill(process.pid, signal);
}

function attach(): void {
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on('exit', removeAll);
}

function detach(): void {
  for (const s of SIGNALS) process.off(s, onSignal);
  process.off('exit', removeAll);
}

/** A new folder under the system's temporary folder, removed by {@link removeTempDir} or when refsem ends. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (live.size === 0) attach();
  live.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  live.delete(dir);
  if (live.size === 0) detach();
}
