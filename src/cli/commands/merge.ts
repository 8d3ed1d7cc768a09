// `refsem merge DIR…`: combines the outputs of a campaign's shards into one summary.
import type { Register } from './index.js';
import { EXIT } from '../../node/io.js';
import { mergeSummaries } from '../../fuzz/merge.js';
import { humanSummary, jsonSummary } from '../../fuzz/report.js';

export const register: Register = (program, io, setExit) => {
  program
    .command('merge')
    .description('combine the --out directories of the shards of one campaign into one summary')
    .argument('<dirs...>', 'shard output directories (each holds a summary.json)')
    .option('--json', 'print the merged JSON summary')
    .option('--stats', 'include construct and directive counts')
    .option('--partial', 'merge even when some shards of the campaign are missing (they are listed)')
    .action((dirs: string[], o: { json?: boolean; stats?: boolean; partial?: boolean }) => {
      const { shards, missing_shards, ...r } = mergeSummaries(dirs, { partial: Boolean(o.partial) });
      if (missing_shards.length > 0) io.err(`warning: merged without shard${missing_shards.length === 1 ? '' : 's'} ${missing_shards.join(', ')}: the summary covers part of the campaign\n`);
      io.out(o.json ? jsonSummary(r, Boolean(o.stats)) : `merged ${shards} shard${shards === 1 ? '' : 's'}\n${humanSummary(r, Boolean(o.stats))}`);
      if (r.failures.length > 0 || r.below_completion_floor) setExit(EXIT.checkFailed);
    });
};
