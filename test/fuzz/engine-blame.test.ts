// Regressions of three blind spots. A fault of a bounds engine under test was blamed on the first
// built-in directive after which it showed (`memory-safety/directive:split`), and every later
// failure of the engine folded into that key; now a case that passes with the built-in engine is
// the engine's. A fuse that drops a split's tail guard between two reduction loops adds update
// steps that leave final values unchanged here: the write count shows them.
import { describe, expect, it } from 'vitest';
import { ENGINE_CULPRIT, culpritEngine, dedupKey, evaluate } from '../../src/fuzz/check.js';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';
import type { CaseText } from '../../src/fuzz/property.js';

const window = (len: number): CaseText['input'] => ({ window: [['0', String(len)]], params: {} });

async function judged(fault: string, property: string, c: CaseText) {
  const env = await makeEnv({ ...DEFAULT_CONFIG, fault });
  const prop = propertyNamed(property);
  const made = prop.decode(c, env);
  const r = evaluate(prop, made, env);
  const culprit = culpritEngine(prop, made, env);
  return { verdict: r.status === 'fail' ? r.verdict : r.status, culprit, key: r.status === 'fail' ? dedupKey(prop, made, culprit, r) : undefined };
}

describe('blame on the engine under test', () => {
  it('an engine that bounds a select by its then-branch misses a mirrored index, and is blamed', async () => {
    // Halide's mirror_image at the lower edge: the index is a select, and for x ≥ 0 its else-branch.
    const program = 'pipeline g() {\n  func f(x) = x * 3;\n  func g(x) = f(max(0, min(select(x < 0, -1 - x, x), 5)));\n}\n';
    const r = await judged('select-then-only', 'memory-safety', { program, input: window(4), schedule: 'split g.x into xo, xi by 2\n' });
    expect(r.verdict).toBe('oob-read');
    expect(r.culprit).toBe(`${ENGINE_CULPRIT}select-then-only`);
    expect(r.key).toBe('memory-safety/engine:select-then-only');
  });

  it('an engine whose min starts at the larger lower end is blamed, not the split that exposed it', async () => {
    const program = 'pipeline g() {\n  func f(x) = x * 3;\n  func g(x) = f(min(x, 3));\n}\n';
    const r = await judged('min-as-intersection', 'memory-safety', { program, input: window(6), schedule: 'split g.x into xo, xi by 2\n' });
    expect(r.verdict).not.toBe('pass');
    expect(r.culprit).toBe(`${ENGINE_CULPRIT}min-as-intersection`);
  });

  it('the built-in engine is never blamed', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    const prop = propertyNamed('memory-safety');
    const made = prop.decode({ program: 'pipeline g() {\n  func g(x) = x;\n}\n', input: window(2), schedule: '' }, env);
    expect(culpritEngine(prop, made, env)).toBeUndefined();
  });
});

describe('reduction writes', () => {
  // max over (r, s): extra update steps past the rdom's end leave the final value as it is.
  const program = 'pipeline f() {\n  func f(x) {\n    0;\n    rdom(r = (0, 2), s = (0, 3)) in (x) <- max(f(x), r - s);\n  }\n}\n';
  const ragged = 'split f.s1.s into so, si by 2 tail guard\n';

  it('a fuse that drops the tail guard of a ragged split adds writes that the count catches', async () => {
    const c = { program, input: window(2), schedule: `${ragged}fuse-drops-guard f.s1.si into sir\n` };
    expect((await judged('fuse-drops-tail-guard', 'confluence', c)).verdict).toBe('pass');
    expect((await judged('fuse-drops-tail-guard', 'write-order', c)).verdict).toBe('write-count');
  });

  it('the built-in fuse keeps the guard and the count', async () => {
    const c = { program, input: window(2), schedule: `${ragged}fuse f.s1.si into sir\n` };
    expect((await judged('fuse-drops-tail-guard', 'write-order', c)).verdict).toBe('pass');
  });
});
