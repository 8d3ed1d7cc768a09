// Shared helpers for the codegen tests: parsing target programs from text and building inputs.
import type { Input } from '../../src/alg-semantics/ast.js';
import type { Int } from '../../src/expr/value.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';

export const tgt = (text: string, file = 'test.tgt'): TgtProgram => parseTgt(text, file);

export function input(window: readonly (readonly [number, number])[], params: Record<string, Int | number> = {}): Input {
  return {
    window: window.map(([m, l]) => [m, l] as [Int, Int]),
    params: new Map(Object.entries(params).map(([k, v]) => [k, typeof v === 'number' ? v : v])),
  };
}

/** One output func `f` over x, computing `value` at each point of the window. */
export function pointwise(value: string, params: readonly string[] = []): TgtProgram {
  return tgt(`pipeline f(${params.join(', ')}; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for f.s0.x in (x.min, x.len) do f[f.s0.x] <- ${value}
}`);
}
