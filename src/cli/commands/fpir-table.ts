// `refsem fpir-table [--json]`: the intrinsic table checked (spec/fpir.md, [FPIR-TABLE-CPU] and
// [FPIR-TABLE-FPIR]): every x86 entry run on this CPU against the interpreter, every entry that
// implements an FPIR instruction against its definition; exit 1 when anything is refuted.
import type { Register } from './index.js';
import { checkTableOnCpu } from '../../codegen/fpir-harness.js';
import { INTRINSICS } from '../../fpir/intrinsics.js';
import { checkClaims } from '../../fpir/table-check.js';

export const register: Register = (program, io, setExit) => {
  program
    .command('fpir-table')
    .description('check the intrinsic table on this CPU and against FPIR (spec/fpir.md)')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }) => {
      const cpu = await checkTableOnCpu();
      const claims = checkClaims();
      const refuted = cpu.entries.filter((e) => e.status === 'refuted').length + claims.filter((c) => c.status === 'refuted').length;
      if (o.json) io.out(`${JSON.stringify({ entries: INTRINSICS.length, cpu: { ...cpu, compileMs: Math.round(cpu.compileMs), runMs: Math.round(cpu.runMs), callsPerSecond: Math.round(cpu.callsPerSecond) }, claims }, null, 1)}\n`);
      else {
        for (const e of INTRINSICS) {
          const run = cpu.entries.find((x) => x.name === e.name);
          const claim = claims.find((c) => c.name === e.name);
          const onCpu = run ? `${run.status}${run.exhaustive ? ' (every lane value pair)' : ''}${run.detail ? `: ${run.detail}` : ''}` : 'not run here (no Arm CPU)';
          io.out(`${e.name.padEnd(28)} ${e.target.padEnd(6)} cpu: ${onCpu}; fpir: ${claim ? `${claim.status} ${claim.implements}` : '(implements no instruction)'}\n`);
        }
        io.out(`${cpu.entries.filter((e) => e.status === 'validated').length} of ${cpu.entries.length} x86 entries validated on this CPU; ${refuted} refuted\n`);
      }
      if (refuted > 0) setExit(1);
    });
};
