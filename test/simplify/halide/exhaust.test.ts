// [HR-EXHAUST] [HR-BUDGET]: 8-bit rules with at most two values decided by evaluating every
// assignment (no solver); a solver call bounded by work, so that a budget too small for a proof
// gives the same unknown every time.
import { afterAll, describe, expect, it } from 'vitest';
import { shutdownZ3 } from '../../../src/expr/smt.js';
import { exhaust } from '../../../src/simplify/halide/exhaust.js';
import { verifyHalideRule } from '../../../src/simplify/halide/verify.js';
import { modelled } from '../../support/halide-rules.js';

afterAll(() => shutdownZ3());


describe('exhaustive 8-bit verdicts [HR-EXHAUST]', () => {
  it('proves a product rule in uint8 and int8 by evaluating every pair', () => {
    const r = modelled('rewrite(x*y - y*x, 0)');
    expect(exhaust(r, 'uint8')).toEqual({ status: 'proved' });
    expect(exhaust(r, 'int8')).toEqual({ status: 'proved' });
  });

  it('refutes a rule that wraps, with the smallest counterexample', () => {
    const v = exhaust(modelled('rewrite((x*y)/y, x, y != 0)'), 'uint8');
    expect(v).toEqual({ status: 'refuted', counterexample: 'x = 2, y = 128', lhs: '0', rhs: '2' });
  });

  it('finds a rule whose predicate never holds vacuous', () => {
    expect(exhaust(modelled('rewrite(x + c0, x, c0 > 255)'), 'uint8')).toEqual({ status: 'vacuous' });
  });

  it('leaves wider types, the domain halide and rules with three values to the solver', () => {
    const r = modelled('rewrite(x*y - y*x, 0)');
    expect(exhaust(r, 'uint16')).toBeUndefined();
    expect(exhaust(r, 'halide')).toBeUndefined();
    expect(exhaust(modelled('rewrite(x*y*z, z*y*x)'), 'uint8')).toBeUndefined();
  });

  it('gives a boolean wildcard only 0 and 1, as the encoding does (x = 2 refuted `x && true`)', () => {
    for (const text of ['rewrite(x && true, x)', 'rewrite(x || x && y, x)', 'rewrite(!!x, x)']) expect(exhaust(modelled(text), 'uint8'), text).toEqual({ status: 'proved' });
  });

  it('chooses is_const(a, v) true only where a is v', () => {
    expect(exhaust(modelled('rewrite(x + y, x, is_const(y, 0))'), 'uint8')).toEqual({ status: 'proved' });
  });

  it('reports the attack in the verdict', async () => {
    const v = await verifyHalideRule(modelled('rewrite(x*y - y*x, 0)'), { domain: 'int8' });
    expect(v).toMatchObject({ status: 'proved', by: 'exhaustive' });
  });
});

describe('solver calls bounded by work [HR-BUDGET]', () => {
  it('gives up the same way on every run when the budget is too small', async () => {
    const r = modelled('rewrite((x*y)/z*z + (x*y)%z, x*y)');
    const runs = [await verifyHalideRule(r, { domain: 'uint16', timeoutMs: 1 }), await verifyHalideRule(r, { domain: 'uint16', timeoutMs: 1 })];
    for (const v of runs) expect(v).toMatchObject({ status: 'unknown', reason: 'Z3 gave up in uint16' });
  });
});
