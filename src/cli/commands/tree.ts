// `refsem tree PROG [--schedule S] [--trace] [--base S0] [--directive MODULE …]`: the loop nest of
// the scheduled program as a tree (src/report/loop-tree.ts): loops with their traversal and
// bounds, allocations, labels and stores. With --trace, T0 and then each directive's changes to
// the tree; with --base, what changes from the program of schedule S0 to that of S, each change
// with the directive that made it where one did (src/report/tree-diff.ts).
import type { Register } from './index.js';
import { initialProgram, type ProgramInput, schedule } from '../../pipeline.js';
import { readProgramInput } from '../../node/program.js';
import { loadSchedule } from '../../node/plugins.js';
import { collect } from '../options.js';
import type { DirectiveCall } from '../../schedule/plugin.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { type LoopTree, loopTree, printLoopTree } from '../../report/loop-tree.js';
import { attribute, type ChangeKind, diffTrees, marksOf, showBy, type StepChanges, stepChanges, type TreeChange } from '../../report/tree-diff.js';
import type { IO } from '../../node/io.js';

interface Opts {
  schedule?: string;
  base?: string;
  trace?: boolean;
  directive: string[];
}

/** How a node's line in the tree names the changes that mark it. */
const MARK: Readonly<Record<ChangeKind, string>> = {
  split: 'split', fused: 'fused', renamed: 'renamed', replaced: 'replaced', moved: 'moved', kind: 'traversal changed', bounds: 'bounds changed', added: 'added', removed: 'removed',
};

/** One change a line: its kind, what changed, and the directive behind it when known. */
export function printChanges(changes: readonly TreeChange[]): string {
  if (changes.length === 0) return 'no change to the loop nest\n';
  return changes.map((c) => `${c.kind.padEnd(8)} ${c.text}${c.by ? `   ${showBy(c)}` : ''}\n`).join('');
}

function printMarked(tree: LoopTree, changes: readonly TreeChange[]): string {
  const marks = marksOf(tree, changes);
  return printLoopTree(tree, (n) => marks.get(n.key)?.map((k) => MARK[k]).join(', '));
}

/** The program after each directive of a schedule file, and its changes. */
async function scheduled(input: ProgramInput, file: string, o: Opts, io: IO): Promise<{ final: TgtProgram; programs: TgtProgram[]; steps: StepChanges[] }> {
  const t0 = initialProgram(input);
  const s = await loadSchedule(file, o.directive, () => t0, (n) => io.err(n));
  const seen: { call: DirectiveCall; t: TgtProgram }[] = [];
  const final = schedule(t0, s, input.algorithm, { onStep: (e) => void (e.step === 'directive' && seen.push({ call: e.call, t: e.t })) });
  return { final, programs: seen.map((x) => x.t), steps: stepChanges(t0, seen) };
}

export const register: Register = (program, io) => {
  program
    .command('tree')
    .description('print the loop nest of a scheduled program as a tree; with --base, what a schedule changes in it')
    .argument('<prog>', 'algorithm source file, or a Tgt? program (.tgt)')
    .option('--schedule <file>', 'the schedule (.sched or .halide); without it, the lowered program T0')
    .option('--trace', 'print T0, then the changes of each directive and the tree after it')
    .option('--base <file>', 'another schedule of the same program: print the changes from its loop nest to this one')
    .option('--directive <module>', 'load a user directive module (.mjs), repeatable', collect, [])
    .action(async (prog: string, o: Opts) => {
      const input = readProgramInput({ prog });
      const t0 = initialProgram(input);
      const mine = o.schedule === undefined ? { final: t0, programs: [], steps: [] } : await scheduled(input, o.schedule, o, io);
      if (o.base !== undefined) {
        const base = await scheduled(input, o.base, o, io);
        const tree = loopTree(mine.final);
        const changes = attribute(diffTrees(loopTree(base.final), tree), mine.steps, base.steps);
        io.out(`// from the loop nest of ${o.base} to that of ${o.schedule ?? 'the lowered program'}\n${printChanges(changes)}\n${printMarked(tree, changes)}`);
        return;
      }
      if (!o.trace) return void io.out(printLoopTree(loopTree(mine.final)));
      io.out(`// T0 = lowering of ${prog}\n${printLoopTree(loopTree(t0))}`);
      mine.steps.forEach((step, i) => io.out(`\n// T${i + 1} = ${step.by}\n${printChanges(step.changes)}${printMarked(loopTree(mine.programs[i]!), step.changes)}`));
    });
};
