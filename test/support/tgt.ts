// Target programs and inputs written inline in tests.
import type { Input } from '../../src/alg-semantics/ast.js';
import { type Int, int } from '../../src/expr/value.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { parseTgt } from '../../src/target-semantics/parse.js';

export const tgt = (text: string, file = 'test.tgt'): TgtProgram => parseTgt(text, file);

/** An input: one (min, len) per output dimension, and parameters as numbers or exact integers. */
export function input(window: readonly (readonly [Int, Int])[], params: Record<string, Int | number> = {}): Input {
  return {
    window: window.map(([m, l]) => [int(m), int(l)] as [Int, Int]),
    params: new Map(Object.entries(params).map(([k, v]) => [k, int(v)])),
  };
}
