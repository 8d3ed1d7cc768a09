// What a campaign prints: the live progress line (a terminal), plain periodic lines (a pipe or a
// log), the human summary, and the JSON summary of docs/architecture.md.
import type { IO } from '../node/io.js';
import type { CampaignResult, Snapshot } from './runner.js';
import { showStats } from './stats.js';
import { REFSEM_VERSION } from '../node/package.js';

const secs = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;

export function progressLine(s: Snapshot): string {
  const rate = s.checks / Math.max(s.elapsedMs / 1000, 1e-3);
  const left = s.remainingMs !== undefined ? `  ${secs(s.remainingMs)} left` : s.remainingChecks !== undefined ? `  ${s.remainingChecks} checks left` : '';
  return `fuzz: ${s.checks} checks  ${Math.round(rate)} checks/s  ${s.failures} failure${s.failures === 1 ? '' : 's'}  ${secs(s.elapsedMs)} elapsed${left}`;
}

/** Progress on stderr: rewritten in place on a terminal, a line every `everyMs` otherwise. */
export function progressPrinter(io: IO, everyMs = 5000): { tick(s: Snapshot): void; end(): void } {
  let last = 0;
  let drawn = false;
  return {
    tick(s) {
      if (io.isTTY) {
        io.err(`\r\x1b[K${progressLine(s)}`);
        drawn = true;
      } else if (s.elapsedMs - last >= everyMs) {
        last = s.elapsedMs;
        io.err(`${progressLine(s)}\n`);
      }
    },
    end() {
      if (drawn) io.err('\n');
    },
  };
}

export function humanSummary(r: CampaignResult, withStats: boolean): string {
  const lines = [
    `refsem fuzz: ${r.runs} checks in ${r.elapsed_s} s (${r.checks_per_s} checks/s), seed ${r.seed}, ${r.jobs} job${r.jobs === 1 ? '' : 's'}, shard ${r.shard}, engine ${r.engine}${r.interrupted ? ' (interrupted)' : ''}`,
  ];
  for (const [name, c] of Object.entries(r.properties).sort()) {
    lines.push(`  ${name}: ${c.checks} checks, ${c.failures} failing, ${c.discards} discarded`);
  }
  if (r.failures.length === 0) lines.push('no counterexample found');
  else {
    lines.push(`${r.failures.length} distinct failure${r.failures.length === 1 ? '' : 's'}:`);
    for (const f of r.failures) {
      lines.push(`  ${f.property}: ${f.verdict}${f.culprit ? ` (directive ${f.culprit})` : ''}, check ${f.check}, after ${f.detected_s} s → ${f.reproducer}`);
    }
    lines.push('replay one with: refsem replay FILE');
  }
  const body = lines.join('\n') + '\n';
  return withStats ? body + showStats({ constructs: r.constructs, directives: r.directives, properties: r.properties }) : body;
}

/** The JSON summary (docs/architecture.md: seed, runs, elapsed_s, checks_per_s, failures, per-directive counts). */
export function jsonSummary(r: CampaignResult, withStats: boolean): string {
  const { constructs, ...rest } = r;
  const summary = { refsem_version: REFSEM_VERSION, ...rest };
  return JSON.stringify(withStats ? { ...summary, constructs } : summary) + '\n';
}
