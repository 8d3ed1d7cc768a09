// `refsem codegen PROG [--schedule S] [-o out.c] [--simd auto|avx2|avx512|none] [--fault NAME …]`:
// the C11 translation unit of a completed target program (spec/codegen.md).
import { writeFileSync } from 'node:fs';
import { UserError } from '../../diag.js';
import { type CodegenFaults, type SimdMode, emitC } from '../../codegen/emit-c.js';
import { loadCompleted } from '../../codegen/program.js';
import { collect } from '../options.js';
import type { Register } from './index.js';

const CLI = { file: '<command line>', line: 1, col: 1 };
const SIMD: readonly SimdMode[] = ['auto', 'avx2', 'avx512', 'none'];
const FAULTS = ['truncatingDiv', 'unprovenNarrowing', 'dropVectorTail', 'laneOrder'] as const;

export function parseSimd(text: string): SimdMode {
  if (!(SIMD as readonly string[]).includes(text)) throw new UserError(`invalid --simd '${text}'`, CLI, `use one of ${SIMD.join(', ')}`);
  return text as SimdMode;
}

/** `--fault NAME` (repeatable): switches on planted faults (the bug zoo's miscompilations). */
export function parseFaults(names: readonly string[]): CodegenFaults {
  const out: Record<string, boolean> = {};
  for (const n of names) {
    if (!(FAULTS as readonly string[]).includes(n)) throw new UserError(`unknown --fault '${n}'`, CLI, `the faults are ${FAULTS.join(', ')}`);
    out[n] = true;
  }
  return out as CodegenFaults;
}

export const register: Register = (program, io) => {
  program
    .command('codegen')
    .description('emit C11 (with SIMD intrinsics for vectorized loops) for a completed target program')
    .argument('<prog>', 'completed target program (.tgt, no holes; - for standard input)')
    .option('--schedule <file>', 'schedule to apply before emission (needs an algorithm program)')
    .option('-o, --output <file>', 'write the C file here instead of standard output')
    .option('--simd <mode>', 'vector code for vectorize loops: auto (chosen at run time), avx2, avx512, none', 'auto')
    .option('--fault <name>', 'switch on a planted fault (testing the tester; repeatable)', collect, [])
    .action((prog: string, o: { schedule?: string; output?: string; simd: string; fault: string[] }) => {
      const t = loadCompleted({ prog, ...(o.schedule !== undefined ? { schedule: o.schedule } : {}) });
      const text = emitC(t, { simd: parseSimd(o.simd), faults: parseFaults(o.fault) });
      if (o.output === undefined) io.out(text);
      else {
        try {
          writeFileSync(o.output, text);
        } catch (e) {
          throw new UserError(`cannot write '${o.output}': ${(e as Error).message}`, CLI, 'check the path');
        }
      }
    });
};
