// `refsem fuzz --property fpir`: a random FPIR expression, lowered for an x86 target through the
// lowering rules (portable lanes where none applies), compiled and run on this CPU, agrees lane for
// lane with the FPIR interpreter (spec/fpir.md, [FPIR-RUN]). Targets the CPU lacks fall back to
// the portable code, never to a pass without a run.
import fc from 'fast-check';
import { hostIsas } from '../../codegen/cpu.js';
import { runSelected } from '../../codegen/fpir-run.js';
import { varsOf } from '../../fpir/ast.js';
import { plantedRules } from '../../fpir/faults.js';
import { randomFpir, randomLanes, randomType } from '../../fpir/gen.js';
import { parseFpir } from '../../fpir/parse.js';
import { printFpir } from '../../fpir/print.js';
import { selectInstructions, summarize } from '../../fpir/select.js';
import { seededRng } from '../../rng.js';
import { bump } from '../stats.js';
import type { Property } from '../property.js';

type X86 = 'avx2' | 'avx512';

interface FpirCase {
  readonly expr: string;
  readonly target: X86;
  readonly seed: number;
}

/** Vectors per case: the lanes of two logical vectors. */
const VECTORS = 2;

export const fpir: Property<{ seed: number; depth: number; target: X86 }, FpirCase> = {
  name: 'fpir',
  summary: 'selected intrinsics and portable lanes for a random FPIR expression agree with the FPIR interpreter on this CPU',
  arbitrary: () => fc.record({ seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }), depth: fc.integer({ min: 1, max: 3 }), target: fc.constantFrom<X86>('avx2', 'avx512') }),
  concretize: (g) => {
    const rng = seededRng(g.seed);
    return { expr: printFpir(randomFpir(randomType(rng), g.depth, rng)), target: g.target, seed: g.seed };
  },
  check: () => ({ status: 'discard', why: 'the fpir property runs asynchronously' }),
  async checkAsync(c, env) {
    const e = parseFpir(c.expr, 'case');
    const target: X86 = hostIsas().has(c.target) ? c.target : 'avx2';
    if (!hostIsas().has(target)) return { status: 'discard', why: 'this CPU runs neither AVX2 nor AVX-512' };
    const sel = selectInstructions(e, target, plantedRules(env.fpirFault));
    const lanes = (target === 'avx2' ? 32 : 64) * VECTORS;
    const r = await runSelected(e, sel, target, randomLanes(varsOf(e), lanes, seededRng(c.seed + 1)), env.fpirFault?.truncatingHalving ? { faults: { truncatingHalving: true } } : {});
    if (r.status === 'agree') return { status: 'pass' };
    if (r.status === 'failed') return { status: 'fail', verdict: 'crash', expected: 'a compiled run', actual: r.detail ?? '' };
    return { status: 'fail', verdict: 'wrong-value', expected: `the FPIR interpreter's lanes for ${c.expr} (${summarize(sel).rules.join(', ') || 'portable'})`, actual: r.detail ?? '' };
  },
  encode: (c) => ({ extra: { expr: c.expr, target: c.target, seed: String(c.seed) } }),
  decode: (t) => ({ expr: t.extra?.expr ?? '', target: t.extra?.target === 'avx512' ? 'avx512' : 'avx2', seed: Number(t.extra?.seed ?? 0) }),
  shape: (c) => `${c.expr.replace(/-?[0-9]+/g, 'k')}|${c.target}`,
  observe(c, stats) {
    for (const r of summarize(selectInstructions(parseFpir(c.expr, 'case'), c.target)).rules) bump(stats.constructs, r);
  },
};
