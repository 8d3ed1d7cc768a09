// What exactness costs: the same arithmetic loop with raw doubles (wrong beyond 2^53), with the
// safe-integer fast path of src/expr/ops.ts, and with bigint throughout.
import { add, div, mod, mul } from '../expr/ops.js';
import type { Int } from '../expr/value.js';
import { opsPerSecond, round } from './timing.js';

export const name = 'expr-exactness';
export const group = 'core';

const N = 100_000;

export async function run(): Promise<object> {
  let sink: unknown = 0;
  const raw = opsPerSecond(() => {
    let acc = 0;
    for (let i = 0; i < N; i++) acc = ((acc + i * 3) % 1000003) + Math.floor(i / 7);
    sink = acc;
  }, N);
  const fast = opsPerSecond(() => {
    let acc: Int = 0;
    for (let i = 0; i < N; i++) acc = add(mod(add(acc, mul(i, 3)), 1000003), div(i, 7));
    sink = acc;
  }, N);
  const big = opsPerSecond(() => {
    let acc = 0n;
    for (let i = 0n; i < BigInt(N); i++) {
      let r = (acc + i * 3n) % 1000003n;
      if (r < 0n) r += 1000003n;
      acc = r + i / 7n;
    }
    sink = acc;
  }, N);
  void sink;
  return {
    unit: 'loop iterations/s (each: 2 adds, 1 mul, 1 mod, 1 div)',
    raw_double: round(raw),
    exact_fast_path: round(fast),
    bigint_throughout: round(big),
    fast_path_slowdown_vs_raw: round(raw / fast),
    bigint_slowdown_vs_fast_path: round(fast / big),
  };
}
