// `npm run zoo`: every planted fault of the bug zoo against the default fuzzers, with the time to
// detection of each, then the figures as one JSON object. Exit 1 when a fault went undetected.
import { availableParallelism } from 'node:os';
import { runZoo, zooFigures } from './run.js';

// Usage: npm run zoo [-- FAULT… --seed=S --jobs=J --seeds=DIR|apps|off]
const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const seed = Number(flag('seed') ?? 1);
const jobs = Number(flag('jobs') ?? Math.max(1, availableParallelism()));
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const seeds = flag('seeds');
const entries = await runZoo({ seed, jobs, timeMs: 60_000, faults: only, ...(seeds !== undefined ? { seeds } : {}) }, (e) => {
  const from = e.seed ? ` (seed ${e.seed.seed}${e.seed.exact ? ', as written' : ', mutated'})` : '';
  process.stderr.write(`${e.detected ? 'detected  ' : 'MISSED    '} ${e.fault.padEnd(26)} ${e.seconds.toFixed(2).padStart(6)} s  ${String(e.checks).padStart(6)} checks  ${e.detected ? `${e.property}: ${e.verdict}${from}` : ''}\n`);
});
process.stdout.write(`${JSON.stringify({ seed, ...zooFigures(entries), faults: entries }, null, 2)}\n`);
process.exit(entries.every((e) => e.detected) ? 0 : 1);
