// Running a campaign from a command (fuzz, start, check-directive): progress while it runs,
// Ctrl-C ends it with the summary, then the summary as text or JSON, written to OUT/summary.json
// as well so that `refsem merge` can combine shards.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IO } from '../cli/io.js';
import { humanSummary, jsonSummary, progressPrinter } from './report.js';
import { type CampaignOptions, type CampaignResult, startCampaign } from './runner.js';

export async function runCampaignCli(o: CampaignOptions, io: IO, flags: { json: boolean; stats: boolean }): Promise<CampaignResult> {
  const progress = progressPrinter(io);
  const control = startCampaign(o, progress.tick);
  const onInt = () => control.stop();
  process.on('SIGINT', onInt);
  let r: CampaignResult;
  try {
    r = await control.done;
  } finally {
    process.off('SIGINT', onInt);
    progress.end();
  }
  mkdirSync(o.out, { recursive: true });
  writeFileSync(join(o.out, 'summary.json'), jsonSummary(r, true));
  io.out(flags.json ? jsonSummary(r, flags.stats) : humanSummary(r, flags.stats));
  return r;
}
