// The limits on plug-in code, set from the environment so that they reach every thread and worker
// a command starts: the heap of the worker a command with a plug-in module runs in
// (src/cli/plugin-heap.ts) and of each campaign worker (src/fuzz/runner.ts), and the time one
// plug-in call or module load may take (src/node/watchdog.ts, src/node/user-module.ts). A user
// lowers them to find hostile checks sooner, or raises them for cases that are large on purpose.
import { CLI_LOC, UserError } from '../diag.js';

/** The environment variable that sets the heap limit, in megabytes (docs/development.md, "Hostile input"). */
export const PLUGIN_HEAP_ENV = 'REFSEM_PLUGIN_HEAP_MB';
/** The default: the heap of one campaign worker (the machine's memory is shared by the jobs). */
export const DEFAULT_PLUGIN_HEAP_MB = 4096;

/** The environment variable that sets the time limit of one plug-in call or module load, in seconds. */
export const PLUGIN_TIME_ENV = 'REFSEM_PLUGIN_TIME_LIMIT_S';
/** The default: far longer than any directive or engine takes on a case a campaign generates. */
const DEFAULT_PLUGIN_TIME_S = 10;

/** A whole number of `unit` of at least `min` that `env[name]` sets, else `fallback`; a UserError (exit 2) for anything else. */
function setting(env: NodeJS.ProcessEnv, name: string, what: string, unit: string, min: number, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min) {
    throw new UserError(`${name}=${text} is not a ${what}`, CLI_LOC, `set ${name} to a number of ${unit}, at least ${min} (default ${fallback}), or unset it`);
  }
  return Number(text);
}

/** The heap limit `env` sets, in megabytes. */
export function heapLimitMb(env: NodeJS.ProcessEnv): number {
  return setting(env, PLUGIN_HEAP_ENV, 'heap limit', 'megabytes', 16, DEFAULT_PLUGIN_HEAP_MB);
}

/** The time limit `env` sets for one plug-in call or module load, in milliseconds. */
export function pluginTimeLimitMs(env: NodeJS.ProcessEnv): number {
  return setting(env, PLUGIN_TIME_ENV, 'time limit', 'seconds', 1, DEFAULT_PLUGIN_TIME_S) * 1000;
}
