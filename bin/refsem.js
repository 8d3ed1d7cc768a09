#!/usr/bin/env node
// Entry point of the `refsem` command. Exits explicitly: solver threads (z3) and worker pools
// must never keep a finished command alive; it waits first until everything printed has left the
// process, since output to a slow pipe is queued and exiting would drop the queue. A command that
// loads plug-in modules runs in a worker thread with a bounded heap (src/cli/plugin-heap.ts).
import { runCommand } from '../dist/cli/plugin-heap.js';
import { flushed, guardExit, processIO } from '../dist/node/io.js';

const exit = guardExit();
const code = await runCommand(process.argv.slice(2), processIO);
await flushed();
exit(code);
