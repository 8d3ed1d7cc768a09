#!/usr/bin/env node
// `npm run bench [group]`: runs every compiled benchmark module of the group in dist/bench/ and
// prints one JSON object keyed by benchmark name. Modules export `name`, `group` and `run()`; the
// groups are `core` (the default: a few minutes), `long` (campaigns and suites measured in tens of
// minutes: `npm run bench:long`) and `perceus`. Each module's figure is written to standard error
// as soon as it finishes, so a stopped run keeps what it measured. Each module runs in a process of
// its own, so that one benchmark's JIT state (e.g. call sites made polymorphic by bigint values)
// cannot slow down another's. Output to a pipe is flushed before exiting (src/node/io.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { flushed } from '../dist/node/io.js';

const self = fileURLToPath(import.meta.url);
const dir = join(dirname(self), '..', 'dist', 'bench');

if (process.argv[2] === '--one') {
  const mod = await import(pathToFileURL(join(dir, process.argv[3])).href);
  process.stdout.write(JSON.stringify({ name: mod.name, group: mod.group ?? 'core', result: (mod.group ?? 'core') === process.argv[4] ? await mod.run() : null }));
  await flushed();
  process.exit(0);
}

const group = process.argv[2] ?? 'core';
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.js')).sort();
const results = {};
for (const f of files) {
  const started = performance.now();
  const r = spawnSync(process.execPath, [self, '--one', f, group], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
  if (r.status !== 0) {
    process.stderr.write(`bench: ${f} failed (exit ${r.status})\n`);
    process.exit(3);
  }
  const { name, result } = JSON.parse(r.stdout);
  if (result === null) continue;
  process.stderr.write(`bench: ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(result)}\n`);
  results[name] = result;
}
process.stdout.write(JSON.stringify({ group, node: process.version, results }, null, 2) + '\n');
await flushed();
process.exit(0);
