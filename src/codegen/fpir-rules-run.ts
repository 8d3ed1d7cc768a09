// Lowering rules run as code (spec/fpir.md, [FPIR-RULES-RUN]): each rule's left side, its constant
// wildcards given values its precondition allows, is selected for the rule's target, compiled and
// run on boundary-biased lanes, and compared lane by lane with the interpreter: Neon rules under
// qemu-aarch64, x86 rules on this CPU. All rules of a run share one program.
import { varsOf } from '../fpir/ast.js';
import { compileLane } from '../fpir/eval.js';
import { parseLeft } from '../fpir/lift.js';
import { LANES, LOWERING_RULES, type LoweringRule } from '../fpir/lower-rules.js';
import { baseName, isConstWildcard } from '../fpir/match.js';
import { parseFpir } from '../fpir/parse.js';
import { boundaryValues, sampleValue } from '../fpir/sample.js';
import { selectInstructions } from '../fpir/select.js';
import { tmax, tmin } from '../fpir/types.js';
import { seededRng } from '../rng.js';
import { type RunItem, runSelectedAll } from './fpir-run.js';
import type { ToolchainOptions } from './toolchain.js';

export interface RuleRun {
  readonly rule: string;
  /** `agree` on every lane of every constant tried; `not run` says why in `detail` */
  readonly status: 'agree' | 'differ' | 'failed' | 'not run';
  readonly detail?: string;
  /** the constant wildcards' values tried (one run each) */
  readonly constants: readonly string[];
  readonly lanes: number;
}

/** Up to three values of the constant wildcard (the least, the greatest, one between) the precondition allows. */
function constantChoices(r: LoweringRule): { name: string; values: bigint[] } | undefined | 'values' {
  const p = parseLeft(r);
  const consts = varsOf(p.lhs).filter((v) => isConstWildcard(v.name));
  if (p.pre && varsOf(p.pre).some((v) => !isConstWildcard(v.name))) return 'values';
  if (consts.length === 0) return undefined;
  const c = consts[0]!;
  const pre = p.pre ? compileLane(p.pre, () => 0) : () => 1n;
  const ok: bigint[] = [];
  for (let v = tmin(c.type) > -64n ? tmin(c.type) : -64n; v <= (tmax(c.type) < 64n ? tmax(c.type) : 64n); v++) if (pre([v]) !== 0n) ok.push(v);
  return { name: c.name, values: ok.length <= 3 ? ok : [ok[0]!, ok[Math.floor(ok.length / 2)]!, ok.at(-1)!] };
}

// implements [FPIR-RULES-RUN]
/**
 * Every rule of `rules` run as selected code against the interpreter on `vectors` logical vectors
 * per constant; selection chooses among `table` (the shipped rules), so a rule another one shadows
 * is reported as not run.
 */
export async function runLoweringRules(rules: readonly LoweringRule[], opts: ToolchainOptions & { vectors?: number; seed?: number; table?: readonly LoweringRule[] } = {}): Promise<RuleRun[]> {
  const rng = seededRng(opts.seed ?? 1);
  const items: RunItem[] = [];
  const plan: { rule: string; constants: string[]; first: number; count: number; skip?: string; lanes: number }[] = [];
  for (const r of rules) {
    const lanes = LANES[r.target] * (opts.vectors ?? 8);
    const choice = constantChoices(r);
    if (choice === 'values') {
      plan.push({ rule: r.name, constants: [], first: 0, count: 0, lanes: 0, skip: 'its precondition bounds operand values, which the selector proves only from context ([FPIR-BOUNDS])' });
      continue;
    }
    const sources = choice ? choice.values.map((v) => ({ src: r.lhs.replace(new RegExp(`\\b${choice.name}\\b`, 'g'), String(v)), label: `${baseName(choice.name)}=${v}` })) : [{ src: r.lhs, label: '' }];
    const first = items.length;
    let skip: string | undefined;
    for (const { src, label } of sources) {
      const expr = parseFpir(src, r.name);
      const sel = selectInstructions(expr, r.target, opts.table ?? LOWERING_RULES);
      if (sel.k !== 'rule' || sel.rule !== r.name) {
        skip = `${label ? `at ${label} ` : ''}selection takes ${sel.k === 'rule' ? sel.rule : 'portable code'} first`;
        break;
      }
      const env = new Map(varsOf(expr).map((v) => {
        const edges = boundaryValues(v.type);
        return [v.name, Array.from({ length: lanes }, () => sampleValue(v.type, rng, edges))] as const;
      }));
      items.push({ expr, sel, target: r.target, env });
    }
    if (skip) items.length = first;
    plan.push({ rule: r.name, constants: sources.map((s) => s.label).filter((l) => l), first, count: skip ? 0 : sources.length, lanes, ...(skip ? { skip } : {}) });
  }
  // One program per target: x86 code runs here, Neon code under qemu-aarch64.
  const outcomes: Awaited<ReturnType<typeof runSelectedAll>> = [];
  for (const neon of [false, true]) {
    const idx = items.flatMap((it, k) => ((it.target === 'neon') === neon ? [k] : []));
    if (idx.length === 0) continue;
    const out = await runSelectedAll(idx.map((k) => items[k]!), opts);
    idx.forEach((k, j) => (outcomes[k] = out[j]!));
  }
  return plan.map((p): RuleRun => {
    if (p.skip) return { rule: p.rule, status: 'not run', detail: p.skip, constants: [], lanes: 0 };
    const mine = outcomes.slice(p.first, p.first + p.count);
    const bad = mine.findIndex((o) => o.status !== 'agree');
    if (bad < 0) return { rule: p.rule, status: 'agree', constants: p.constants, lanes: p.lanes };
    const o = mine[bad]!;
    return { rule: p.rule, status: o.status === 'differ' ? 'differ' : 'failed', detail: `${p.constants[bad] ? `${p.constants[bad]}: ` : ''}${o.detail ?? ''}`, constants: p.constants, lanes: p.lanes };
  });
}
