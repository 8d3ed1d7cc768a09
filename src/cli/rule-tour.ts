// A tour of traced runs, for rule coverage (`refsem coverage`, `refsem fuzz --coverage`): each
// algorithm is checked, lowered, bounded by both engines, scheduled (when it has a schedule),
// explained at one point and stepped on the machine; each target program is stepped; each λ1
// program is translated and run by both semantics. What the runs print goes to a sink as it is
// printed (never kept: the traces of a campaign's cases run to gigabytes), and the rule IDs in it
// are what fired (src/rules/coverage.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { loadPipeline } from '../alg-semantics/load.js';
import type { CaseText } from '../fuzz/property.js';
import type { IO } from '../node/io.js';
import { readSource } from '../node/source.js';
import { parseTgt } from '../target-semantics/parse.js';

/** Closed expressions that apply every operator, error values included (spec/expr.md). */
const EXPRESSIONS = ['7 / -2', '7 % -2', '3 * 4 - 5 + 1', 'min(3, 4) + max(3, 4)', 'select(1 < 2 && !(3 > 4) || 0, 5 == 5, err.rdom)', '-(2) >= 1 != 0 <= 1', 'err.mem + err.rdom'];

/** Steps each traced λ1 run may take (see runsOf). */
const LAMBDA_STEP_BUDGET = 3000;

/** Parameters and windows of items that do not give their own. */
const PARAM = 3;
const WINDOW = '0+3';

/** One program of the tour: a file, with its schedule and input when known. */
export interface TourItem {
  readonly file: string;
  readonly schedule?: string;
  /** `--window` text, e.g. `0+3,-1+2` */
  readonly window?: string;
  /** `NAME=INT` items */
  readonly params?: readonly string[];
}

type Main = (argv: readonly string[], io: IO) => Promise<number>;

/** The argument lists of the traced runs of one item; completed programs go to `scratch`. */
function runsOf(item: TourItem, scratch: string, n: number): string[][] {
  const { file, schedule } = item;
  const sched = schedule ? ['--schedule', schedule] : [];
  if (file.endsWith('.lam')) {
    // Every rule a λ1 example fires, it fires within its first few thousand steps (rbtree and tmap
    // only repeat the same rules after that); measured on the bundled examples, 3,000 steps fire the
    // same 122 rules as 20,000 in a third of the time.
    const budget = ['--max-steps', String(LAMBDA_STEP_BUDGET)];
    return [['rc', file, '--derivation', ...budget], ['rc', file, '--trace', ...budget], ['rc', file, '--standard', '--trace', ...budget], ['rc', file, '--opt', 'all', '--trace', ...budget], ['rc', file, '--scoped', '--trace', ...budget]];
  }
  if (file.endsWith('.tgt')) {
    const t = parseTgt(readSource(file).text, file);
    const params = item.params ?? t.params.map((p) => `${p}=${PARAM}`);
    return [['step', file, '--window', item.window ?? t.window.map(() => WINDOW).join(','), ...params.flatMap((p) => ['--param', p])]];
  }
  const p = loadPipeline(readSource(file).text, file);
  const params = (item.params ?? p.params.map((x) => `${x}=${PARAM}`)).flatMap((x) => ['--param', x]);
  const out = p.funcs.find((f) => f.name === p.output)!;
  const window = item.window ?? out.vars.map(() => WINDOW).join(',');
  const first = window === '' ? [] : window.split(',').map((d) => d.split('+')[0]!);
  const completed = join(scratch, `${n}-${basename(file, '.alg')}.tgt`);
  return [
    ['check', file],
    ['lower', file, '--trace'],
    ...(schedule ? [['schedule', file, ...sched, '--trace']] : []),
    ['bounds', file, ...sched, '--query', '--rules'],
    ['bounds', file, ...sched, '--trace'],
    ['bounds', file, ...sched, '--engine', 'beta1', '--trace'],
    ['explain', file, '--point', `${p.output}(${first.join(',')})`, '--depth', '6', ...params],
    ['bounds', file, ...sched, '--program', '-o', completed],
    ['step', completed, `--window=${window}`, ...params, '--every', '1'],
  ];
}

/** Runs the tour over `items` in-process, handing everything the runs print to `sink` as it is printed. */
export async function tourTraces(items: readonly TourItem[], main: Main, sink: (text: string) => void): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'refsem-tour-'));
  const capture: IO = { out: sink, err: sink, isTTY: false };
  try {
    for (const e of EXPRESSIONS) await main(['expr', e, '--trace'], capture);
    let n = 0;
    for (const item of items) {
      n++;
      let argvs: string[][];
      try {
        argvs = runsOf(item, scratch, n);
      } catch {
        continue; // an item that does not even parse fires no rule
      }
      // Completed programs must exist before they are stepped, so the runs go one by one.
      for (const argv of argvs) {
        const o = argv.indexOf('-o');
        if (argv[0] !== 'bounds' || o < 0) {
          await main(argv, capture);
          continue;
        }
        let text = '';
        await main(argv.slice(0, o), { out: (t) => void (text += t), err: sink, isTTY: false });
        writeFileSync(argv[o + 1]!, text);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The cases of a campaign as tour items, their texts written into `dir`. */
export function caseItems(cases: readonly CaseText[], dir: string): TourItem[] {
  return cases.flatMap((c, i): TourItem[] => {
    const input = c.input ? { window: c.input.window.map(([m, l]) => `${m}+${l}`).join(','), params: Object.entries(c.input.params).map(([k, v]) => `${k}=${v}`) } : {};
    if (c.program !== undefined) {
      const file = join(dir, `case${i}.alg`);
      writeFileSync(file, c.program);
      const schedule = c.schedule ? join(dir, `case${i}.sched`) : undefined;
      if (schedule) writeFileSync(schedule, c.schedule!);
      return [{ file, ...(schedule ? { schedule } : {}), ...input }];
    }
    if (c.target !== undefined) {
      const file = join(dir, `case${i}.tgt`);
      writeFileSync(file, c.target);
      return [{ file, ...input }];
    }
    if (c.term !== undefined) {
      const file = join(dir, `case${i}.lam`);
      writeFileSync(file, c.term);
      return [{ file }];
    }
    return [];
  });
}
