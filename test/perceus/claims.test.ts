// The qualitative claims of §4.2.4–4.2.6 and §4.4 as tests on the benchmark programs, and every
// benchmark under every configuration with every applicable check at a small size.
import { describe, expect, it } from 'vitest';
import { benchmarkSource } from '../../src/bench/perceus.bench.js';
import { CONFIGS, SINGLE_PASS_CONFIGS, applicableChecks, runConfig } from '../../src/perceus/pipeline.js';
import { loadProgram } from '../../src/perceus/scope.js';
import { evalStandard } from '../../src/perceus/standard.js';
import type { Stats } from '../../src/perceus/stats.js';

const stats = (bench: string, n: number): Record<string, Stats> => {
  const core = loadProgram(benchmarkSource(bench, n), `${bench}.lam`);
  return Object.fromEntries(CONFIGS.map((c) => [c.name, runConfig(core, c).result.stats]));
};

describe('FBIP claims', () => {
  it('a unique red-black tree is rebalanced in place: one fresh node per insert', () => {
    for (const n of [50, 300]) {
      const s = stats('rbtree', n);
      expect(s['+reuse']!.allocs).toBe(n);
      expect(s['+reusespec']!.allocs).toBe(n);
      expect(s['perceus']!.allocs).toBeGreaterThan(3 * n);
      // Reuse specialization writes fewer fields for the same cells.
      expect(s['+reusespec']!.fieldWrites).toBeLessThan(s['+reuse']!.fieldWrites);
    }
  });

  it('the visitor traversal (fig. 4.3) of a unique tree allocates nothing beyond the tree and the closure', () => {
    for (const n of [40, 255]) {
      const s = stats('tmap', n);
      expect(s['+reuse']!.allocs).toBe(n + 1);
      expect(s['perceus']!.allocs).toBeGreaterThan(2 * n);
    }
  });

  it('rbtree-ck copies only shared spines', () => {
    const n = 300;
    const s = stats('rbtree-ck', n);
    const depth = 2 * Math.ceil(Math.log2(n + 1)) + 1;
    const snapshots = Math.floor(n / 5);
    // Each insert right after a snapshot copies at most one root-to-leaf path; the others are in place.
    expect(s['+reuse']!.allocs).toBeLessThanOrEqual(n + snapshots * (depth + 1) + 1);
    expect(s['+reuse']!.allocs).toBeGreaterThan(n + snapshots);
    expect(s['+reuse']!.allocs).toBeLessThan(s['perceus']!.allocs / 2);
  });

  it("Perceus' peak live cells never exceed the scoped baseline's", () => {
    const sizes: Record<string, number> = { rbtree: 100, 'rbtree-ck': 100, deriv: 4, nqueens: 5, cfold: 7, map: 100, tmap: 100 };
    for (const [b, n] of Object.entries(sizes)) {
      const s = stats(b, n);
      for (const c of CONFIGS) if (!c.scoped) expect(s[c.name]!.peakLive, `${b} ${c.name}`).toBeLessThanOrEqual(s['scoped']!.peakLive);
      expect(s['perceus']!.peakLive, b).toBeLessThan(s['scoped']!.peakLive);
    }
  });
});

describe('honest counts on the benchmarks', () => {
  const sizes: Record<string, number> = { rbtree: 60, 'rbtree-ck': 60, deriv: 4, nqueens: 5, cfold: 6, tmap: 60 };
  it.each(Object.entries(sizes))('%s: drop specialization alone trades each drop it replaces for one is-unique test', (b, n) => {
    const s = stats(b, n);
    expect(s['perceus']!.drops - s['+dropspec']!.drops).toBe(s['+dropspec']!.uniqueTests);
    expect(s['+dropspec']!.dups).toBe(s['perceus']!.dups);
    expect(s['+dropspec']!.frees).toBe(s['perceus']!.frees);
  });

  it("cfold in Koka's evaluation order folds a unique tree: with reuse only the tree and one Add per reassociation step are allocated", () => {
    for (const n of [4, 6]) {
      const s = stats('cfold', n);
      const tree = 2 ** (n + 1) - 1;
      expect(s['+reuse']!.allocs).toBe(tree + 2 ** n - 1);
      expect(s['+reuse']!.peakLive).toBe(tree);
      expect(s['perceus']!.allocs).toBeGreaterThan(2 * s['+reuse']!.allocs);
    }
  });
});

describe('benchmarks under every configuration (each pass alone included) with every applicable check', () => {
  const sizes: Record<string, number> = { rbtree: 25, 'rbtree-ck': 25, deriv: 3, nqueens: 4, cfold: 5, map: 20, tmap: 30 };
  it.each(Object.entries(sizes))('%s', (b, n) => {
    const core = loadProgram(benchmarkSource(b, n), `${b}.lam`);
    const reference = evalStandard(core);
    expect(reference.kind).toBe('value');
    for (const c of [...CONFIGS, ...SINGLE_PASS_CONFIGS]) {
      const r = runConfig(core, c, { checks: applicableChecks(c), reference });
      expect(r.verdict, `${b} ${c.name}`).toEqual({ ok: true });
    }
  });
});
