// Running a campaign from a command (fuzz, start, check-directive): progress while it runs,
// Ctrl-C ends it with the summary, then the summary as text or JSON, written to OUT/summary.json
// as well so that `refsem merge` can combine shards.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, type IO } from '../node/io.js';
import { humanSummary, jsonSummary, progressPrinter } from './report.js';
import { type CampaignOptions, type CampaignResult, startCampaign } from './runner.js';
import { makeEnv } from './make-env.js';

/** Runs a campaign with the progress line on stderr; Ctrl-C ends it early with its result. */
export async function runWithProgress(o: CampaignOptions, io: IO): Promise<CampaignResult> {
  const progress = progressPrinter(io);
  const control = startCampaign(o, progress.tick);
  const onInt = () => control.stop();
  process.on('SIGINT', onInt);
  try {
    return await control.done;
  } finally {
    process.off('SIGINT', onInt);
    progress.end();
  }
}

export async function runCampaignCli(o: CampaignOptions, io: IO, flags: { json: boolean; stats: boolean }): Promise<CampaignResult> {
  // A bad seed stops the campaign before it starts, at its file (exit 2); workers read the corpus when they first need it.
  if (o.config.seeds !== undefined) (await makeEnv(o.config)).seeds?.();
  const r = await runWithProgress(o, io);
  mkdirSync(o.out, { recursive: true });
  writeFileSync(join(o.out, 'summary.json'), jsonSummary(r, true));
  io.out(flags.json ? jsonSummary(r, flags.stats) : humanSummary(r, flags.stats));
  return r;
}

/**
 * A campaign's exit code (README, "Exit codes"): a failure found is 1 even when Ctrl-C ended the
 * search, which otherwise ends with 130; failures that are all refsem's own (its C does not
 * compile, a worker died) are an internal error, 3.
 */
export function campaignExit(r: CampaignResult): number {
  if (r.failures.length > 0 && !r.below_completion_floor && r.failures.every((f) => f.verdict === 'internal-error')) return EXIT.internal;
  if (r.failures.length > 0 || r.below_completion_floor) return EXIT.checkFailed;
  return r.interrupted ? EXIT.interrupted : EXIT.ok;
}
