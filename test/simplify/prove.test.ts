// Proving rules with Z3 [SIMP-PROVE]: every built-in rule is proved in its domain; the incorrect
// rules the TRS paper reports (its table of incorrect rules, restated in this notation) are refuted, and
// so are the two rules planted in the zoo, with counterexamples that replay; a timeout is reported
// as unknown, never as a proof.
import { afterAll, describe, expect, it } from 'vitest';
import { shutdownZ3 } from '../../src/expr/smt.js';
import { FAULTS } from '../../src/fuzz/zoo/faults.js';
import { BUILTIN_RULES } from '../../src/simplify/builtin-rules.js';
import { parseRules } from '../../src/simplify/parse-rules.js';
import { proveRule, proveRules } from '../../src/simplify/prove-z3.js';

afterAll(async () => {
  await shutdownZ3();
});

/** The TRS paper's four incorrect rules (its §3.1, table of incorrect rules). */
const PAPER_INCORRECT = `
integers paper-1: ((x + c0) / c1) * c1 - x -> x % c1 if c1 > 0 && c0 + 1 == c1;
integers paper-2: x - ((x + c0) / c1) * c1 -> 0 - x % c1 if c1 > 0 && c0 + 1 == c1;
integers paper-3: min(x, c0) < min(x, c1) + c2 -> 0 if c0 >= c1 + c2;
integers paper-4: max(x, c0) < max(x, c1) + c2 -> 0 if c0 >= c1 + c2;
`;

describe('verify-rules', () => {
  it('proves every built-in rule in its domain', async () => {
    const reports = await proveRules(BUILTIN_RULES, 20_000);
    expect(reports.filter((r) => r.verdict.status !== 'proved').map((r) => `${r.name}: ${JSON.stringify(r.verdict)}`)).toEqual([]);
  }, 90_000);

  it("refutes the TRS paper's incorrect rules", async () => {
    const reports = await proveRules(parseRules(PAPER_INCORRECT, 'paper.rules'));
    expect(reports.map((r) => r.verdict.status)).toEqual(['refuted', 'refuted', 'refuted', 'refuted']);
  }, 60_000);

  it('refutes the zoo rule wrong on error values with an error value, and the one wrong for a zero divisor with y = 0', async () => {
    const [errors, zero] = FAULTS.filter((f) => f.rules).map((f) => parseRules(f.rules!, f.name)[0]!);
    const a = await proveRule(errors!);
    expect(a.status).toBe('refuted');
    expect(a.status === 'refuted' && a.counterexample.x).toBe('err:rdom');
    const b = await proveRule(zero!);
    expect(b.status === 'refuted' && b.counterexample.y).toBe(0);
    // The same rule claimed for every value is still wrong; claimed with y ≠ 0 ruled out it is not.
    const [guarded] = parseRules('integers g: (x * c0) / c0 -> x if c0 != 0;', 'g.rules');
    expect((await proveRule(guarded!)).status).toBe('proved');
  }, 60_000);

  it('reports a timeout as unknown', async () => {
    const [hard] = parseRules('values mod-add-multiple: (x + c0) % c1 -> x % c1 if c0 % c1 == 0;', 'hard.rules');
    const v = await proveRule(hard!, 200);
    expect(v.status).toBe('unknown');
    expect(v.status === 'unknown' && v.reason).toContain('unknown');
  }, 60_000);
});
