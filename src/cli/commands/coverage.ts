// `refsem coverage [FILE …] [--json]`: which spec rules a tour of traced runs exercises. Each
// algorithm is checked, lowered, bounded by both engines, scheduled (with a `.sched` given after
// it), explained at one point and stepped on the machine; each target program is stepped; each λ1
// program is translated and run by both semantics. The rule IDs the runs print are tallied against
// the spec (src/rules/coverage.ts). Without files, the bundled examples are the tour.
import { mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Register } from './index.js';
import type { IO } from '../../node/io.js';
import { readSource } from '../../node/source.js';
import { loadPipeline } from '../../alg-semantics/load.js';
import { parseTgt } from '../../target-semantics/parse.js';
import { UserError, CLI_LOC } from '../../diag.js';
import { showCoverage, specRules, tallyRules } from '../../rules/coverage.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Closed expressions that apply every operator, error values included (spec/expr.md). */
const EXPRESSIONS = ['7 / -2', '7 % -2', '3 * 4 - 5 + 1', 'min(3, 4) + max(3, 4)', 'select(1 < 2 && !(3 > 4) || 0, 5 == 5, err.rdom)', '-(2) >= 1 != 0 <= 1', 'err.mem + err.rdom'];

/** Every parameter gets this value and every output dimension this window in the tour. */
const PARAM = 3;
const WINDOW = '0+3';

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

/** The bundled examples, each algorithm followed by the schedule of the same name when there is one. */
function bundledExamples(): string[] {
  const dir = join(root, 'examples');
  const names = readdirSync(dir).sort();
  return [
    ...names.filter((n) => n.endsWith('.alg')).flatMap((n) => [join(dir, n), ...(existsSync(join(dir, n.replace(/\.alg$/, '.sched'))) ? [join(dir, n.replace(/\.alg$/, '.sched'))] : [])]),
    ...names.filter((n) => n.endsWith('.tgt')).map((n) => join(dir, n)),
    ...readdirSync(join(dir, 'perceus')).sort().filter((n) => n.endsWith('.lam')).map((n) => join(dir, 'perceus', n)),
  ];
}

/** The argument lists of the traced runs for one item; `scratch` holds completed programs. */
function runsOf(item: Item, scratch: string): string[][] {
  const { file, schedule } = item;
  const sched = schedule ? ['--schedule', schedule] : [];
  if (file.endsWith('.lam')) {
    const budget = ['--max-steps', '20000'];
    return [['rc', file, '--derivation', ...budget], ['rc', file, '--trace', ...budget], ['rc', file, '--standard', '--trace', ...budget], ['rc', file, '--opt', 'all', '--trace', ...budget], ['rc', file, '--scoped', '--trace', ...budget]];
  }
  if (file.endsWith('.tgt')) {
    const t = parseTgt(readSource(file).text, file);
    return [['step', file, '--window', t.window.map(() => WINDOW).join(','), ...t.params.flatMap((p) => ['--param', `${p}=${PARAM}`])]];
  }
  const p = loadPipeline(readSource(file).text, file);
  const params = p.params.flatMap((x) => ['--param', `${x}=${PARAM}`]);
  const out = p.funcs.find((f) => f.name === p.output)!;
  const completed = join(scratch, `${basename(file, '.alg')}-${schedule ? basename(schedule, '.sched') : 'default'}.tgt`);
  return [
    ['check', file],
    ['lower', file, '--trace'],
    ...(schedule ? [['schedule', file, ...sched, '--trace']] : []),
    ['bounds', file, ...sched, '--query', '--rules'],
    ['bounds', file, ...sched, '--trace'],
    ['bounds', file, ...sched, '--engine', 'beta1', '--trace'],
    ['explain', file, '--point', `${p.output}(${out.vars.map(() => '1').join(',')})`, '--depth', '6', ...params],
    ['bounds', file, ...sched, '--program', '-o', completed],
    ['step', completed, '--window', out.vars.map(() => WINDOW).join(','), ...params, '--every', '1'],
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
      const scratch = mkdtempSync(join(tmpdir(), 'refsem-coverage-'));
      const texts: string[] = [];
      try {
        const capture: IO = { out: (t) => void texts.push(t), err: (t) => void texts.push(t), isTTY: false };
        for (const e of EXPRESSIONS) await main(['expr', e, '--trace'], capture);
        for (const item of items) {
          // Completed programs must exist before they are stepped, so the runs go one by one.
          for (const argv of runsOf(item, scratch)) {
            if (argv[0] === 'bounds' && argv.includes('-o')) {
              const i = argv.indexOf('-o');
              let text = '';
              await main(argv.slice(0, i), { out: (t) => void (text += t), err: (t) => void texts.push(t), isTTY: false });
              writeFileSync(argv[i + 1]!, text);
            } else await main(argv, capture);
          }
        }
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
      const rep = tallyRules(specRules(join(root, 'spec')), texts);
      io.out(o.json ? `${JSON.stringify({ fired: rep.fired, total: rep.total, rules: Object.fromEntries(rep.rules.map((r) => [r.id, r.fired])) })}\n` : showCoverage(rep));
    });
};

