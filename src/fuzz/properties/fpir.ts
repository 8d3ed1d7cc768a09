// `refsem fuzz --property fpir`: random FPIR expressions, each lowered for an x86 target through
// the lowering rules (portable lanes where none applies), compiled together into one program and
// run on this CPU, agree lane for lane with the FPIR interpreter (spec/fpir.md, [FPIR-RUN]).
// Targets the CPU lacks fall back to the portable code, never to a pass without a run.
import fc from 'fast-check';
import { hostIsas } from '../../codegen/cpu.js';
import { runSelectedAll } from '../../codegen/fpir-run.js';
import { varsOf } from '../../fpir/ast.js';
import { plantedRules } from '../../fpir/faults.js';
import { randomFpir, randomLanes, randomType } from '../../fpir/gen.js';
import { parseFpir } from '../../fpir/parse.js';
import { printFpir } from '../../fpir/print.js';
import { selectInstructions, summarize } from '../../fpir/select.js';
import { seededRng } from '../../rng.js';
import { bump } from '../stats.js';
import type { CheckResult, Property } from '../property.js';
import type { FuzzEnv } from '../env.js';

type X86 = 'avx2' | 'avx512';

interface FpirItem {
  readonly expr: string;
  readonly target: X86;
  /** the lanes' seed */
  readonly seed: number;
}

interface FpirCase {
  readonly items: readonly FpirItem[];
}

/** Vectors per expression: the lanes of two logical vectors. */
const VECTORS = 2;
/**
 * Expressions per check: one compile serves them all, and a compile costs several times what an
 * expression adds to it, so a batch reaches the lowering rules many times sooner per second.
 */
const BATCH = 8;
/** A case's lists in its text: expressions apart (`;` is no FPIR token), targets and seeds apart. */
const SEP = ' ; ';

type Blueprint = { seed: number; depth: number; target: X86 } | null;

/** Each case's verdict, all their expressions compiled into one program and run on this CPU. */
async function checkCases(cs: readonly FpirCase[], env: FuzzEnv): Promise<CheckResult[]> {
  if (!hostIsas().has('avx2')) return cs.map(() => ({ status: 'discard', why: 'this CPU runs neither AVX2 nor AVX-512' }));
  const runs = cs.map((c) => c.items.map((it, j) => {
    const e = parseFpir(it.expr, `case, expression ${j + 1}`);
    const target: X86 = hostIsas().has(it.target) ? it.target : 'avx2';
    const sel = selectInstructions(e, target, plantedRules(env.fpirFault));
    return { expr: e, sel, target, env: randomLanes(varsOf(e), (target === 'avx2' ? 32 : 64) * VECTORS, seededRng(it.seed + 1)) };
  }));
  const all = runs.flat().length === 0 ? [] : await runSelectedAll(runs.flat(), env.fpirFault?.truncatingHalving ? { faults: { truncatingHalving: true } } : {});
  let at = 0;
  return cs.map((c, n): CheckResult => {
    const rs = all.slice(at, (at += runs[n]!.length));
    if (c.items.length === 0) return { status: 'discard', why: 'no expression' };
    const j = rs.findIndex((r) => r.status !== 'agree');
    if (j < 0) return { status: 'pass' };
    const r = rs[j]!;
    if (r.status === 'failed') return { status: 'fail', verdict: 'crash', expected: 'a compiled run', actual: r.detail ?? '' };
    return { status: 'fail', verdict: 'wrong-value', expected: `the FPIR interpreter's lanes for ${c.items[j]!.expr} (${summarize(runs[n]![j]!.sel).rules.join(', ') || 'portable'})`, actual: r.detail ?? '' };
  });
}

export const fpir: Property<Blueprint[], FpirCase> = {
  name: 'fpir',
  summary: 'selected intrinsics and portable lanes for random FPIR expressions agree with the FPIR interpreter on this CPU',
  // Shrinking turns expressions into null (dropped), so a failure shrinks to the expressions that fail.
  arbitrary: () =>
    fc.array(
      fc.option(fc.noShrink(fc.record({ seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }), depth: fc.integer({ min: 1, max: 3 }), target: fc.constantFrom<X86>('avx2', 'avx512') })), { nil: null, freq: 2 ** 30 }),
      { minLength: BATCH, maxLength: BATCH },
    ),
  concretize: (gs) => ({
    items: gs.flatMap((g) => {
      if (g === null) return [];
      const rng = seededRng(g.seed);
      return [{ expr: printFpir(randomFpir(randomType(rng), g.depth, rng)), target: g.target, seed: g.seed }];
    }),
  }),
  check: () => ({ status: 'discard', why: 'the fpir property runs asynchronously' }),
  async checkAsync(c, env) {
    return (await checkCases([c], env))[0]!;
  },
  // Several cases' expressions in one program: one compile for the batch.
  checkBatchAsync: checkCases,
  encode: (c) => ({ extra: { expr: c.items.map((it) => it.expr).join(SEP), target: c.items.map((it) => it.target).join(' '), seed: c.items.map((it) => it.seed).join(' ') } }),
  decode: (t) => {
    const exprs = (t.extra?.expr ?? '').split(SEP.trim()).map((s) => s.trim());
    const targets = (t.extra?.target ?? '').split(' ');
    const seeds = (t.extra?.seed ?? '').split(' ');
    return { items: exprs.map((expr, j) => ({ expr, target: targets[j] === 'avx512' ? 'avx512' : 'avx2', seed: Number(seeds[j] ?? 0) })) };
  },
  shape: (c) => c.items.map((it) => `${it.expr.replace(/-?[0-9]+/g, 'k')}|${it.target}`).join(SEP),
  observe(c, stats) {
    for (const it of c.items) for (const r of summarize(selectInstructions(parseFpir(it.expr, 'case'), it.target)).rules) bump(stats.constructs, r);
  },
};
