// `refsem fpir-table [--json]`: the intrinsic table checked (spec/fpir.md, [FPIR-TABLE-CPU] and
// [FPIR-TABLE-FPIR]): every x86 entry run on this CPU and every Neon entry under qemu-aarch64 against the interpreter, every entry that
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
      const qemu = await checkTableOnCpu(undefined, { neon: true });
      const claims = checkClaims();
      const runs = [...cpu.entries, ...qemu.entries];
      const refuted = runs.filter((e) => e.status === 'refuted').length + claims.filter((c) => c.status === 'refuted').length;
      const figures = (h: typeof cpu) => ({ ...h, compileMs: Math.round(h.compileMs), runMs: Math.round(h.runMs), callsPerSecond: Math.round(h.callsPerSecond) });
      if (o.json) io.out(`${JSON.stringify({ entries: INTRINSICS.length, cpu: figures(cpu), neon: figures(qemu), claims }, null, 1)}\n`);
      else {
        for (const e of INTRINSICS) {
          const run = runs.find((x) => x.name === e.name);
          const claim = claims.find((c) => c.name === e.name);
          const onCpu = `${run!.status}${run!.exhaustive ? ' (every lane value pair)' : ''}${run!.detail ? `: ${run!.detail}` : ''}`;
          io.out(`${e.name.padEnd(28)} ${e.target.padEnd(6)} ${e.target === 'neon' ? 'qemu' : 'cpu'}: ${onCpu}; fpir: ${claim ? `${claim.status} ${claim.implements}` : '(implements no instruction)'}\n`);
        }
        const ok = (h: typeof cpu) => h.entries.filter((e) => e.status === 'validated').length;
        io.out(`${ok(cpu)} of ${cpu.entries.length} x86 entries validated on this CPU, ${ok(qemu)} of ${qemu.entries.length} Neon entries under qemu-aarch64; ${refuted} refuted\n`);
      }
      if (refuted > 0) setExit(1);
    });
};
