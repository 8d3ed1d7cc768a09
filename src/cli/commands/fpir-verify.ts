// `refsem fpir-verify [--json] [--fault NAME] [--prove] [--run]`: verifies every lifting and lowering rule
// (spec/fpir.md, [FPIR-VERIFY]) and reports each as proved, sampled or refuted with its
// counterexample; with --run also runs the lowering rules as code ([FPIR-RULES-RUN]); exit 1 when a
// rule is refuted or its code differs.
import type { Register } from './index.js';
import { UserError, argLoc } from '../../diag.js';
import { FPIR_FAULTS, plantedRules } from '../../fpir/faults.js';
import { LIFTING_RULES } from '../../fpir/lift-rules.js';
import { verifyAll } from '../../fpir/verify-rules.js';
import { proveSampled } from '../../fpir/prove-rules.js';
import { shutdownZ3 } from '../../expr/smt.js';
import { runLoweringRules } from '../../codegen/fpir-rules-run.js';

export const register: Register = (program, io, setExit) => {
  program
    .command('fpir-verify')
    .description('verify the FPIR lifting and lowering rules (spec/fpir.md)')
    .option('--json', 'print one JSON object')
    .option('--fault <name>', `plant a fault first: ${FPIR_FAULTS.map((f) => f.name).join(', ')}`)
    .option('--samples <n>', 'rows sampled where the inputs are too many to enumerate', '20000')
    .option('--prove', 'prove the sampled rules with Z3 bit-vectors')
    .option('--timeout <ms>', 'Z3 time limit per rule (with --prove)', '5000')
    .option('--run', 'also compile and run every lowering rule (x86 here, Neon under qemu-aarch64)')
    .action(async (o: { json?: boolean; fault?: string; samples: string; prove?: boolean; timeout: string; run?: boolean }) => {
      const fault = o.fault === undefined ? undefined : FPIR_FAULTS.find((f) => f.name === o.fault);
      if (o.fault !== undefined && !fault) throw new UserError(`unknown fault '${o.fault}'`, argLoc('--fault', o.fault), `the faults are: ${FPIR_FAULTS.map((f) => f.name).join(', ')}`);
      const samples = Number(o.samples);
      if (!Number.isInteger(samples) || samples < 1) throw new UserError(`--samples needs a positive integer, got '${o.samples}'`, argLoc('--samples', String(o.samples)));
      const t0 = performance.now();
      const timeout = Number(o.timeout);
      if (!Number.isInteger(timeout) || timeout < 1) throw new UserError(`--timeout needs a positive integer, got '${o.timeout}'`, argLoc('--timeout', String(o.timeout)));
      const lowering = plantedRules(fault);
      const sampled = verifyAll(LIFTING_RULES, lowering, { samples });
      const verdicts = o.prove ? await proveSampled(sampled, LIFTING_RULES, lowering, timeout).finally(shutdownZ3) : sampled.map((v) => ({ ...v, proof: v.status === 'proved' ? 'exhaustive' : 'none', ...(v.status === 'sampled' ? { reason: 'not given to Z3 (run with --prove)' } : {}) }));
      const count = (s: string) => verdicts.filter((v) => v.status === s).length;
      const ms = verdicts.map((v) => v.ms).sort((a, b) => a - b);
      const summary = { rules: verdicts.length, proved: count('proved'), proved_by_z3: verdicts.filter((v) => v.proof === 'z3' && v.status === 'proved').length, sampled: count('sampled'), refuted: count('refuted'), median_ms: Math.round(ms[Math.floor(ms.length / 2)] ?? 0), ...(o.prove ? { slowest_query_ms: Math.max(0, ...verdicts.map((v) => ('query_ms' in v ? (v.query_ms ?? 0) : 0))) } : {}), total_ms: Math.round(performance.now() - t0) };
      const runs = o.run ? await runLoweringRules(lowering, { table: lowering }) : undefined;
      const ran = (s: string) => runs?.filter((r) => r.status === s).length ?? 0;
      const runSummary = runs ? { run: { rules: runs.length, agree: ran('agree'), differ: ran('differ'), failed: ran('failed'), not_run: ran('not run') } } : {};
      if (o.json) io.out(`${JSON.stringify({ summary: { ...summary, ...runSummary }, rules: verdicts.map((v) => ({ ...v, ms: Math.round(v.ms) })), ...(runs ? { runs } : {}) }, null, 1)}\n`);
      else {
        for (const v of verdicts) io.out(`${v.status.padEnd(8)} ${v.rule} (${v.proof === 'z3' ? 'Z3' : `${v.checked} lanes`})${v.counterexample ? `\n         ${v.counterexample}` : ''}${v.status === 'sampled' && v.reason ? `\n         not proved: ${v.reason}` : ''}\n`);
        io.out(`${summary.rules} rules: ${summary.proved} proved (${summary.proved_by_z3} by Z3), ${summary.sampled} sampled, ${summary.refuted} refuted; median ${summary.median_ms} ms per rule\n`);
        for (const r of runs?.filter((x) => x.status !== 'agree') ?? []) io.out(`run ${r.status.padEnd(8)} ${r.rule}: ${r.detail}\n`);
        if (runs) io.out(`run: ${runs.length} lowering rules, ${ran('agree')} agree with the interpreter, ${ran('differ')} differ, ${ran('failed')} failed, ${ran('not run')} not run\n`);
      }
      if (summary.refuted > 0 || ran('differ') > 0) setExit(1);
    });
};
