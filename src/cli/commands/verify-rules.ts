// `refsem verify-rules [FILE …] [--timeout MS] [--json]`: proves each rewrite rule in its domain
// with Z3 (spec/simplify.md [SIMP-PROVE]), the built-in rules when no file is named. Exit code 1
// when a rule is refuted or left unknown: only proved rules may be shipped.
import type { Register } from './index.js';
import { CheckFailed } from '../main.js';
import { median } from '../../bench/timing.js';
import { shutdownZ3 } from '../../expr/smt.js';
import { showValue, valueFromJson } from '../../expr/value.js';
import { BUILTIN_RULES } from '../../simplify/builtin-rules.js';
import { type RuleReport, proveRules } from '../../simplify/prove-z3.js';
import { readRules } from '../../node/rules-file.js';
import { parseIntOption } from '../options.js';

/** The per-rule report and the counts of `npm run verify-rules`. */
export function rulesReport(reports: readonly RuleReport[]): object {
  const ms = reports.map((r) => r.verdict.ms);
  const count = (s: string) => reports.filter((r) => r.verdict.status === s).length;
  return {
    rules: reports.map((r) => ({ name: r.name, domain: r.domain, rule: r.rule, ...r.verdict })),
    summary: { rules: reports.length, proved: count('proved'), refuted: count('refuted'), unknown: count('unknown'), median_ms: reports.length ? median(ms) : 0, worst_ms: Math.max(0, ...ms) },
  };
}

function showReport(r: RuleReport): string {
  const v = r.verdict;
  const head = `${v.status.padEnd(8)}${r.name} (${r.domain}): ${r.rule}`;
  if (v.status === 'refuted') {
    const show = (x: number | string) => showValue(valueFromJson(x));
    const at = Object.entries(v.counterexample).map(([k, x]) => `${k} = ${show(x)}`).join(', ');
    return `${head}\n          counterexample: ${at}; left ${show(v.lhs)}, right ${show(v.rhs)}`;
  }
  return v.status === 'unknown' ? `${head}\n          ${v.reason}` : head;
}

export const register: Register = (program, io) => {
  program
    .command('verify-rules')
    .description('prove every rewrite rule of the simplifier in its domain with Z3 (spec/simplify.md)')
    .argument('[files...]', 'rule files (default: the built-in rules)')
    .option('--timeout <ms>', 'solver time limit per rule', '10000')
    .option('--json', 'print the report as one JSON object')
    .action(async (files: string[], o: { timeout: string; json?: boolean }) => {
      const timeout = Number(parseIntOption('--timeout', o.timeout, 1n, 3_600_000n));
      const rules = files.length > 0 ? readRules(files) : BUILTIN_RULES;
      let reports: RuleReport[];
      try {
        reports = await proveRules(rules, timeout);
      } finally {
        await shutdownZ3();
      }
      if (o.json) io.out(`${JSON.stringify(rulesReport(reports))}\n`);
      else for (const r of reports) io.out(`${showReport(r)}\n`);
      if (reports.some((r) => r.verdict.status !== 'proved')) throw new CheckFailed();
    });
};
