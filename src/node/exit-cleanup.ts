// Work that must not outlive refsem: temporary folders (src/node/temp-dir.ts) and the C compiler
// runs of src/codegen/toolchain.ts. No `finally` runs when a signal ends the process (Ctrl-C during
// a long compile, or `timeout`), so the registered cleanups run on SIGINT, SIGTERM and exit; the
// signal then ends the process as it would have, unless another handler (a campaign's Ctrl-C,
// which ends its run with a summary and leaves through exit) has taken the signal over.

const live = new Set<() => void>();
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

function runAll(): void {
  for (const cleanup of [...live]) cleanup();
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  runAll();
  detach();
  process.kill(process.pid, signal);
}

function attach(): void {
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on('exit', runAll);
}

function detach(): void {
  for (const s of SIGNALS) process.off(s, onSignal);
  process.off('exit', runAll);
}

/** Runs `cleanup` if refsem ends before the returned function is called; calling it forgets `cleanup` (without running it). */
export function cleanupOnExit(cleanup: () => void): () => void {
  if (live.size === 0) attach();
  live.add(cleanup);
  return () => {
    if (!live.delete(cleanup)) return;
    if (live.size === 0) detach();
  };
}
