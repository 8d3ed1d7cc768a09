#!/usr/bin/env node
// Entry point of the `refsem` command. Exits explicitly: solver threads (z3) and worker pools
// must never keep a finished command alive. stdout/stderr writes are synchronous on Linux pipes
// and files, so nothing printed is lost. A command that loads plug-in modules runs in a worker
// thread with a bounded heap (src/cli/plugin-heap.ts).
import { runCommand } from '../dist/cli/plugin-heap.js';
import { guardExit, processIO } from '../dist/node/io.js';

const exit = guardExit();
exit(await runCommand(process.argv.slice(2), processIO));
