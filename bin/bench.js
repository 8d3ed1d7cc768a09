#!/usr/bin/env node
// `npm run bench [group]`: runs every compiled benchmark module in dist/bench/ and prints one JSON
// object keyed by benchmark name. Modules export `name`, `group` ('core' or 'perceus') and `run()`.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const group = process.argv[2] ?? 'core';
const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bench');
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.js')).sort();
const results = {};
for (const f of files) {
  const mod = await import(pathToFileURL(join(dir, f)).href);
  if ((mod.group ?? 'core') !== group) continue;
  process.stderr.write(`bench: ${mod.name} …\n`);
  results[mod.name] = await mod.run();
}
process.stdout.write(JSON.stringify({ group, node: process.version, results }, null, 2) + '\n');
process.exit(0);
