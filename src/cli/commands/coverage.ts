// `refsem coverage [FILE …] [--json]`: which spec rules a tour of traced runs (cli/rule-tour.ts)
// exercises, tallied against the spec (src/rules/coverage.ts). A `.sched` given after an `.alg`
// is its schedule. Without files, the bundled examples are the tour.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES_DIR, SPEC_DIR } from '../../node/package.js';
import type { Register } from './index.js';
import { UserError, CLI_LOC } from '../../diag.js';
import { ruleTally, showCoverage, specRules } from '../../rules/coverage.js';
import { tourTraces } from '../rule-tour.js';

interface Item {
  readonly file: string;
  readonly schedule?: string;
}

/** The tour's items: each algorithm with the schedules that follow it on the command line. */
function itemsOf(files: readonly string[]): Item[] {
  const out: Item[] = [];
  for (const f of files) {
    if (f.endsWith('.sched')) {
      const last = out[out.length - 1];
      if (!last || !last.file.endsWith('.alg')) throw new UserError(`schedule '${f}' does not follow an algorithm`, CLI_LOC, 'list a schedule right after the .alg it applies to');
      out.push({ file: last.file, schedule: f });
    } else if (/\.(alg|tgt|lam)$/.test(f)) out.push({ file: f });
    else throw new UserError(`'${f}' is not an algorithm, schedule, target or λ1 program`, CLI_LOC, 'coverage takes .alg, .sched, .tgt and .lam files');
  }
  return out;
}

/**
 * The bundled examples, each algorithm followed by the schedule of the same name when there is one
 * and by the schedules of the tour (examples/tour/ALG.WHAT.sched): small schedules, accepted and
 * refused, that make the directives and their refusals print their rules.
 */
export function bundledExamples(): string[] {
  const dir = EXAMPLES_DIR;
  const names = readdirSync(dir).sort();
  const tour = readdirSync(join(dir, 'tour')).sort();
  const schedulesOf = (alg: string) => [
    ...(existsSync(join(dir, `${alg}.sched`)) ? [join(dir, `${alg}.sched`)] : []),
    ...tour.filter((n) => n.startsWith(`${alg}.`) && n.endsWith('.sched')).map((n) => join(dir, 'tour', n)),
  ];
  return [
    ...names.filter((n) => n.endsWith('.alg')).flatMap((n) => [join(dir, n), ...schedulesOf(n.replace(/\.alg$/, ''))]),
    ...names.filter((n) => n.endsWith('.tgt')).map((n) => join(dir, n)),
    ...readdirSync(join(dir, 'perceus')).sort().filter((n) => n.endsWith('.lam')).map((n) => join(dir, 'perceus', n)),
  ];
}

export const register: Register = (program, io) => {
  program
    .command('coverage')
    .description('report which spec rules a tour of traced runs fires (default: the bundled examples)')
    .argument('[files...]', '.alg (each optionally followed by a .sched), .tgt and .lam files')
    .option('--json', 'print the counts as JSON')
    .action(async (files: string[], o: { json?: boolean }) => {
      const items = itemsOf(files.length > 0 ? files : bundledExamples());
      const { main } = await import('../main.js');
      const tally = ruleTally(specRules(SPEC_DIR));
      await tourTraces(items, main, tally.add);
      const rep = tally.report();
      io.out(o.json ? `${JSON.stringify({ fired: rep.fired, total: rep.total, rules: Object.fromEntries(rep.rules.map((r) => [r.id, r.fired])) })}\n` : showCoverage(rep));
    });
};

