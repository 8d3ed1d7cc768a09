// Small timing helpers shared by the benchmark modules.
import type { BinaryResult } from '../codegen/toolchain.js';

/** Runs `f` repeatedly for at least `minMs` and returns operations per second (ops per call given). */
export function opsPerSecond(f: () => void, opsPerCall: number, minMs = 300): number {
  f(); // warm up
  let calls = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) {
    f();
    calls++;
    t = performance.now();
  }
  return (calls * opsPerCall) / ((t - t0) / 1000);
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export const round = (x: number, digits = 3): number => Number(x.toPrecision(digits));

/**
 * The fastest run of each of `count` compiled programs, in ms (NaN when one did not run ok): the
 * fastest single repetition the driver timed, as Halide's side is timed (the best of its timed
 * realizations), not the mean of a batch of repetitions, which a burst of other load on the
 * machine spoils whole.
 */
export function fastestMs(results: readonly BinaryResult[], count: number): number[] {
  return Array.from({ length: count }, (_, k) =>
    Math.min(...results.filter((r) => r.program === k).map((r) => (r.kind === 'ran' && r.status === 'ok' ? (r.bestNs ?? r.timeNs) / 1e6 : NaN))));
}
