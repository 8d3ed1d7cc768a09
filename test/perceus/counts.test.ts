// The statistics count every reference-counting operation as the work it is, on every path
// (spec/perceus.md, "Checks and statistics"): the counts of one small program are pinned for every
// configuration, so a pass can only lower a count by really performing fewer operations.
import { describe, expect, it } from 'vitest';
import { CONFIGS, SINGLE_PASS_CONFIGS, applicableChecks, runConfig } from '../../src/perceus/pipeline.js';
import { loadProgram } from '../../src/perceus/scope.js';
import { evalStandard } from '../../src/perceus/standard.js';
import { rcOps } from '../../src/perceus/stats.js';

// `t` is shared at the first call of set_black (the shared path runs) and unique at the second
// (the unique path runs); `u` is unique when matched; the cell `l` of the last call is shared.
const SRC = `type color { Red; Black }
type tree { Leaf; Node(color, left, key, right) }

fun set_black(t) {
  match t {
    Node(c, l, k, r) -> Node(Black, l, k, r)
    Leaf -> Leaf
  }
}

fun main() {
  val t = Node(Red, Node(Red, Leaf, 1, Leaf), 2, Leaf);
  val u = set_black(t);
  val w = set_black(t);
  match u {
    Node(c, l, k, r) -> Node(c, set_black(l), k, w)
    Leaf -> w
  }
}
`;

// steps, allocs, frees, reuses, dups, drops, decrefs, uniqueTests, fieldWrites, peakLive
const PINNED: Record<string, readonly number[]> = {
  scoped: [112, 6, 6, 0, 11, 17, 0, 0, 24, 6],
  formal: [68, 6, 6, 0, 4, 10, 0, 0, 24, 4],
  perceus: [60, 6, 6, 0, 4, 10, 0, 0, 24, 4],
  '+dropspec': [52, 6, 6, 0, 4, 6, 2, 4, 24, 4],
  '+fusion': [40, 6, 6, 0, 2, 4, 2, 4, 24, 4],
  '+reuse': [40, 4, 4, 2, 2, 4, 2, 4, 24, 4],
  '+reusespec': [40, 4, 4, 2, 2, 4, 2, 4, 19, 4],
  dropspec: [52, 6, 6, 0, 4, 6, 2, 4, 24, 4],
  fusion: [60, 6, 6, 0, 4, 10, 0, 0, 24, 4],
  reuse: [60, 4, 4, 2, 4, 10, 0, 0, 24, 4],
  'reuse+reusespec': [60, 4, 4, 2, 4, 10, 0, 0, 19, 4],
  'reuse+fusion': [60, 4, 4, 2, 4, 10, 0, 0, 24, 4],
};

describe('[RC-COST] statistics count every operation on every path', () => {
  const core = loadProgram(SRC, 'counts.lam');
  const reference = evalStandard(core);
  const runs = Object.fromEntries([...CONFIGS, ...SINGLE_PASS_CONFIGS].map((c) => [c.name, runConfig(core, c, { checks: applicableChecks(c), reference })]));

  it.each(Object.keys(PINNED))('%s', (name) => {
    const r = runs[name]!;
    expect(r.verdict).toEqual({ ok: true });
    const s = r.result.stats;
    expect([s.steps, s.allocs, s.frees, s.reuses, s.dups, s.drops, s.decrefs, s.uniqueTests, s.fieldWrites, s.peakLive]).toEqual(PINNED[name]);
  });

  it('covers every configuration, including reuse without drop specialization', () => {
    expect(Object.keys(PINNED).sort()).toEqual([...CONFIGS, ...SINGLE_PASS_CONFIGS].map((c) => c.name).sort());
  });

  it('drop specialization trades each generic drop of a matched cell for one is-unique test, never for nothing', () => {
    const plain = runs['perceus']!.result.stats;
    const spec = runs['+dropspec']!.result.stats;
    // Four drops of scrutinees became four tests; two of them took the shared path (a decrement each).
    expect(plain.drops - spec.drops).toBe(spec.uniqueTests);
    expect(spec.frees).toBe(plain.frees);
    expect(rcOps(spec)).toBe(rcOps(plain) + spec.decrefs);
  });

  it('every allocated cell is freed, whichever path frees it', () => {
    for (const r of Object.values(runs)) expect(r.result.stats.frees, r.config.name).toBe(r.result.stats.allocs);
  });
});
