// `refsem verify-rules [FILE …] [--timeout MS] [--json]`: proves each rewrite rule in its domain
// with Z3 (spec/simplify.md [SIMP-PROVE]), the built-in rules when no file is named. Exit code 1
// when a rule is refuted or left unknown: only proved rules may be shipped. With `--halide-src
// DIR` or `--rules FILE` it checks rules in Halide's own syntax instead ([HR-REPORT]).
import type { Register } from './index.js';
import { CheckFailed } from '../main.js';
import { median } from '../../bench/timing.js';
import { shutdownZ3 } from '../../expr/smt.js';
import { showValue, valueFromJson } from '../../expr/value.js';
import { BUILTIN_RULES } from '../../simplify/builtin-rules.js';
import { type RuleReport, proveRules } from '../../simplify/prove-z3.js';
import { readRules } from '../../node/rules-file.js';
import { collect, parseIntOption } from '../options.js';
import { readHalideRuleFiles, readHalideTree } from '../../node/halide-rules.js';
import type { HRule } from '../../simplify/halide/ast.js';
import type { Unreadable } from '../../simplify/halide/parse.js';
import { buildReport, prepare, reportText } from '../../simplify/halide/report.js';
import { synthesizeAsked, verifyPrepared } from '../../node/halide-rules-run.js';
import { UserError, argLoc } from '../../diag.js';
import { DOMAIN_NAMES } from '../../simplify/halide/domain.js';
import { RULE_BUDGET_MS } from '../../simplify/halide/verify.js';

interface Options {
  timeout?: string;
  json?: boolean;
  halideSrc?: string;
  rules: string[];
  jobs: string;
  domains?: string;
}

/** Halide's rules: read, modelled, verified, ordered; exit 1 unless every rule read is proved and decreases. */
async function halideRules(o: Options, timeout: number, io: Parameters<Register>[1]): Promise<void> {
  const rules: HRule[] = [];
  const unreadable: Unreadable[] = [];
  if (o.halideSrc !== undefined) {
    const tree = readHalideTree(o.halideSrc);
    rules.push(...tree.rules);
    unreadable.push(...tree.unreadable);
  }
  rules.push(...readHalideRuleFiles(o.rules));
  const jobs = Number(parseIntOption('--jobs', o.jobs, 1n, 64n));
  const domains = o.domains?.split(',').map((d) => d.trim());
  const bad = domains?.find((d) => !DOMAIN_NAMES.includes(d));
  if (bad !== undefined) throw new UserError(`unknown domain '${bad}'`, argLoc('--domains'), `the domains are ${DOMAIN_NAMES.join(', ')}`);
  const prepared = prepare(rules);
  const t0 = performance.now();
  let verdicts;
  let synthesized;
  try {
    verdicts = await verifyPrepared(prepared, { timeoutMs: timeout, jobs, ...(domains ? { domains } : {}) });
    synthesized = await synthesizeAsked(prepared, { timeoutMs: timeout });
  } finally {
    await shutdownZ3();
  }
  const rep = buildReport(prepared, verdicts, unreadable, (performance.now() - t0) / 1000, synthesized);
  io.out(o.json ? `${JSON.stringify(rep)}\n` : reportText(rep));
  // A rule written to ask for its predicate is settled by a proved one.
  const settled = rep.rules.filter((r) => r.verdict?.status === 'proved' || r.synthesized?.status === 'proved').length;
  if (settled !== rep.total.read || rep.total.order_violations > 0) throw new CheckFailed();
}

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
    .option('--timeout <ms>', `solver time limit per rule (default 10000), or for Halide rules the work budget of each rule, shared by its domains and attacks (default ${RULE_BUDGET_MS})`)
    .option('--json', 'print the report as one JSON object')
    .option('--halide-src <dir>', "check the rewrite(...) rules of a Halide checkout's src/Simplify_*.cpp")
    .option('--rules <file>', 'check a file of rules in Halide syntax, one rewrite(...) per line (repeatable)', collect, [])
    .option('--jobs <n>', 'Halide rules: worker threads, each with its own solver', '1')
    .option('--domains <list>', `Halide rules: check only in these domains, comma-separated (${DOMAIN_NAMES.join(', ')}; default: every domain a rule's guards admit)`)
    .action(async (files: string[], o: Options) => {
      const halide = o.halideSrc !== undefined || o.rules.length > 0;
      const timeout = Number(parseIntOption('--timeout', o.timeout ?? (halide ? `${RULE_BUDGET_MS}` : '10000'), 1n, 3_600_000n));
      if (halide) {
        if (files.length > 0) throw new UserError('rule files in refsem syntax cannot be mixed with --halide-src or --rules', argLoc('--rules'), 'check them in two runs');
        return halideRules(o, timeout, io);
      }
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
