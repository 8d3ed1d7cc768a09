// A worker thread that verifies Halide rules one at a time for halide-rules-run.ts: each worker has its own
// Z3, so rules are checked side by side on as many cores as there are workers.
import { parentPort, workerData } from 'node:worker_threads';
import { shutdownZ3 } from '../expr/smt.js';
import type { Modelled } from '../simplify/halide/model.js';
import { type VerifyOptions, verifyInDomains } from '../simplify/halide/verify.js';

const opts = workerData as VerifyOptions;
parentPort!.on('message', (msg: { i: number; rule: Modelled } | 'stop') => {
  if (msg === 'stop') {
    void shutdownZ3().then(() => process.exit(0));
    return;
  }
  void verifyInDomains(msg.rule, msg.rule.domains ?? ['halide'], opts).then((verdict) => parentPort!.postMessage({ i: msg.i, verdict }));
});
