// [HR-WRAP]: the domains a rule's guards admit, and rules checked as bit-vectors that wrap, each
// refutation replayed with refsem's operators reduced into the type.
import { afterAll, describe, expect, it } from 'vitest';
import { shutdownZ3 } from '../../../src/expr/smt.js';
import { wrappingType } from '../../../src/simplify/halide/domain.js';
import { evalH } from '../../../src/simplify/halide/eval.js';
import { domainsOf, modelRule } from '../../../src/simplify/halide/model.js';
import { readRuleFile } from '../../../src/simplify/halide/parse.js';
import { verifyHalideRule, verifyInDomains } from '../../../src/simplify/halide/verify.js';

afterAll(() => shutdownZ3());

const modelled = (text: string) => {
  const m = modelRule(readRuleFile(text, 't')[0]!);
  if (!m.ok) throw new Error(`not modelled: ${m.constructs.join(', ')}`);
  return m.rule;
};

describe('the domains a guard admits [HR-WRAP]', () => {
  it('reads no_overflow, its negation and the type tests', () => {
    expect(domainsOf([])).toEqual(['halide', 'uint8', 'int8', 'uint16', 'int16', 'uint32']);
    expect(domainsOf(['no_overflow(op->type)'])).toEqual(['halide']);
    expect(domainsOf(['no_overflow_int(a.type())'])).toEqual(['halide']);
    expect(domainsOf(['!no_overflow(op->type)'])).toEqual(['uint8', 'int8', 'uint16', 'int16', 'uint32']);
    expect(domainsOf(['ty.is_int()'])).toEqual(['halide', 'int8', 'int16']);
    expect(domainsOf(['!op->type.is_uint()'])).toEqual(['halide', 'int8', 'int16']);
    expect(domainsOf(['op->type.is_bool()'])).toEqual(['halide']);
    expect(domainsOf(['!ty.is_float()'])).toEqual(domainsOf([]));
  });

  it('models a rule for wrapping types only instead of counting it out', () => {
    const [r] = readRuleFile('rewrite((x + c0) * (x + c1), x * (x + fold(c0 + c1)) + fold(c0 * c1))', 't');
    const m = modelRule({ ...r!, guards: ['!no_overflow(op->type)'] });
    expect(m.ok && m.rule.domains).toEqual(['uint8', 'int8', 'uint16', 'int16', 'uint32']);
  });
});

describe('verdicts in the wrapping domains [HR-WRAP]', () => {
  it('refutes a rule true of unbounded integers in uint8, and the counterexample replays in the type only', async () => {
    const rule = modelled('rewrite(x * c0 / c0, x, c0 != 0)');
    expect((await verifyHalideRule(rule)).status).toBe('proved');
    const v = await verifyHalideRule(rule, { domain: 'uint8' });
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    const scalars = new Map(v.counterexample.split(', ').map((kv) => kv.split(' = ') as [string, string]).map(([k, x]) => [k, BigInt(x)] as const));
    const p = { scalars, wildcard: (n: string) => scalars.get(n)! };
    const t = wrappingType('uint8');
    expect([`${evalH(rule.lhs, p, 0n, 1n, t)}`, `${evalH(rule.rhs, p, 0n, 1n, t)}`]).toEqual([v.lhs, v.rhs]);
    // Without the reduction into the type the two sides agree: the refutation is the wrap's.
    expect(evalH(rule.lhs, p)).toBe(evalH(rule.rhs, p));
  });

  it('divides the most negative int8 by −1 with wrapping, and reduces literals on the right', async () => {
    expect((await verifyHalideRule(modelled('rewrite(x / -1, 0 - x)'), { domain: 'int8' })).status).toBe('proved');
    expect((await verifyHalideRule(modelled('rewrite(x - 1, x + 255)'), { domain: 'uint8' })).status).toBe('proved');
    expect((await verifyHalideRule(modelled('rewrite(x - 1, x + 255)'), { domain: 'int8' })).status).toBe('proved');
    expect((await verifyHalideRule(modelled('rewrite(x - 1, x + 255)'), { domain: 'uint16' })).status).toBe('refuted');
  });

  it('a left-hand literal outside the type never matches, and is_max_value holds at the top of the range', async () => {
    const big = modelled('rewrite(x + 200, x - 56)');
    expect((await verifyHalideRule(big, { domain: 'int8' })).status).toBe('vacuous');
    expect((await verifyHalideRule(big, { domain: 'uint8' })).status).toBe('proved');
    const top = modelled('rewrite(max(x, c0), c0, is_max_value(c0))');
    expect((await verifyHalideRule(top)).status).toBe('vacuous');
    expect((await verifyHalideRule(top, { domain: 'uint16' })).status).toBe('proved');
  });

  it('a rule checked in several domains stops at the first refutation and names it', async () => {
    const v = await verifyInDomains(modelled('rewrite(x - 1 < x, true)'), ['halide', 'uint8', 'int8']);
    expect(v).toMatchObject({ status: 'refuted', domain: 'uint8', counterexample: 'x = 0', domains: { halide: 'proved', uint8: 'refuted' } });
    const w = await verifyInDomains(modelled('rewrite(x + 200, x - 56)'), ['int8', 'uint8']);
    expect(w).toMatchObject({ status: 'proved', domains: { int8: 'vacuous', uint8: 'proved' } });
  });
});
