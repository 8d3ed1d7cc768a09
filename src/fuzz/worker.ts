// Worker-thread entry of a campaign (runner.ts spawns it from dist/): runs its slice of check
// indices and reports progress, failures and the check in flight (for the time-budget watchdog).
import { parentPort, workerData } from 'node:worker_threads';
import type { EnvConfig } from './env.js';
import { makeEnv } from './make-env.js';
import { guardExit } from '../node/io.js';
import { shutdownZ3 } from '../expr/smt.js';
import { routePluginConsole } from '../node/watchdog.js';
import { selectProperties } from './properties/index.js';
import type { WorkerMessage } from './runner.js';
import { type SliceSpec, runSlice } from './slice.js';

interface Data {
  readonly spec: SliceSpec;
  readonly config: EnvConfig;
  readonly properties: readonly string[];
  readonly watch: Float64Array;
}

if (parentPort) {
  // Plug-ins run in this thread too: their process.exit is an error they threw, not the thread's end.
  guardExit();
  routePluginConsole((t) => void process.stderr.write(t));
  const port = parentPort;
  const d = workerData as Data;
  let stop = false;
  port.on('message', (m: { type: string }) => {
    if (m.type === 'stop') stop = true;
  });
  const post = (m: WorkerMessage) => port.postMessage(m);
  const env = await makeEnv(d.config);
  await runSlice(d.spec, env, selectProperties(d.properties), {
    shouldStop: () => stop,
    onFound: (found) => post({ type: 'found', found }),
    onProgress: (stats, checks) => post({ type: 'progress', stats, checks }),
    onStart: (index, level, at) => {
      d.watch[1] = Date.now();
      d.watch[2] = level;
      if (at) {
        d.watch[4] = at.k;
        d.watch[5] = at.sliceK;
        d.watch[6] = at.slice;
        d.watch[7] = at.pos;
      }
      d.watch[0] = index;
    },
    onEngine: (running) => {
      d.watch[3] = running ? 1 : 0;
    },
  });
  // Z3's own threads (the prove-vs-run property) would keep this one alive.
  await shutdownZ3();
  post({ type: 'done' });
  port.close();
}
