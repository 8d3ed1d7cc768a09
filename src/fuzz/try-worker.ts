// Worker-thread entry of a stuck check's shrink (shrink-stuck.ts): makes each candidate case
// concrete, sends its text at once — so that the program is known even when the check then hangs —
// and checks it. The main thread times every try and ends this worker when one runs too long or
// exhausts its heap; no candidate runs on the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { concretize, evaluateAsync } from './check.js';
import type { EnvConfig } from './env.js';
import type { CaseText } from './property.js';
import { makeEnv } from './make-env.js';
import { guardExit } from '../node/io.js';
import { routePluginConsole } from '../node/watchdog.js';
import { propertyNamed } from './properties/index.js';
import { sizedEnvs } from './size.js';

interface Data {
  readonly config: EnvConfig;
  readonly property: string;
  readonly level: number;
}

/** What a try tells the main thread: the case's text once it is concrete, then how its check ended. */
export type TryMessage =
  | { readonly type: 'made'; readonly text: CaseText }
  | { readonly type: 'result'; readonly outcome: string }
  /** the environment is built (plug-ins loaded): tries are timed from here on */
  | { readonly type: 'ready' };

/** A try: the candidate's blueprint, and whether to check it or only make it concrete (the original case). */
export interface TryRequest {
  readonly g: unknown;
  readonly check: boolean;
}

if (parentPort) {
  guardExit();
  routePluginConsole((t) => void process.stderr.write(t));
  const port = parentPort;
  const d = workerData as Data;
  const prop = propertyNamed(d.property);
  const env = sizedEnvs(await makeEnv(d.config))(d.level);
  port.on('message', (m: TryRequest) => {
    void (async () => {
      const made = concretize(prop, m.g, env);
      if (made.ok) port.postMessage({ type: 'made', text: prop.encode(made.c) } satisfies TryMessage);
      const r = !m.check ? undefined : made.ok ? await evaluateAsync(prop, made.c, env) : made.r;
      port.postMessage({ type: 'result', outcome: r === undefined ? 'made' : r.status === 'fail' ? r.verdict : r.status } satisfies TryMessage);
    })();
  });
  port.postMessage({ type: 'ready' } satisfies TryMessage);
}
