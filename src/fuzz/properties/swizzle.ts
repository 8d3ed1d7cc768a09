// `refsem fuzz --property swizzle-prune`: the viability tests of swizzle synthesis never reject a
// state some completion turns into a solution — the pruned search finds exactly the solutions of
// exhaustive search on small random sketches — and every solution meets its goal under the
// evaluator (spec/swizzle.md, 'SWZ-PRUNE-SOUND').
import fc from 'fast-check';
import { evaluate, goalMismatch } from '../../swizzle/eval.js';
import { randomSketch } from '../../swizzle/gen.js';
import { parseSwizzle } from '../../swizzle/parse.js';
import { synthesize } from '../../swizzle/synth.js';
import { seededRng } from '../../rng.js';
import type { Property } from '../property.js';

interface SwzCase {
  readonly text: string;
}

export const swizzlePrune: Property<number, SwzCase> = {
  name: 'swizzle-prune',
  summary: 'pair-reachability and copy-count pruning keep every solution exhaustive search finds, and each solution meets its goal (Swizzleflow §3–4)',
  arbitrary: () => fc.noShrink(fc.integer({ min: 0, max: 2 ** 31 - 1 })),
  concretize: (seed) => ({ text: randomSketch(seededRng(seed)) }),
  check(c, env) {
    const p = parseSwizzle(c.text, 'case');
    const pruned = synthesize(p, { all: true, ...(env.swizzleFault ? { fault: env.swizzleFault } : {}) });
    const full = synthesize(p, { all: true, prune: { pairs: false, copies: false } });
    const key = (f: readonly number[]): string => f.join(',');
    const kept = new Set(pruned.solutions.map(key));
    const lost = full.solutions.find((f) => !kept.has(key(f)));
    if (lost) return { status: 'fail', verdict: 'unsound-prune', expected: `solution [${key(lost)}] kept (exhaustive search finds ${full.solutions.length})`, actual: `pruned search found ${pruned.solutions.length}: ${pruned.solutions.map((f) => `[${key(f)}]`).join(' ')}` };
    const wrong = pruned.solutions.find((f) => goalMismatch(p, evaluate(p, f)) >= 0);
    if (wrong) return { status: 'fail', verdict: 'wrong-value', expected: 'every solution meets the goal', actual: `solution [${key(wrong)}] does not` };
    if (full.solutions.length === 0) return { status: 'fail', verdict: 'no-solution', expected: 'the generating filling as a solution', actual: 'exhaustive search found none' };
    return { status: 'pass' };
  },
  encode: (c) => ({ extra: { sketch: c.text } }),
  decode: (t) => ({ text: t.extra?.sketch ?? '' }),
  shape: (c) => c.text.split('\n').map((l) => l.replace(/=.*?\(/, '= (').replace(/[0-9]+/g, 'k')).join(';'),
};
