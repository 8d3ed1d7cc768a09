// Properties on hand-written cases: what passes, what fails and with which verdict, and the
// documented decision on error constants (docs/fuzzing.md, "Error constants").
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { evaluate } from '../../src/fuzz/check.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';
import type { CaseText } from '../../src/fuzz/property.js';

const input = (window: [string, string][], params: Record<string, string> = {}) => ({ window, params });

async function verdict(property: string, t: CaseText, fault?: string) {
  const env = await makeEnv({ ...DEFAULT_CONFIG, ...(fault ? { fault } : {}) });
  const p = propertyNamed(property);
  const r = evaluate(p, p.decode(t, env), env);
  return r.status === 'fail' ? r.verdict : r.status;
}

const blur: CaseText = {
  program: 'pipeline g() {\n  func f(x) = x * 2;\n  func g(x) = f(x) + f(x + 1);\n}\n',
  schedule: 'split g.x into xo, xi by 3\ncompute-at f at g.s0.xo\n',
  input: input([['0', '7']]),
};

describe('soundness properties on hand-written cases', () => {
  it('a valid schedule passes every scheduling property', async () => {
    for (const p of ['confluence', 'memory-safety', 'bounds-quality', 'race-free', 'lemmas', 'evaluators-tgt']) {
      expect(await verdict(p, blur), p).toBe('pass');
    }
  });

  it('a reduction loop run in parallel is a data race (zoo plug-in)', async () => {
    const racy: CaseText = {
      program: 'pipeline f() {\n  func f(x) {\n    0;\n    rdom(r = (0, 3)) in (0) <- f(0) + r;\n  }\n}\n',
      schedule: 'parallel-any-loop f.s1.r\n',
      input: input([['0', '1']]),
    };
    expect(await verdict('race-free', racy, 'parallel-reduction')).toBe('data-race');
    expect(await verdict('confluence', racy, 'parallel-reduction')).toBe('unsafe-data-race');
  });

  it('an allocation moved away from its accesses breaks lemma 2.5', async () => {
    const moved: CaseText = { ...blur, schedule: 'split g.x into xo, xi by 3\nstore-at-any f at g.s0.xo\n' };
    expect(await verdict('lemmas', moved, 'store-at-dominance')).toBe('lemma-2.5');
  });

  it('an off-by-one interval rule for + leaves the window uncomputed or out of bounds', async () => {
    const shifted: CaseText = { program: 'pipeline g() {\n  func f(x) = x;\n  func g(x) = f(x + 1);\n}\n', schedule: '', input: input([['0', '4']]) };
    expect(await verdict('memory-safety', shifted, 'interval-add-off-by-one')).toMatch(/^oob-(read|write)$/);
    expect(await verdict('memory-safety', shifted)).toBe('pass');
  });
});

describe('error constants (decision)', () => {
  it('a stuck run on an error value the algorithm writes literally is excused', async () => {
    const t: CaseText = { program: 'pipeline f() {\n  func f(x) {\n    0;\n    (err.rdom) <- 1;\n  }\n}\n', schedule: '', input: input([['0', '2']]) };
    expect(await verdict('memory-safety', t)).toBe('pass');
    expect(await verdict('confluence', t)).toBe('pass');
  });
});

describe('evaluator agreement and round trips', () => {
  it('pass on an ordinary algorithm with parameters and an rdom', async () => {
    const t: CaseText = {
      program: 'pipeline h(n) {\n  func h(x, y) {\n    x + y;\n    rdom(r = (0, n)) in (x, y) <- h(x, y) * 2 + r if r < x;\n  }\n}\n',
      input: input([['0', '3'], ['-1', '2']], { n: '3' }),
    };
    expect(await verdict('evaluators-alg', t)).toBe('pass');
    expect(await verdict('roundtrip', t)).toBe('pass');
  });
});
