// A heap limit for plug-in code. Directive and engine modules run inside refsem; one that
// allocates without bound would end Node itself with a fatal heap error (exit 134, no message),
// outside the exit codes of docs/architecture.md ("Contracts"). V8 bounds a heap per thread
// and, at the bound, ends only that thread, so a command line that loads a plug-in module runs in
// a worker thread with a limited heap, and this thread reports the worker's end as the plug-in's
// error (exit 2). Campaign workers are bounded the same way (src/fuzz/runner.ts); commands without
// plug-ins run in this thread, as before.
import { readFileSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { UserError, argLoc } from '../diag.js';
import { EXIT, type IO, guardExit } from '../node/io.js';
import { DEFAULT_PLUGIN_HEAP_MB, PLUGIN_HEAP_ENV, heapLimitMb, pluginTimeLimitMs } from '../node/plugin-limits.js';
import { isModulePath } from '../node/plugins.js';
import { routePluginConsole } from '../node/watchdog.js';
import { main } from './main.js';

interface PluginArg {
  readonly option: string;
  readonly module: string;
}

/** The modules a reproducer embeds (`replay FILE` runs them); none when the file is unreadable or not one. */
function replayedModules(argv: readonly string[]): PluginArg[] {
  const file = argv[0] === 'replay' ? argv.slice(1).find((a) => !a.startsWith('-')) : undefined;
  if (file === undefined) return [];
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as { modules?: unknown };
    if (!Array.isArray(r.modules)) return [];
    return r.modules.flatMap((m: unknown) => (typeof (m as { path?: unknown })?.path === 'string' ? [{ option: 'replay', module: (m as { path: string }).path }] : []));
  } catch {
    return []; // replay itself reports what is wrong with the file
  }
}

/**
 * The plug-in modules a command line names: every `--directive M`, `--engine M` when M is a module
 * path, and the modules of a reproducer that `replay` runs.
 */
export function pluginModules(argv: readonly string[]): PluginArg[] {
  const found: PluginArg[] = [...replayedModules(argv)];
  argv.forEach((a, i) => {
    const m = /^(--directive|--engine)(?:=(.*))?$/.exec(a);
    const module = m?.[2] ?? argv[i + 1];
    if (!m || module === undefined) return;
    if (m[1] === '--directive' || isModulePath(module)) found.push({ option: m[1]!, module });
  });
  return found;
}

type HostMessage = { readonly out: string } | { readonly err: string } | { readonly code: number };
/** Sent to the worker on Ctrl-C: signals reach only the main thread. */
const INTERRUPT = 'interrupt';

/**
 * Runs one command line: in this thread when it loads no plug-in, else in a worker thread whose
 * heap is limited to `REFSEM_PLUGIN_HEAP_MB`.
 */
export async function runCommand(argv: readonly string[], io: IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const plugins = pluginModules(argv);
  if (plugins.length === 0) return main(argv, io);
  let limit: number;
  try {
    limit = heapLimitMb(env);
    pluginTimeLimitMs(env); // read again where the plug-in runs; a bad value is refused here, before the worker starts
  } catch (e) {
    io.err((e as UserError).render() + '\n');
    return EXIT.badInput;
  }
  let onInt = () => {};
  return new Promise<number>((resolve) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { argv, isTTY: io.isTTY }, resourceLimits: { maxOldGenerationSizeMb: limit } });
    // Ctrl-C is passed on, so that a campaign ends with its summary as it does in this thread; a
    // second one (or a command that does not handle it) ends the command at once.
    let interrupted = false;
    onInt = () => {
      if (interrupted) {
        resolve(EXIT.interrupted);
        void worker.terminate();
      }
      interrupted = true;
      worker.postMessage(INTERRUPT);
    };
    process.on('SIGINT', onInt);
    worker.on('message', (m: HostMessage) => {
      if ('out' in m) io.out(m.out);
      else if ('err' in m) io.err(m.err);
      else resolve(m.code);
    });
    worker.on('error', (e) => {
      if ((e as { code?: string }).code !== 'ERR_WORKER_OUT_OF_MEMORY') {
        io.err(`internal error: ${e.stack ?? String(e)}\n`);
        resolve(EXIT.internal);
        return;
      }
      const names = plugins.map((p) => `'${p.module}'`).join(', ');
      const first = plugins[0]!;
      io.err(new UserError(
        `the command ran out of memory with plug-in module${plugins.length > 1 ? 's' : ''} ${names} loaded: its heap is limited to ${limit} MB`,
        argLoc(first.option, first.module),
        `a directive or engine must not allocate without bound; if the case itself is that large, raise the limit with ${PLUGIN_HEAP_ENV}=MB (default ${DEFAULT_PLUGIN_HEAP_MB})`,
      ).render() + '\n');
      resolve(EXIT.badInput);
    });
    // A worker that ends without a code did not get to report one: refsem's fault.
    worker.on('exit', () => resolve(EXIT.internal));
  }).finally(() => process.off('SIGINT', onInt));
}

// The worker's side: the command runs as it would in the main thread, its output posted in order.
const host = workerData as { argv?: readonly string[]; isTTY?: boolean } | null;
if (!isMainThread && parentPort && host?.argv !== undefined) {
  guardExit();
  const port = parentPort;
  const post = (m: HostMessage) => port.postMessage(m);
  const onHost = (m: unknown) => {
    if (m !== INTERRUPT) return;
    if (process.listenerCount('SIGINT') > 0) process.emit('SIGINT', 'SIGINT');
    else post({ code: EXIT.interrupted });
  };
  port.on('message', onHost);
  routePluginConsole((err) => post({ err }));
  post({ code: await main(host.argv, { out: (out) => post({ out }), err: (err) => post({ err }), isTTY: host.isTTY ?? false }) });
  port.off('message', onHost);
}
