// The report of `refsem verify-rules --halide-src DIR | --rules FILE` (spec/simplify.md
// [HR-REPORT]): per rule its verdict, its order and whether an earlier rule covers it; per file
// the counts a Halide developer acts on, with the constructs not modelled counted by kind.
import { type HRule, showRuleH } from './ast.js';
import { type ModelResult, modelRule } from './model.js';
import { type OrderVerdict, checkOrder, subsumedBy } from './order.js';
import type { Unreadable } from './parse.js';
import type { SynthesizedPredicate } from './predicate.js';
import type { HVerdict } from './verify.js';

export interface RuleResult {
  readonly file: string;
  readonly line: number;
  readonly node: string;
  readonly rule: string;
  /** the C++ conditions the call sits behind */
  readonly guards: readonly string[];
  /** the constructs that keep the rule out of the model; absent when it is modelled */
  readonly unmodelled?: readonly string[];
  readonly verdict?: HVerdict;
  readonly order: OrderVerdict;
  /** `file:line` of an earlier rule of the same visitor that matches whatever this one matches */
  readonly subsumedBy?: string;
  /** for a rule written with the predicate `false`: the predicate found for it */
  readonly synthesized?: SynthesizedPredicate;
}

export interface FileRow {
  readonly file: string;
  readonly read: number;
  readonly unreadable: number;
  readonly modelled: number;
  readonly proved: number;
  readonly vacuous: number;
  readonly refuted: number;
  readonly unknown: number;
  readonly order_violations: number;
  readonly order_by_constants: number;
  readonly subsumed: number;
}

export interface HalideReport {
  readonly rules: readonly RuleResult[];
  readonly unreadable: readonly Unreadable[];
  readonly files: readonly FileRow[];
  readonly total: FileRow;
  /** constructs not modelled, with how many rules each keeps out */
  readonly unmodelled: Readonly<Record<string, number>>;
  /** per domain ([HR-WRAP]): the rules checked in it and their verdicts there */
  readonly domains: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly seconds: number;
  readonly rules_per_second: number;
}

/** A rule with what can be known of it without a solver. */
export interface Prepared {
  readonly rule: HRule;
  readonly model: ModelResult;
  readonly order: OrderVerdict;
  readonly subsumedBy?: HRule;
}

/** Models each rule, checks its order, and finds the rules an earlier one covers. */
export function prepare(rules: readonly HRule[]): Prepared[] {
  return rules.map((rule, i) => {
    const model = modelRule(rule);
    const sides = model.ok ? model.rule : rule;
    const by = subsumedBy(rules.slice(0, i), rule);
    return { rule, model, order: checkOrder(sides.lhs, sides.rhs), ...(by ? { subsumedBy: by } : {}) };
  });
}

function row(file: string, rs: readonly RuleResult[], unreadable: number): FileRow {
  const st = (s: string) => rs.filter((r) => r.verdict?.status === s).length;
  return {
    file, read: rs.length + unreadable, unreadable, modelled: rs.filter((r) => !r.unmodelled).length,
    proved: st('proved'), vacuous: st('vacuous'), refuted: st('refuted'), unknown: st('unknown'),
    order_violations: rs.filter((r) => r.order.status === 'violation').length,
    order_by_constants: rs.filter((r) => r.order.status === 'constants').length,
    subsumed: rs.filter((r) => r.subsumedBy).length,
  };
}

// implements [HR-REPORT]
export function buildReport(
  prepared: readonly Prepared[],
  verdicts: ReadonlyMap<Prepared, HVerdict>,
  unreadable: readonly Unreadable[],
  seconds: number,
  synthesized: ReadonlyMap<Prepared, SynthesizedPredicate> = new Map(),
): HalideReport {
  const rules: RuleResult[] = prepared.map((p) => {
    const v = verdicts.get(p);
    const syn = synthesized.get(p);
    return {
      file: p.rule.file, line: p.rule.line, node: p.rule.node, rule: showRuleH(p.rule), guards: p.rule.guards,
      ...(p.model.ok ? {} : { unmodelled: p.model.constructs }),
      ...(v ? { verdict: v } : {}),
      order: p.order,
      ...(p.subsumedBy ? { subsumedBy: `${p.subsumedBy.file}:${p.subsumedBy.line}` } : {}),
      ...(syn ? { synthesized: syn } : {}),
    };
  });
  const files = [...new Set([...rules.map((r) => r.file), ...unreadable.map((u) => u.file)])].sort();
  const unmodelled: Record<string, number> = {};
  for (const r of rules) for (const k of r.unmodelled ?? []) unmodelled[k] = (unmodelled[k] ?? 0) + 1;
  const checked = rules.filter((r) => r.verdict).length;
  const domains: Record<string, Record<string, number>> = {};
  for (const r of rules) {
    const v = r.verdict;
    if (!v) continue;
    for (const [d, st] of Object.entries(v.domains ?? { [v.domain ?? 'halide']: v.status })) {
      const row = (domains[d] ??= { checked: 0, proved: 0, vacuous: 0, refuted: 0, unknown: 0 });
      row.checked!++;
      row[st]!++;
    }
  }
  return {
    rules, unreadable, domains,
    files: files.map((f) => row(f, rules.filter((r) => r.file === f), unreadable.filter((u) => u.file === f).length)),
    total: row('total', rules, unreadable.length),
    unmodelled,
    seconds: Math.round(seconds * 10) / 10,
    rules_per_second: seconds > 0 ? Math.round((checked / seconds) * 100) / 100 : 0,
  };
}

