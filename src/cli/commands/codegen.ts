// `refsem codegen PROG [--schedule S] [--engine E] [-o out.c] [--simd auto|avx2|avx512|none] [--fault NAME …]`:
// the C11 translation unit of the scheduled program, completed by a bounds engine (spec/codegen.md).
import { writeOutput } from '../../node/source.js';
import { UserError, argLoc } from '../../diag.js';
import { type SimdMode, emitC } from '../../codegen/emit-c.js';
import { type CodegenFaults } from '../../codegen/c-syntax.js';
import { readCompleted } from '../../node/program.js';
import { engineOption, scheduleOf, scheduleOptions } from '../common-options.js';
import { collect } from '../options.js';
import type { Register } from './index.js';

const SIMD: readonly SimdMode[] = ['auto', 'avx2', 'avx512', 'generic', 'none'];
const FAULTS = ['truncatingDiv', 'unprovenNarrowing', 'unprovenArithmetic', 'dropVectorTail', 'laneOrder', 'unprovenStorage'] as const;
/** What --engine does for codegen and validate. */
export const COMPLETING = 'bounds engine completing a program with holes';

export function parseSimd(text: string): SimdMode {
  if (!(SIMD as readonly string[]).includes(text)) throw new UserError(`invalid --simd '${text}'`, argLoc('--simd', text), `use one of ${SIMD.join(', ')}`);
  return text as SimdMode;
}

/** `--fault NAME` (repeatable): switches on planted faults (the bug zoo's miscompilations). */
export function parseFaults(names: readonly string[]): CodegenFaults {
  const out: Record<string, boolean> = {};
  for (const n of names) {
    if (!(FAULTS as readonly string[]).includes(n)) throw new UserError(`unknown --fault '${n}'`, argLoc('--fault', n), `the faults are ${FAULTS.join(', ')}`);
    out[n] = true;
  }
  return out as CodegenFaults;
}

export const register: Register = (program, io) => {
  const cmd = program
    .command('codegen')
    .description('emit C11 (with SIMD intrinsics for vectorized loops) for a scheduled, completed program')
    .argument('<prog>', 'algorithm file, or a target program (.tgt); holes are filled by the bounds engine');
  engineOption(scheduleOptions(cmd), COMPLETING)
    .option('-o, --output <file>', 'write the C file here instead of standard output')
    .option('--simd <mode>', 'vector code for vectorize loops: auto (chosen at run time), avx2, avx512, generic (portable), none', 'auto')
    .option('--fault <name>', 'switch on a planted fault (testing the tester; repeatable)', collect, [])
    .action(async (prog: string, o: { schedule?: string; directive: string[]; engine: string; output?: string; simd: string; fault: string[] }) => {
      const { t, note } = await readCompleted({ prog, ...scheduleOf(o), engine: o.engine });
      if (note !== undefined) io.err(`note: ${note}\n`);
      const text = emitC(t, { simd: parseSimd(o.simd), faults: parseFaults(o.fault) });
      if (o.output === undefined) io.out(text);
      else writeOutput(o.output, text, '-o');
    });
};
