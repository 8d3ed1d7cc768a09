// [HR-DOMAIN] [HR-VERDICT] [HR-ORDER] [HR-SUBSUME]: rules written for the test in Halide's syntax,
// proved, refuted with a counterexample that refsem's operators replay, or found vacuous; the
// reduction order per rule; rules an earlier one covers.
import { describe, expect, it, afterAll } from 'vitest';
import { shutdownZ3 } from '../../../src/expr/smt.js';
import { evalH } from '../../../src/simplify/halide/eval.js';
import { checkOrder, subsumedBy } from '../../../src/simplify/halide/order.js';
import { readRuleFile } from '../../../src/simplify/halide/parse.js';
import { verifyHalideRule } from '../../../src/simplify/halide/verify.js';
import { modelled } from '../../support/halide-rules.js';

afterAll(() => shutdownZ3());


describe('verdicts in the halide domain [HR-VERDICT]', () => {
  it("refutes the seed's two incorrect rules with division, each counterexample replayed", async () => {
    for (const text of [
      'rewrite(((x + c0) / c1) * c1 - x, x % c1, c1 > 0 && c0 + 1 == c1)',
      'rewrite(x - ((x + c0) / c1) * c1, 0 - (x % c1), c1 > 0 && c0 + 1 == c1)',
    ]) {
      const rule = modelled(text);
      const v = await verifyHalideRule(rule);
      expect(v.status).toBe('refuted');
      if (v.status !== 'refuted') continue;
      // Replay the printed counterexample with refsem's operators.
      const scalars = new Map(v.counterexample.split(', ').map((kv) => kv.split(' = ') as [string, string]).map(([k, x]) => [k, BigInt(x)] as const));
      const p = { scalars, wildcard: (n: string) => scalars.get(n)! };
      expect(evalH(rule.pred!, p)).toBe(1n);
      expect(`${evalH(rule.lhs, p)}`).toBe(v.lhs);
      expect(`${evalH(rule.rhs, p)}`).toBe(v.rhs);
      expect(v.lhs).not.toBe(v.rhs);
    }
  });

  it('proves a scalar rule, a boolean rule and a vector rule at a symbolic lane', async () => {
    for (const text of ['rewrite((x + c0) + c1, x + fold(c0 + c1))', 'rewrite(x && neg(x), false)', 'rewrite(ramp(x, y, c0) + broadcast(z, c0), ramp(x + z, y, c0))']) {
      expect((await verifyHalideRule(modelled(text))).status, text).toBe('proved');
    }
  });

  it('division by zero is zero: x / x is refuted at x = 0, and a predicate that never holds is vacuous', async () => {
    const v = await verifyHalideRule(modelled('rewrite(x / x, 1)'));
    expect(v).toMatchObject({ status: 'refuted', counterexample: 'x = 0', lhs: '0', rhs: '1' });
    expect((await verifyHalideRule(modelled('rewrite(x + c0, x, c0 > 0 && c0 < 0)'))).status).toBe('vacuous');
  });

  it('a vector rule whose lanes do not line up is refuted with its lanes', async () => {
    const v = await verifyHalideRule(modelled('rewrite(ramp(x, y, c0) + broadcast(z, c0), ramp(x + z, y + z, c0))'));
    expect(v.status).toBe('refuted');
    expect(v.status === 'refuted' && v.counterexample).toMatch(/^L = \d+, lane = \d+/);
  });
});

describe('the order and subsumption [HR-ORDER] [HR-SUBSUME]', () => {
  it('a commutation violates the order with both measures; a rule whose only decrease is a computed constant is told apart', () => {
    const swap = modelled('rewrite(x + y, y + x)');
    expect(checkOrder(swap.lhs, swap.rhs)).toMatchObject({ status: 'violation', lhs: '{+:1} root +', rhs: '{+:1} root +' });
    const merged = modelled('rewrite(max(x, c0) + c1, max(x + c1, fold(c0 + c1)))');
    expect(checkOrder(merged.lhs, merged.rhs)).toMatchObject({ status: 'constants', lhs: '{+:1 max/min:1} root +', rhs: '{+:1 max/min:1} root max/min' });
    const dec = modelled('rewrite((x + c0) + c1, x + fold(c0 + c1))');
    expect(checkOrder(dec.lhs, dec.rhs).status).toBe('decreases');
  });

  it('an earlier, more general rule of the same visitor subsumes a later one', () => {
    const rules = readRuleFile(['rewrite(x * c0 + y, z, c0 > 0)', 'rewrite((x - w) * 3 + y, z, 3 > 0 && w == 1)', 'rewrite(x * 3 + y, z)'].join('\n'), 't');
    expect(subsumedBy(rules.slice(0, 1), rules[1]!)?.line).toBe(1);
    expect(subsumedBy(rules.slice(0, 1), rules[2]!)).toBeUndefined();
  });
});