const COLUMNS: readonly (keyof FileRow)[] = ['read', 'modelled', 'proved', 'vacuous', 'refuted', 'unknown', 'order_violations', 'order_by_constants', 'subsumed'];
const HEAD: Readonly<Record<string, string>> = { order_violations: 'order violations', order_by_constants: 'order by constants' };

/** The per-file table as Markdown. */
export function reportTable(rep: HalideReport): string {
  const head = `| file | ${COLUMNS.map((c) => HEAD[c] ?? c).join(' | ')} |`;
  const sep = `|---|${COLUMNS.map(() => '---:').join('|')}|`;
  const line = (r: FileRow) => `| ${r.file} | ${COLUMNS.map((c) => r[c]).join(' | ')} |`;
  return [head, sep, ...rep.files.map(line), line(rep.total)].join('\n');
}

/** The text report: refutations with their counterexamples, unknowns, order violations, subsumed rules, then the table. */
export function reportText(rep: HalideReport): string {
  const out: string[] = [];
  const at = (r: RuleResult) => `${r.file}:${r.line}`;
  // The domain is named when it is not the default one.
  const inDomain = (v: HVerdict) => (v.domain && v.domain !== 'halide' ? ` in ${v.domain}` : '');
  for (const r of rep.rules) {
    const v = r.verdict;
    if (v?.status === 'refuted') out.push(`refuted ${at(r)} (${r.node})${inDomain(v)}: ${r.rule}\n  counterexample: ${v.counterexample}; left ${v.lhs}, right ${v.rhs}`);
  }
  for (const r of rep.rules) {
    const syn = r.synthesized;
    if (!syn) continue;
    const how = syn.status === 'proved' ? 'proved sufficient' : 'a guess: not proved sufficient';
    const grid = `${syn.exactOnGrid ? 'exactly' : 'not exactly'} where the rule holds for constants in [-${syn.radius}, ${syn.radius}]`;
    out.push(`predicate ${at(r)} (${r.node}): ${r.rule}\n  ${syn.pred} (${how}; holds ${grid})`);
  }
  for (const r of rep.rules) if (r.verdict?.status === 'unknown') out.push(`unknown ${at(r)} (${r.node})${inDomain(r.verdict)}: ${r.rule}\n  ${r.verdict.reason}`);
  for (const r of rep.rules) if (r.verdict?.status === 'vacuous' && !r.synthesized) out.push(`vacuous ${at(r)} (${r.node}): ${r.rule}\n  its predicate never holds`);
  for (const r of rep.rules) {
    if (r.order.status === 'violation') out.push(`order   ${at(r)} (${r.node}): ${r.rule}\n  ${r.order.why}: left ${r.order.lhs}; right ${r.order.rhs}`);
  }
  for (const r of rep.rules) if (r.subsumedBy) out.push(`subsumed ${at(r)} (${r.node}): ${r.rule}\n  by the earlier rule at ${r.subsumedBy}`);
  for (const u of rep.unreadable) out.push(`unreadable ${u.file}:${u.line} (${u.node}): ${u.error}`);
  const kinds = Object.entries(rep.unmodelled).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (kinds.length > 0) out.push(`not modelled (rules per construct): ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const byDomain = Object.entries(rep.domains).map(([d, n]) => `${d} ${['proved', 'vacuous', 'refuted', 'unknown'].map((k) => n[k]).join('/')}`);
  if (byDomain.length > 1) out.push(`per domain, proved/vacuous/refuted/unknown: ${byDomain.join(', ')}`);
  out.push(reportTable(rep));
  // Times are in the JSON report only: the text is the same on every run.
  out.push(`${rep.total.modelled} of ${rep.total.read} rules modelled`);
  return `${out.join('\n')}\n`;
}
