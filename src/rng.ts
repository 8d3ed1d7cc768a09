// Seeded random choices, for whatever must be random and reproducible: the order of a parallel
// loop's iterations (both executors draw the same one), and the arguments a directive's
// `generate` proposes to the fuzzers. The stream depends only on the seed.

/** A source of uniform choices. */
export interface Rng {
  /** A uniform integer in [0, n); 0 when n ≤ 0. */
  below(n: number): number;
}

/** mulberry32: a small generator with a 32-bit state. */
export function seededRng(seed: number): Rng {
  let s = seed >>> 0;
  return {
    below(n: number): number {
      if (n <= 0) return 0;
      s = (s + 0x6d2b79f5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      return Math.floor(u * n);
    },
  };
}
