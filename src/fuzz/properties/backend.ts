// `refsem fuzz --backend c|simd`: the emitted C (or SIMD) program of a scheduled, completed case
// agrees with the reference executor on the case's input (src/codegen hook). Exact integers meet
// fixed-width machine integers here: an overflow is a reported verdict, never a silent difference.
// Cases come from the codegen profile (values beyond 32 bits, long windows), most schedules start
// with the vector template (split by a constant, vectorize the inner loop), and each case names
// the instruction set its vector code is compiled for, so that campaigns cover the 8- and the
// 4-lane code even on a machine whose dispatcher would always pick the widest.
import fc from 'fast-check';
import { type BatchItem, type Isa, LANES, runnableIsa, vectorPlan, verdictsToCheck } from '../../codegen/index.js';
import { validateBatch } from '../../codegen/validate.js';
import { constValue } from '../../schedule/loops.js';
import { loopsOf } from '../../target-semantics/walk.js';
import { bump } from '../stats.js';
import { complete } from '../../pipeline.js';
import { type VectorB, applyVectorTemplate, arbVectorB } from '../gen/vector-template.js';
import type { CheckResult, Property } from '../property.js';
import type { FuzzEnv } from '../env.js';
import { type SchedCase, type SchedGen, arbSchedGen, decodeSched, encodeSched, finalProgram, observeSched, schedCase, schedShape } from './sched-case.js';

const ISAS: readonly Isa[] = ['avx512', 'avx2', 'generic'];

interface BackendGen {
  readonly g: SchedGen;
  readonly v: VectorB | null;
  readonly isa: Isa;
}

interface BackendCase extends SchedCase {
  readonly isa: Isa;
}

/**
 * The cases' verdicts from one compile: each case's program completed, all of them emitted into one
 * translation unit (for the SIMD backend, each for its own instruction set) and run on its input.
 * One compile at a time: a campaign already runs a worker per core.
 */
async function checkCases(cs: readonly BackendCase[], env: FuzzEnv): Promise<CheckResult[]> {
  const backend = env.config.backend ?? 'c';
  const out: CheckResult[] = cs.map(() => ({ status: 'discard', why: 'directive error' }));
  const items: { k: number; item: BatchItem }[] = [];
  cs.forEach((c, k) => {
    if (c.trouble) return;
    try {
      items.push({ k, item: { t: complete(finalProgram(c), env.engine), inputs: [c.input], ...(backend === 'simd' ? { emit: { simd: runnableIsa(c.isa) } } : {}) } });
    } catch (e) {
      // Alone, the exception is the check's verdict (a crash); in a batch, the case is checked again alone.
      if (cs.length === 1) throw e;
      out[k] = { status: 'fail', verdict: 'crash', expected: 'no exception', actual: String(e) };
    }
  });
  if (items.length === 0) return out;
  const vss = await validateBatch(items.map((x) => x.item), {
    backend,
    ...(env.codegenFaults ? { faults: env.codegenFaults } : {}),
    maxSteps: env.config.maxSteps,
    jobs: 1,
  });
  items.forEach((x, n) => {
    out[x.k] = verdictsToCheck(vss[n]!);
  });
  return out;
}

export const backend: Property<BackendGen, BackendCase> = {
  name: 'backend',
  summary: 'the compiled backend (--backend c|simd) agrees with the reference executor on scheduled, completed programs',
  arbitrary: (env) => fc.record({ g: arbSchedGen(env, 'codegen'), v: arbVectorB, isa: fc.constantFrom(...ISAS) }),
  concretize: (b, env) => ({ ...schedCase(b.g, env, b.v ? (t, apply) => applyVectorTemplate(t, b.v!, apply) : undefined), isa: b.isa }),
  check: () => ({ status: 'discard', why: 'the backend property runs asynchronously' }),
  async checkAsync(c, env) {
    return (await checkCases([c], env))[0]!;
  },
  // One binary for the whole batch (spec/codegen.md, [C-BATCH]): the compiler's start, the runtime
  // and the link are paid once.
  checkBatchAsync: checkCases,
  encode: (c) => ({ ...encodeSched(c), extra: { isa: c.isa } }),
  // A reproducer without an instruction set compiles for the widest, as the run-time dispatcher would.
  decode: (t, env) => ({ ...decodeSched(t, env), isa: ISAS.find((i) => i === t.extra?.isa) ?? 'avx512' }),
  shape: (c) => `${schedShape(c)}|${c.isa}`,
  observe(c, stats) {
    observeSched(c, stats);
    bump(stats.constructs, `vector code for ${c.isa}`);
    // Whole vectors and a scalar tail are what the vector code must get right ([C-VECTOR]).
    const w = LANES[runnableIsa(c.isa)];
    for (const l of loopsOf(finalProgram(c))) {
      // Updates of one point that the vector variants run lane-wise ([C-VECTOR-UPDATE]).
      if ((l.stmt.trav === 'serial' || l.stmt.trav === 'vectorize') && (vectorPlan(l.stmt, () => true)?.items.length ?? 0) > 1) bump(stats.constructs, 'updates of one point run lane-wise');
      const n = l.stmt.trav === 'vectorize' ? constValue(l.stmt.len) : undefined;
      if (n === undefined) continue;
      bump(stats.constructs, n < w ? 'vectorized loop shorter than a vector' : BigInt(n) % BigInt(w) === 0n ? 'vectorized loop of whole vectors' : 'vectorized loop with a tail');
    }
  },
};
