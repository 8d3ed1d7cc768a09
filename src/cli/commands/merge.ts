// `refsem merge DIR…`: combines the outputs of a campaign's shards into one summary.
import type { Register } from './index.js';
import { EXIT } from '../io.js';
import { mergeSummaries } from '../../fuzz/merge.js';
import { humanSummary, jsonSummary } from '../../fuzz/report.js';

export const register: Register = (program, io, setExit) => {
  program
    .command('merge')
    .description('combine the --out directories of the shards of one campaign into one summary')
    .argument('<dirs...>', 'shard output directories (each holds a summary.json)')
    .option('--json', 'print the merged JSON summary')
    .option('--stats', 'include construct and directive counts')
    .action((dirs: string[], o: { json?: boolean; stats?: boolean }) => {
      const { shards, ...r } = mergeSummaries(dirs);
      io.out(o.json ? jsonSummary(r, Boolean(o.stats)) : `merged ${shards} shard${shards === 1 ? '' : 's'}\n${humanSummary(r, Boolean(o.stats))}`);
      if (r.failures.length > 0) setExit(EXIT.checkFailed);
    });
};
