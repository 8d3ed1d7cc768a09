#!/usr/bin/env node
// Entry point of the `refsem` command. Exits explicitly: solver threads (z3) and worker pools
// must never keep a finished command alive. stdout/stderr writes are synchronous on Linux pipes
// and files, so nothing printed is lost.
import { main } from '../dist/cli/main.js';
import { guardExit, processIO } from '../dist/node/io.js';

const exit = guardExit();
exit(await main(process.argv.slice(2), processIO));
