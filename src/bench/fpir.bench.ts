// FPIR benchmarks (spec/fpir.md): the intrinsic table (entries, how many validated on this CPU,
// harness calls per second; the Neon entries under qemu-aarch64), the rules (proved / sampled /
// refuted, median verification time), and the Sobel kernel of examples/sobel.fpir: selected
// intrinsics against the portable lane code. The seed's kernel suite is fpir-suite.bench.ts.
import { checkTableOnCpu } from '../codegen/fpir-harness.js';
import { runSelected } from '../codegen/fpir-run.js';
import { hostIsas } from '../codegen/cpu.js';
import { varsOf } from '../fpir/ast.js';
import { randomLanes } from '../fpir/gen.js';
import { INTRINSICS } from '../fpir/intrinsics.js';
import { lift } from '../fpir/lift.js';
import { parseFpir } from '../fpir/parse.js';
import { selectInstructions } from '../fpir/select.js';
import { checkClaims } from '../fpir/table-check.js';
import { verifyAll } from '../fpir/verify-rules.js';
import { seededRng } from '../rng.js';
import { readExample } from './examples.js';
import { median, round } from './timing.js';

export const name = 'fpir';
export const group = 'long';

const count = <T>(xs: readonly T[], p: (x: T) => boolean) => xs.filter(p).length;

export async function run(): Promise<object> {
  const cpu = await checkTableOnCpu();
  const neon = await checkTableOnCpu(undefined, { neon: true });
  const claims = checkClaims();
  const verdicts = verifyAll();
  const sobel = lift(parseFpir(readExample('sobel.fpir'), 'sobel.fpir')).expr;
  const lanes = 1 << 16;
  const env = randomLanes(varsOf(sobel), lanes, seededRng(9));
  const timeOf = async (target: 'avx2' | 'avx512', portable: boolean) => {
    const sel = selectInstructions(sobel, target, portable ? [] : undefined);
    const r = await runSelected(sobel, sel, target, env, { repeat: 200 });
    if (r.status !== 'agree') throw new Error(`Sobel on ${target}: ${r.detail}`);
    return r.ns!;
  };
  const sobelFigures: Record<string, number> = {};
  for (const t of ['avx2', 'avx512'] as const) {
    if (!hostIsas().has(t)) continue;
    // The median of three compiled runs of 200 calls each: other processes share the machine.
    const three = async (portable: boolean) => median([await timeOf(t, portable), await timeOf(t, portable), await timeOf(t, portable)]);
    const sel = await three(false);
    const port = await three(true);
    sobelFigures[`${t}_selected_ns_per_lane`] = round(sel / lanes, 3);
    sobelFigures[`${t}_portable_ns_per_lane`] = round(port / lanes, 3);
    sobelFigures[`${t}_speedup`] = round(port / sel, 2);
  }
  const ms = verdicts.map((v) => v.ms).sort((a, b) => a - b);
  return {
    table: {
      entries: INTRINSICS.length,
      x86: cpu.entries.length,
      validated_on_cpu: count(cpu.entries, (e) => e.status === 'validated'),
      not_validated_here: count(cpu.entries, (e) => e.status === 'not validated here'),
      refuted_on_cpu: count(cpu.entries, (e) => e.status === 'refuted'),
      neon: neon.entries.length,
      neon_validated_under_qemu: count(neon.entries, (e) => e.status === 'validated'),
      neon_not_validated_here: count(neon.entries, (e) => e.status === 'not validated here'),
      neon_refuted: count(neon.entries, (e) => e.status === 'refuted'),
      claims_proved: count(claims, (c) => c.status === 'proved'),
      claims_sampled: count(claims, (c) => c.status === 'sampled'),
      claims_refuted: count(claims, (c) => c.status === 'refuted'),
      harness_calls_per_s: Math.round(cpu.callsPerSecond),
      harness_compile_ms: Math.round(cpu.compileMs),
    },
    rules: {
      total: verdicts.length,
      lifting: count(verdicts, (v) => v.kind === 'lifting'),
      lowering: count(verdicts, (v) => v.kind === 'lowering'),
      proved: count(verdicts, (v) => v.status === 'proved'),
      sampled: count(verdicts, (v) => v.status === 'sampled'),
      refuted: count(verdicts, (v) => v.status === 'refuted'),
      median_verification_ms: round(ms[Math.floor(ms.length / 2)] ?? 0, 1),
    },
    sobel: { lanes, ...sobelFigures },
  };
}
