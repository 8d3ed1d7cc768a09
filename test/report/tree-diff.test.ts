// What a directive changes in the loop nest ([REPORT-TREE-DIFF]): each kind of change on the
// directive that makes it, checked on the changes' kinds and nodes (no snapshot of text), the
// directive named in a diff of two schedules, and that a diff accounts for every node.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { lower } from '../../src/lowering/lower.js';
import { algorithm, schedule } from '../../src/pipeline.js';
import { loopTree, type LoopTree, treeNodes } from '../../src/report/loop-tree.js';
import { attribute, diffTrees, stepChanges, type TreeChange } from '../../src/report/tree-diff.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import { readSchedule } from '../../src/schedule/halide-style.js';
import type { DirectiveCall } from '../../src/schedule/plugin.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { randomSchedule } from '../proofs/gen.js';
import { example } from '../support/files.js';

/** T0 and the program after each directive of `text`, with the calls. */
function steps(alg: string, text: string, file = 'test.sched'): { t0: TgtProgram; seen: { call: DirectiveCall; t: TgtProgram }[] } {
  const p = algorithm({ file: alg, text: example(alg) });
  const t0 = lower(p);
  const seen: { call: DirectiveCall; t: TgtProgram }[] = [];
  schedule(t0, readSchedule(text, file, () => t0, builtinRegistry()), p, { onStep: (e) => void (e.step === 'directive' && seen.push({ call: e.call, t: e.t })) });
  return { t0, seen };
}

/** The changes of the last directive of `text`. */
function lastChanges(alg: string, text: string): TreeChange[] {
  const { t0, seen } = steps(alg, text);
  const before = seen.length > 1 ? seen[seen.length - 2]!.t : t0;
  return diffTrees(loopTree(before), loopTree(seen[seen.length - 1]!.t));
}

const shape = (cs: readonly TreeChange[]) => cs.map(({ kind, before, after }) => ({ kind, before, after }));

describe('[REPORT-TREE-DIFF] the changes of one directive', () => {
  it('split: one loop split into its outer and inner loops, nothing else', () => {
    expect(shape(lastChanges('sec22.alg', 'split f.x by 3'))).toEqual([{ kind: 'split', before: ['for f.s0.x'], after: ['for f.s0.xo', 'for f.s0.xi'] }]);
  });

  it('fuse: two loops fused into one', () => {
    expect(shape(lastChanges('blur.alg', 'fuse blur_y.y into yx'))).toEqual([{ kind: 'fused', before: ['for blur_y.s0.y', 'for blur_y.s0.x'], after: ['for blur_y.s0.yx'] }]);
  });

  it('compute-at: the producer\'s label moved into the loop, its loops with it (listed once)', () => {
    const cs = lastChanges('sec22.alg', 'split f.x by 3\ncompute-at g at f.xo');
    expect(shape(cs)).toEqual([{ kind: 'moved', before: ['label g'], after: ['label g'] }]);
    expect(cs[0]!.text).toBe('label g moved: was at the top level, now inside for f.s0.xo');
  });

  it('store-at: the allocation moved', () => {
    expect(shape(lastChanges('sec22.alg', 'split f.x by 3\ncompute-at g at f.xo\nstore-at g at f.xo'))).toEqual([{ kind: 'moved', before: ['allocate g'], after: ['allocate g'] }]);
  });

  it('traverse, vectorize and unroll: the loop changed kind', () => {
    expect(shape(lastChanges('sec22.alg', 'split f.x by 3\ntraverse f.xo parallel'))).toEqual([{ kind: 'kind', before: ['for f.s0.xo'], after: ['for f.s0.xo'] }]);
    expect(lastChanges('sec22.alg', 'split f.x by 4\nvectorize f.xi')[0]!.text).toBe('loop f.s0.xi: serial → vectorized');
    expect(lastChanges('sec22.alg', 'split f.x by 4\nunroll f.xi').map((c) => c.kind)).toEqual(['kind']);
  });

  it('reorder: the loops moved, each to its new place', () => {
    const cs = lastChanges('blur.alg', 'reorder blur_y.x, blur_y.y');
    expect(cs.every((c) => c.kind === 'moved')).toBe(true);
    expect(cs.flatMap((c) => c.after).sort()).toEqual(['for blur_y.s0.x', 'for blur_y.s0.y']);
  });

  it('inline: the producer removed, only its outermost nodes listed', () => {
    expect(shape(lastChanges('sec22.alg', 'inline g'))).toEqual([
      { kind: 'removed', before: ['allocate g'], after: [] },
      { kind: 'removed', before: ['label g'], after: [] },
    ]);
  });

  it('specialize: the copy added; the original stage keeps its identity though a second label of its name comes first', () => {
    const cs = lastChanges('sec22.alg', 'specialize f when x.len > 3');
    expect(shape(cs)).toEqual([{ kind: 'added', before: [], after: ['label f.s0'] }]);
    const t = loopTree(steps('sec22.alg', 'specialize f when x.len > 3').seen[0]!.t);
    expect(treeNodes(t).find((n) => n.key === 'label f.s0')!.children[0]!.name).toBe('f.s0.k1.x');
  });

  it('a bounds directive changes no node: no change', () => {
    expect(lastChanges('sec22.alg', 'bound f.x min 0 len 8')).toEqual([]);
  });
});

