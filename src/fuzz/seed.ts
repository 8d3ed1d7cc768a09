// Deterministic seeds and the partition of a campaign's check indices over shards and worker
// threads. Check k always gets the same seed from the campaign seed, whichever shard or worker
// runs it, so a campaign of N checks finds the same failures with any --jobs and any --shard split.

/** A 32-bit mix of (campaign seed, check index): a splitmix-style finaliser over both halves. */
export function checkSeed(seed: number, index: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 0x632be5ab, 0xc2b2ae35);
  h ^= Math.floor(index / 0x100000000);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) | 0;
}

/** `--shard i/N`: this machine runs the global indices ≡ i (mod N). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

export const NO_SHARD: Shard = { index: 0, count: 1 };

/**
 * The k-th check index (k = 0, 1, …) of worker `job` out of `jobs` inside `shard`: the shard owns
 * the indices ≡ shard.index (mod N); among those, worker j takes every J-th one starting at j.
 */
export function globalIndex(shard: Shard, jobs: number, job: number, k: number): number {
  return shard.index + shard.count * (job + jobs * k);
}

/** How many of the global indices [0, runs) a worker owns. */
export function ownedCount(shard: Shard, jobs: number, job: number, runs: number): number {
  const first = globalIndex(shard, jobs, job, 0);
  if (first >= runs) return 0;
  return Math.floor((runs - 1 - first) / (shard.count * jobs)) + 1;
}
