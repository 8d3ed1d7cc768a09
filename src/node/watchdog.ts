// A watchdog for plug-in code. Directives and engines from the user's modules run synchronously in
// refsem's own thread, so a call that never returns could not be interrupted by anything refsem
// schedules itself: V8 can stop a script at a time limit, so every call of a plug-in function is
// made from a tiny script run with one. The call's own code and its result stay in refsem's realm.
import { format } from 'node:util';
import { Script, createContext } from 'node:vm';
import { pluginTimeLimitMs } from './plugin-limits.js';

const call = new Script('f(...a)');
const context = createContext({});

/**
 * `f`, stopped with an error naming `what` when a call runs longer than `limitMs`; errors the
 * call throws pass through unchanged.
 */
export function watched<A extends unknown[], R>(f: (...args: A) => R, what: string, limitMs = pluginTimeLimitMs(process.env), tag?: string): (...args: A) => R {
  return (...args: A): R => {
    context.f = f;
    context.a = args;
    if (tag !== undefined) running.push(tag);
    try {
      return call.runInContext(context, { timeout: limitMs }) as R;
    } catch (e) {
      if ((e as { code?: string })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new Error(`${what} did not return within ${limitMs / 1000} s (stopped by the watchdog)`);
      throw e;
    } finally {
      if (tag !== undefined) running.pop();
      context.f = undefined;
      context.a = undefined;
    }
  };
}

/** The plug-ins whose calls are in progress, innermost last (their console output is tagged with it). */
const running: string[] = [];

const LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/**
 * Sends what a plug-in prints with `console` while one of its calls runs to `write` (stderr, or the
 * host of a worker thread, which would otherwise lose a worker's own stderr when the command
 * ends), each line tagged `[directive NAME]` or `[engine NAME]`; stdout stays the command's own
 * (a `--json` answer must parse). Output outside plug-in calls goes where it always went.
 */
export function routePluginConsole(write: (text: string) => void): void {
  for (const level of LEVELS) {
    const own = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      const tag = running[running.length - 1];
      if (tag === undefined) own(...args);
      else write(format(...args).split('\n').map((l) => `[${tag}] ${l}\n`).join(''));
    };
  }
}
