// The simplifier (spec/simplify.md): how many built-in rules Z3 proves, refutes or leaves unknown
// and how long each proof takes; how fast the simplifier rewrites generated expressions; β1's
// tightness (total allocated points) with and without the simplifier's rules; and the size of the
// emitted C with and without simplified index expressions ([C-INDEX]).
import fc from 'fast-check';
import type { Input } from '../alg-semantics/ast.js';
import { loadPipeline } from '../alg-semantics/load.js';
import { beta1 } from '../bounds/beta1.js';
import { extractQuery } from '../bounds/query.js';
import { emitC } from '../codegen/emit-c.js';
import { shutdownZ3 } from '../expr/smt.js';
import { arbExpr } from '../fuzz/arbitraries/expr.js';
import { arbTgtProgram } from '../fuzz/arbitraries/tgt.js';
import { completed, scheduled } from '../pipeline.js';
import { parseSchedule } from '../schedule/parse.js';
import { BUILTIN_RULE_SET, BUILTIN_RULES } from '../simplify/builtin-rules.js';
import { proveRules } from '../simplify/prove-z3.js';
import type { Domain } from '../simplify/rule.js';
import { simplifyWith } from '../simplify/simplify.js';
import { EXAMPLES, allocated } from './bounds.bench.js';
import { sampleScheduled } from '../fuzz/gen/scheduled-sample.js';
import { readExample } from './examples.js';
import { median, round } from './timing.js';
import { BUILTIN_ENGINES } from '../bounds/engine.js';
import type { TgtProgram } from '../target-semantics/ast.js';

export const name = 'simplify';
export const group = 'core';

/** Expressions simplified per second, over 2000 generated expressions of depth up to 6. */
function throughput(domain: Domain): number {
  const exprs = fc.sample(arbExpr({ vars: ['x', 'y', 'z'], errors: domain === 'values', depth: 6 }), { seed: 11, numRuns: 2000 });
  for (const e of exprs) simplifyWith(e, BUILTIN_RULE_SET, { domain }); // warm up
  const t0 = performance.now();
  for (const e of exprs) simplifyWith(e, BUILTIN_RULE_SET, { domain });
  return exprs.length / ((performance.now() - t0) / 1000);
}

/** A clamp written as a select: the rules read it as a min (spec/bounds.md [BETA1-SIMPLIFY]). */
const SELECT_CLAMP = { name: 'select-clamp', alg: 'pipeline f() { func g(x) = x * 2; func f(x) = g(select(x < 3, x, 3)); }', schedule: '', window: 64 };

/** Total allocated points of β1 with and without the rules, on the examples and on generated programs. */
function tightness(): object {
  const sum = (cs: readonly { t: TgtProgram; input: Input }[]) => {
    let before = 0;
    let after = 0;
    let tighter = 0;
    let compared = 0;
    for (const c of cs) {
      const q = extractQuery(c.t);
      const a0 = allocated(c.t, beta1(c.t, q, undefined, null), c.input);
      const a1 = allocated(c.t, beta1(c.t, q), c.input);
      if (a0 === undefined || a1 === undefined || a0 > 1e7) continue;
      compared++;
      before += a0;
      after += a1;
      if (a1 < a0) tighter++;
    }
    return { programs: compared, allocated_without_rules: before, allocated_with_rules: after, ratio: round(after / before), strictly_tighter: tighter };
  };
  const examples = [...EXAMPLES, SELECT_CLAMP].map((ex) => {
    const p = loadPipeline(ex.alg, `${ex.name}.alg`);
    const t = scheduled({ algorithm: p }, ex.schedule ? parseSchedule(ex.schedule, `${ex.name}.sched`) : undefined);
    return { t, input: { window: [[0, ex.window]], params: new Map() } as Input };
  });
  return { examples: sum(examples), generated: sum(sampleScheduled(300)) };
}

/** Bytes of scalar C with and without simplified index expressions. */
function codeSize(): object {
  const measure = (ts: readonly TgtProgram[]) => {
    let before = 0;
    let after = 0;
    let changed = 0;
    for (const t of ts) {
      const a = emitC(t, { simd: 'none', simplifyIndices: false }).length;
      const b = emitC(t, { simd: 'none' }).length;
      before += a;
      after += b;
      if (a !== b) changed++;
    }
    return { programs: ts.length, bytes_without: before, bytes_with: after, ratio: round(after / before, 4), programs_changed: changed };
  };
  const ex = (alg: string, sched: string) => completed({ algorithm: loadPipeline(readExample(alg), alg) }, parseSchedule(readExample(sched), sched), BUILTIN_ENGINES.beta1!);
  return {
    examples: measure([ex('blur.alg', 'blur.sched'), ex('harris.alg', 'harris.sched'), ex('sec22.alg', 'sec22.sched')]),
    generated: measure(fc.sample(arbTgtProgram(), { seed: 3, numRuns: 300 })),
  };
}

export async function run(): Promise<object> {
  const reports = await proveRules(BUILTIN_RULES, 20_000);
  await shutdownZ3();
  const ms = reports.map((r) => r.verdict.ms);
  const count = (s: string) => reports.filter((r) => r.verdict.status === s).length;
  return {
    rules: reports.length,
    proved: count('proved'),
    refuted: count('refuted'),
    unknown: count('unknown'),
    proof_ms: { median: round(median(ms)), worst: round(Math.max(...ms)) },
    simplified_expressions_per_s: { values: Math.round(throughput('values')), integers: Math.round(throughput('integers')) },
    beta1_tightness: tightness(),
    c_code_size: codeSize(),
  };
}
