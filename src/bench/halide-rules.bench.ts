// Checking rules in Halide's syntax (spec/simplify.md [HR-REPORT]): rules/s on a rule file of the
// project's own (scalar, boolean, vector and division rules, the TRS paper's four incorrect ones
// among them), one solver thread and two, in every domain a rule is claimed in and in the domain
// `halide` alone (the wrapping domains' cost, [HR-WRAP]); and, when HALIDE_SRC names a Halide
// checkout, the same for its whole src/Simplify_*.cpp (docs/halide-rules.md).
import { shutdownZ3 } from '../expr/smt.js';
import { readHalideTree } from '../node/halide-rules.js';
import type { HRule } from '../simplify/halide/ast.js';
import { readRuleFile } from '../simplify/halide/parse.js';
import { prepare } from '../simplify/halide/report.js';
import { verifyPrepared } from '../node/halide-rules-run.js';
import { RULE_BUDGET_MS } from '../simplify/halide/verify.js';
import { round } from './timing.js';

export const name = 'halide-rules';
export const group = 'long';

/** The budget of the project's own rules here: the 1 s of their first figures, kept comparable. */
const OURS_BUDGET_MS = 1000;

const OURS = `
rewrite(((x + c0) / c1) * c1 - x, x % c1, c1 > 0 && c0 + 1 == c1)
rewrite(x - ((x + c0) / c1) * c1, 0 - (x % c1), c1 > 0 && c0 + 1 == c1)
rewrite(min(x, c0) < min(x, c1) + c2, false, c0 >= c1 + c2)
rewrite(max(x, c0) < max(x, c1) + c2, false, c0 >= c1 + c2)
rewrite((x + c0) + c1, x + fold(c0 + c1))
rewrite(x - x, 0)
rewrite((x + y) - (y + x), 0)
rewrite(x / c0 * c0 + x % c0, x, c0 != 0)
rewrite(max(min(x, c0), c0), c0)
rewrite(min(x * c0, y * c0), min(x, y) * c0, c0 > 0)
rewrite(min(x, y) + max(x, y), x + y)
rewrite(select(x < y, x, y), min(x, y))
rewrite(x && neg(x), false)
rewrite(x || !x, true)
rewrite(!(x < y), y <= x)
rewrite(x * c0 < y * c0, x < y, c0 > 0)
rewrite(x / c0 < c1, x < fold(c1 * c0), c0 > 0)
rewrite((x * c0) / c1, x * fold(c0 / c1), c0 % c1 == 0 && c1 > 0)
rewrite((x % c0) % c0, x % c0)
rewrite(ramp(x, y, c0) + broadcast(z, c0), ramp(x + z, y, c0))
rewrite(broadcast(x, c0) * broadcast(y, c0), broadcast(x * y, c0))
rewrite(ramp(x, y, c0) - ramp(z, w, c0), ramp(x - z, y - w, c0))
rewrite(min(x + c0, y + c0), min(x, y) + c0)
rewrite(max(x - y, 0) + y, max(x, y))
`;

/**
 * `timeoutMs`: the rules' budget; the project's rules keep the 1 s of their first figures, a
 * checkout has the command's default (RULE_BUDGET_MS), so the bench and `refsem verify-rules`
 * measure the same run.
 */
async function rate(rules: readonly HRule[], jobs: number, timeoutMs: number, domains?: readonly string[]): Promise<object> {
  const prepared = prepare(rules);
  const t0 = performance.now();
  const verdicts = await verifyPrepared(prepared, { jobs, timeoutMs, ...(domains ? { domains } : {}) });
  const s = (performance.now() - t0) / 1000;
  const count = (st: string) => [...verdicts.values()].filter((v) => v.status === st).length;
  return { rules: verdicts.size, proved: count('proved'), refuted: count('refuted'), unknown: count('unknown'), seconds: round(s), rules_per_second: round(verdicts.size / s) };
}

export async function run(): Promise<object> {
  const ours = readRuleFile(OURS, '<bench rules>');
  const tree = process.env.HALIDE_SRC;
  const one = await rate(ours, 1, OURS_BUDGET_MS);
  await shutdownZ3();
  return {
    ours_one_thread: one,
    ours_two_threads: await rate(ours, 2, OURS_BUDGET_MS),
    ours_two_threads_halide_domain_only: await rate(ours, 2, OURS_BUDGET_MS, ['halide']),
    ...(tree ? { halide_checkout_two_threads: { budget_ms: RULE_BUDGET_MS, ...(await rate(readHalideTree(tree).rules, 2, RULE_BUDGET_MS)) } } : {}),
  };
}
