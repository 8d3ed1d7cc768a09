// One heap limit for plug-in code, in this thread's workers: the worker a command with a plug-in
// module runs in (src/cli/plugin-heap.ts) and each campaign worker (src/fuzz/runner.ts). A check
// that allocates past it ends its worker only, as an out-of-memory verdict; a user lowers it to
// find such checks sooner, or raises it for cases that are large on purpose.
import { CLI_LOC, UserError } from '../diag.js';

/** The environment variable that sets the limit, in megabytes (docs/development.md, "Hostile input"). */
export const PLUGIN_HEAP_ENV = 'REFSEM_PLUGIN_HEAP_MB';
/** The default: the heap of one campaign worker (the machine's memory is shared by the jobs). */
export const DEFAULT_PLUGIN_HEAP_MB = 4096;

/** The limit `env` sets; a UserError (exit 2) when it is not a number of megabytes of at least 16. */
export function heapLimitMb(env: NodeJS.ProcessEnv): number {
  const text = env[PLUGIN_HEAP_ENV];
  if (text === undefined || text === '') return DEFAULT_PLUGIN_HEAP_MB;
  if (!/^\d+$/.test(text) || Number(text) < 16) {
    throw new UserError(`${PLUGIN_HEAP_ENV}=${text} is not a heap limit`, CLI_LOC, `set ${PLUGIN_HEAP_ENV} to a number of megabytes, at least 16 (default ${DEFAULT_PLUGIN_HEAP_MB}), or unset it`);
  }
  return Number(text);
}
