// implements [C-STORAGE]
// The width of each buffer's payloads (spec/codegen.md). A func whose every stored integer lies,
// by the value ranges of [C-NARROW], between constants inside int32 keeps 32-bit payloads: half the
// memory traffic, and 32-bit lanes load and store without converting. The decision is static —
// one function body serves every input — so it takes only constant ends; the output keeps 64-bit
// payloads because [C-ABI] hands its block to the caller as int64.
import type { Expr } from '../expr/ast.js';
import { constOf } from '../expr/symbolic.js';
import { toBig } from '../expr/value.js';
import { inRange } from '../fpir/types.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import type { FuncRanges } from './ranges.js';

export type PayloadBits = 32 | 64;

/** An interval end that is a constant inside int32 (null, −∞ or +∞, is not). */
export function int32End(e: Expr | null): boolean {
  const v = e === null ? undefined : constOf(e);
  return v !== undefined && inRange(toBig(v), { signed: true, bits: 32 });
}

/** Payload width per func; `all32` is the planted fault that skips the range test. */
export function payloadBits(t: TgtProgram, funcs: Iterable<string>, ranges: FuncRanges, all32 = false): Map<string, PayloadBits> {
  const bits = new Map<string, PayloadBits>();
  for (const f of funcs) {
    const r = ranges.get(f);
    const proved = r !== undefined && int32End(r.lo) && int32End(r.hi);
    bits.set(f, f !== t.output && (proved || all32) ? 32 : 64);
  }
  return bits;
}