describe('[REPORT-TREE-DIFF] two schedules of one algorithm', () => {
  const a = steps('sec22.alg', 'split f.x by 2\ncompute-at g at f.xo', 'a.sched');
  const b = steps('sec22.alg', 'split f.x by 3\ntraverse f.xo parallel', 'b.sched');
  const [sa, sb] = [stepChanges(a.t0, a.seen), stepChanges(b.t0, b.seen)];
  const cs = attribute(diffTrees(loopTree(a.seen.at(-1)!.t), loopTree(b.seen.at(-1)!.t)), sb, sa);
  const of = (kind: string, key: string) => cs.find((c) => c.kind === kind && c.after.includes(key))!;

  it('names the directive of the schedule that made each change', () => {
    expect(of('kind', 'for f.s0.xo').by).toEqual({ directive: '[TRAVERSE] traverse f.xo parallel (b.sched:2:1)', base: false });
    // the split fixed the loops' bounds, though traverse touched the loop after it
    expect(of('bounds', 'for f.s0.xo').by).toEqual({ directive: '[SPLIT] split f.x by 3 (b.sched:1:1)', base: false });
    expect(of('bounds', 'for f.s0.xi').by!.directive).toMatch(/^\[SPLIT\]/);
  });

  it('names the base\'s directive a change undoes', () => {
    expect(of('moved', 'label g').by).toEqual({ directive: '[COMPUTE-AT] compute-at g at f.xo (a.sched:2:1)', base: true });
  });

  it('from a split loop to the unsplit one: the loops joined again, undoing the base\'s split', () => {
    const plain = steps('sec22.alg', 'compute-at g at f.x', 'c.sched');
    const back = attribute(diffTrees(loopTree(a.seen.at(-1)!.t), loopTree(plain.seen.at(-1)!.t)), stepChanges(plain.t0, plain.seen), sa);
    const joined = back.find((c) => c.kind === 'fused')!;
    expect(shape([joined])).toEqual([{ kind: 'fused', before: ['for f.s0.xo', 'for f.s0.xi'], after: ['for f.s0.x'] }]);
    expect(joined.by).toEqual({ directive: '[SPLIT] split f.x by 2 (a.sched:1:1)', base: true });
  });

  it('lists nothing for one schedule against itself', () => {
    const t = loopTree(b.seen.at(-1)!.t);
    expect(diffTrees(t, t)).toEqual([]);
  });
});

/** Every node only one tree has is named by a change, or lies inside a node that is. */
function unaccounted(from: LoopTree, to: LoopTree, cs: readonly TreeChange[], side: 'before' | 'after'): string[] {
  const other = new Set(treeNodes(side === 'after' ? from : to).map((n) => n.key.replace(/#\d+$/, '')));
  const named = new Set(cs.flatMap((c) => c[side]));
  const out: string[] = [];
  const go = (n: { key: string; children: readonly any[] }, covered: boolean) => {
    const here = covered || named.has(n.key);
    if (!here && !other.has(n.key.replace(/#\d+$/, ''))) out.push(n.key);
    n.children.forEach((c) => go(c, here));
  };
  (side === 'after' ? to : from).roots.forEach((n) => go(n, false));
  return out;
}

describe('[REPORT-TREE-DIFF] on generated schedules (property)', () => {
  it('accounts for every node only one tree has, marks only nodes of the trees, and finds no change from a tree to itself', () => {
    const cases = arbPipeline({ maxFuncs: 3, maxDims: 2, maxUpdates: 1, maxRVars: 1, exprDepth: 1 }).chain((p) =>
      fc.record({ p: fc.constant(p), picks: fc.array(fc.record({ d: fc.nat(), seed: fc.nat(0xffffff) }), { minLength: 1, maxLength: 5 }) }));
    let changed = 0;
    fc.assert(
      fc.property(cases, ({ p, picks }) => {
        let prev = loopTree(lower(p));
        randomSchedule(lower(p), picks, (t) => {
          const next = loopTree(t);
          const cs = diffTrees(prev, next);
          if (cs.length > 0) changed++;
          expect(unaccounted(prev, next, cs, 'after')).toEqual([]);
          expect(unaccounted(prev, next, cs, 'before')).toEqual([]);
          const [ka, kb] = [new Set(treeNodes(prev).map((n) => n.key)), new Set(treeNodes(next).map((n) => n.key))];
          for (const c of cs) (c.before.forEach((k) => expect(ka.has(k)).toBe(true)), c.after.forEach((k) => expect(kb.has(k)).toBe(true)));
          expect(diffTrees(next, next)).toEqual([]);
          prev = next;
        });
      }),
      { numRuns: 60, seed: 35 },
    );
    expect(changed).toBeGreaterThan(20);
  });
});
