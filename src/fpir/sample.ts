// Inputs for checking an equivalence (spec/fpir.md, [FPIR-DOMAIN]): every combination when the
// operands are few and narrow (all pairs of 8-bit values: 65 536 rows), otherwise a seeded sample
// biased toward the values where fixed-point code goes wrong: the type's ends, zero, ±1 and the
// powers of two on either side of every bit (Pitchfork §4.3 generalizes around the same edges).
import type { Rng } from '../rng.js';
import { type ScalarType, inRange, tmax, tmin } from './types.js';

/** The most rows enumerated exhaustively. */
const EXHAUSTIVE_LIMIT = 1 << 16;

export function boundaryValues(t: ScalarType): bigint[] {
  const out = new Set<bigint>([tmin(t), tmin(t) + 1n, 0n, 1n, tmax(t) - 1n, tmax(t)]);
  if (t.signed) out.add(-1n);
  for (let k = 1; k < t.bits; k++) {
    const p = 1n << BigInt(k);
    for (const v of [p, p - 1n, p + 1n, -p, -p + 1n, -p - 1n]) if (inRange(v, t)) out.add(v);
  }
  return [...out];
}

/** A uniform value of `t`. */
function uniform(t: ScalarType, rng: Rng): bigint {
  let v = 0n;
  for (let k = 0; k < t.bits; k += 16) v = (v << 16n) | BigInt(rng.below(1 << 16));
  return t.signed ? BigInt.asIntN(t.bits, v) : BigInt.asUintN(t.bits, v);
}

export function sampleValue(t: ScalarType, rng: Rng, edges: readonly bigint[]): bigint {
  return rng.below(2) === 0 ? edges[rng.below(edges.length)]! : uniform(t, rng);
}

export interface Domain {
  /** every combination was enumerated (the check is a proof by exhaustion) */
  readonly exhaustive: boolean;
  readonly rows: readonly (readonly bigint[])[];
}

// implements [FPIR-DOMAIN]
/** Rows of operand values for `types`: all combinations when at most `limit`, else `samples`. */
export function domainOf(types: readonly ScalarType[], samples: number, rng: Rng, limit = EXHAUSTIVE_LIMIT): Domain {
  const size = types.reduce((s, t) => s * 2 ** t.bits, 1);
  if (size <= limit) {
    let rows: bigint[][] = [[]];
    for (const t of types) {
      const next: bigint[][] = [];
      for (const r of rows) for (let v = tmin(t); v <= tmax(t); v++) next.push([...r, v]);
      rows = next;
    }
    return { exhaustive: true, rows };
  }
  const edges = types.map(boundaryValues);
  const rows: bigint[][] = [];
  // Every pair of edge values first (for up to two operands), then random rows.
  if (types.length <= 2) {
    const [e0 = [0n], e1 = [0n]] = edges;
    for (const x of e0) for (const y of e1) if (rows.length < samples / 2) rows.push(types.length === 1 ? [x] : [x, y]);
  }
  while (rows.length < samples) rows.push(types.map((t, i) => sampleValue(t, rng, edges[i]!)));
  return { exhaustive: false, rows };
}
