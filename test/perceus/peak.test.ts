// [PEAK-LIVE]: peak live cells checked against the cells the standard semantics can reach at its
// fullest. Garbage-free configurations stay within it; the scoped baseline does not.
import { describe, expect, it } from 'vitest';
import { CONFIGS, SINGLE_PASS_CONFIGS, peakLiveViolation, runConfig } from '../../src/perceus/pipeline.js';
import { loadProgram } from '../../src/perceus/scope.js';
import { evalStandard } from '../../src/perceus/standard.js';
import { benchmarkSource } from '../../src/bench/perceus.bench.js';
import type { Stats } from '../../src/perceus/stats.js';

const LIST = `type list { Nil; Cons(head, tail) }
fun range(lo, hi) = if lo > hi then Nil else Cons(lo, range(lo + 1, hi))
fun len(xs) {
  match xs {
    Cons(x, xx) -> 1 + len(xx)
    Nil -> 0
  }
}
`;

const peakOf = (src: string) => {
  const r = evalStandard(loadProgram(src, 'p.lam'), 1_000_000, undefined, true);
  return r.kind === 'value' ? r.peakReachable : undefined;
};

describe('[PEAK-LIVE] peak live cells', () => {
  it('the standard semantics counts the distinct cells a state reaches, shared values once', () => {
    // A list of 5 is built, then consumed: at most its 5 cells are reachable at once.
    expect(peakOf(LIST + 'fun main() = len(range(1, 5))')).toBe(5);
    // The same list bound once and named twice is one set of cells.
    expect(peakOf(LIST + 'fun main() { val xs = range(1, 4); val p = Cons(xs, xs); len(p) }')).toBe(5);
    // A closed constructor in a body is a new cell at every call, as on the heap.
    expect(peakOf(LIST + 'fun one() = Cons(1, Nil)\nfun main() { val a = one(); val b = one(); len(Cons(a, Cons(b, Nil))) }')).toBe(4);
    // A closure is a cell once it is evaluated.
    expect(peakOf(LIST + 'fun main() { val f = \\x -> x + 1; f(1) }')).toBe(1);
  });

  it('garbage-free configurations stay within it on the benchmarks; the scoped baseline exceeds it', () => {
    for (const [b, n] of [['map', 20], ['tmap', 30], ['rbtree', 25], ['deriv', 3], ['cfold', 5]] as const) {
      const core = loadProgram(benchmarkSource(b, n), `${b}.lam`);
      const ref = evalStandard(core, 10_000_000, undefined, true);
      expect(ref.kind).toBe('value');
      const peak = (ref as { peakReachable: number }).peakReachable;
      const stats: Record<string, Stats> = Object.fromEntries([...CONFIGS, ...SINGLE_PASS_CONFIGS].map((c) => [c.name, runConfig(core, c).result.stats]));
      expect(peakLiveViolation(stats, peak), b).toBeUndefined();
      expect(stats['perceus']!.peakLive, b).toBeLessThanOrEqual(peak);
      expect(stats['scoped']!.peakLive, b).toBeGreaterThan(peak);
    }
  });

  it('names the first configuration that holds more cells than the standard semantics reaches', () => {
    const core = loadProgram(LIST + 'fun main() = len(range(1, 5))', 'p.lam');
    const stats: Record<string, Stats> = Object.fromEntries(CONFIGS.map((c) => [c.name, runConfig(core, c).result.stats]));
    expect(peakLiveViolation(stats, 5)).toBeUndefined();
    expect(peakLiveViolation({ ...stats, '+dropspec': { ...stats['+dropspec']!, peakLive: 6 } }, 5)).toEqual({ config: '+dropspec', message: 'peak live cells 6 exceed the 5 cells the standard semantics ever reaches' });
    // Reserved reuse cells have no counterpart in the standard semantics: reuse is exempt.
    expect(peakLiveViolation({ ...stats, '+reuse': { ...stats['+reuse']!, peakLive: 6 } }, 5)).toBeUndefined();
  });
});
