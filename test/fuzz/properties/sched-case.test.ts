// A campaign counts the schedules Halide users write that the thesis' rules refused (spec/halide.md):
// the race-free and confluence campaigns must be seen to meet them, not assumed to.
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../src/fuzz/check.js';
import { DEFAULT_CONFIG } from '../../../src/fuzz/env.js';
import { makeEnv } from '../../../src/fuzz/make-env.js';
import { propertyNamed } from '../../../src/fuzz/properties/index.js';
import { emptyStats } from '../../../src/fuzz/stats.js';

const env = await makeEnv(DEFAULT_CONFIG);
const prop = propertyNamed('race-free');
const decode = (program: string, schedule: string, len = 8) => prop.decode({ program, input: { window: [['0', String(len)]], params: {} }, schedule }, env);

describe("a campaign's counts of Halide users' shapes", () => {
  it('a parallel loop over a shift split, compute-at into one stage, a bound on a dimension only an earlier stage loops over', () => {
    const stats = emptyStats();
    const pipeline = 'pipeline g() {\n  func f(x) = x;\n  func g(x, y) {\n    x + y;\n    rdom(r = (0, 2)) in (0, y) <- g(0, y) + f(r);\n  }\n}\n';
    const c = prop.decode({ program: pipeline, input: { window: [['0', '4'], ['0', '3']], params: {} }, schedule: 'compute-at f at g.s1.y\nbound g.x min 0 len 4\n' }, env);
    prop.observe!(c, stats);
    expect(stats.constructs['compute-at into one stage of a func with several']).toBe(1);
    expect(stats.constructs["bound on a dimension the func's final stage does not loop over"]).toBe(1);
    expect(stats.constructs['parallel loop over a split with tail shift or round']).toBeUndefined();
    const par = decode('pipeline f() {\n  func f(x) = x * 2;\n}\n', 'split f.s0.x into xo, xi by 3 tail shift\ntraverse f.s0.xo parallel\n');
    prop.observe!(par, stats);
    expect(stats.constructs['parallel loop over a split with tail shift or round']).toBe(1);
  });

  it('race-free counts a run whose parallel iterations wrote one point with one value ([PAR-OVERLAP]) apart, as a pass', () => {
    const schedule = 'split f.s0.x into xo, xi by 3 tail shift\ntraverse f.s0.xo parallel\n';
    const meets = evaluate(prop, decode('pipeline f() {\n  func f(x) = x * 2;\n}\n', schedule), env);
    expect(meets).toMatchObject({ status: 'pass', tally: 'overlapping writes of one value [PAR-OVERLAP]' });
    // 6 points split by 3: the tails do not meet
    expect(evaluate(prop, decode('pipeline f() {\n  func f(x) = x * 2;\n}\n', schedule, 6), env)).not.toHaveProperty('tally');
  });
});
