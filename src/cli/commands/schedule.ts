// `refsem schedule PROG --schedule SCHED [--trace] [--check] [--print] [--directive MODULE …]`: lowers
// PROG (or reads a .tgt program), applies the schedule (§2.8) and prints the final Tgt? program; with
// --trace, every intermediate T0 … Tn, each headed by the directive that produced it; with --print,
// the schedule itself as refsem directives (a Halide-style .halide schedule, translated).
import { printTgt } from '../../target-semantics/print.js';
import { type FlowObserver, initialProgram, lemmaCheck, observers, schedule } from '../../pipeline.js';
import { readProgramInput } from '../../node/program.js';
import { callPlace, printCall, printSchedule, usage } from '../../schedule/print.js';
import { loadSchedule, registryWith } from '../../node/plugins.js';
import { collect } from '../options.js';
import type { Register } from './index.js';
import type { Pipeline } from '../../alg-semantics/ast.js';
import { shutdownZ3 } from '../../expr/smt.js';
import { DEFAULT_CONFIG } from '../../fuzz/env.js';
import { type CallProof, type Replay, proveSchedule, replayRefutation, showProof, upTo } from '../../fuzz/prove.js';
import type { IO } from '../../node/io.js';
import type { Schedule } from '../../schedule/plugin.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { CheckFailed } from '../main.js';

interface Opts {
  schedule?: string;
  trace?: boolean;
  check?: boolean;
  directive: string[];
  list?: boolean;
  print?: boolean;
  prove?: boolean;
  out: string;
}

/** `--prove`: every call proved, refutations replayed on the soundness properties (spec/effects.md, [OBL-REPLAY]). */
async function proveCommand(t0: TgtProgram, s: Schedule, alg: Pipeline | undefined, o: Opts, io: IO): Promise<void> {
  const replays = new Map<number, Replay>();
  let proofs: CallProof[];
  try {
    proofs = await proveSchedule(t0, s);
  } finally {
    await shutdownZ3();
  }
  for (const p of proofs) {
    const refuted = p.results.find((r) => r.answer.k === 'refuted');
    if (!refuted || refuted.answer.k !== 'refuted') continue;
    replays.set(p.index, alg
      ? await replayRefutation(alg, upTo(s, p.index), t0, refuted.answer.witness, o.out, { ...DEFAULT_CONFIG, directives: o.directive })
      : { replays: false, detail: 'a target program has no algorithm to run it against' });
  }
  io.out(showProof(proofs, replays));
  if (proofs.some((p) => p.verdict !== 'proved')) throw new CheckFailed();
}

export const register: Register = (program, io) => {
  program
    .command('schedule')
    .description('apply a schedule to a program and print the scheduled Tgt? program (§2.8)')
    .argument('[prog]', 'algorithm source file, or a Tgt? program (.tgt)')
    .option('--schedule <file>', 'the schedule: a .sched file (one directive per line) or a Halide-style .halide file')
    .option('--trace', 'print T0 … Tn, each headed by the directive that produced it')
    .option('--check', 'check lemmas 2.4 and 2.5 after every directive')
    .option('--directive <module>', 'load a user directive module (.mjs), repeatable', collect, [])
    .option('--list', 'list the available directives with their syntax and phase')
    .option('--print', 'print the schedule as refsem directives (what a .halide schedule translates to) instead of the program')
    .option('--prove', 'prove each directive sound (spec/effects.md) instead of printing the program; exit 1 unless every one is proved')
    .option('--out <dir>', 'with --prove: directory for the reproducers of refutations that replay', 'prove-out')
    .action(async (prog: string | undefined, o: Opts) => {
      if (o.list) {
        const reg = await registryWith(o.directive);
        for (const d of reg.directives) io.out(`${usage(d)}    (${d.phase}${d.source ? `, from ${d.source}` : ''})\n`);
        return;
      }
      if (prog === undefined || o.schedule === undefined) {
        program.error('error: schedule needs PROG and --schedule SCHED (or --list)', { exitCode: 2 });
      }
      const input = readProgramInput({ prog: prog! });
      const t0 = initialProgram(input);
      const s = await loadSchedule(o.schedule!, o.directive, () => t0, (n) => io.err(n));
      if (o.prove) return proveCommand(t0, s, input.algorithm, o, io);
      if (o.trace) io.out(`// T0 = lowering of ${prog === '-' ? '<stdin>' : prog}\n${printTgt(t0)}`);
      let i = 0;
      const trace: FlowObserver = {
        onStep(e) {
          if (e.step === 'directive') io.out(`\n// T${++i} = ${e.call.directive.rule ? `[${e.call.directive.rule}] ` : ''}${printCall(e.call)}   (${callPlace(e.call)})\n${printTgt(e.t)}`);
        },
      };
      const final = schedule(t0, s, input.algorithm, observers(o.check ? lemmaCheck : undefined, o.trace ? trace : undefined));
      if (o.print) io.out(printSchedule(s));
      else if (!o.trace) io.out(printTgt(final));
    });
};
