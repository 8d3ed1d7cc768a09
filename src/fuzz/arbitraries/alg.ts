// The public arbitraries of the algorithm language (§2.4): valid algorithms (defs. 2.7–2.10 hold
// by construction) and inputs for them (def. 2.1). They are the campaigns' own generators — a
// blueprint drawn by fast-check and decoded (gen/pipeline.ts, gen/app.ts) — so tests and campaigns
// draw from the same distributions, and shrinking stays within valid algorithms.
import type fc from 'fast-check';
import type { Input, Pipeline } from '../../alg-semantics/ast.js';
import { arbAlgorithmB, decodeAlgorithm } from '../gen/algorithm.js';
import { DEFAULT_GEN, type GenOptions, type InputOptions, arbInputB, decodeInput } from '../gen/pipeline.js';

/** Generation options layered over the campaigns' defaults (DEFAULT_GEN). */
export type AlgGenOptions = Partial<GenOptions>;

export function arbPipeline(opts: AlgGenOptions = {}): fc.Arbitrary<Pipeline> {
  const o: GenOptions = { ...DEFAULT_GEN, ...opts };
  return arbAlgorithmB(o).map((b) => decodeAlgorithm(b, o));
}

/** An input for `p`: a window per output dimension and a value per parameter. */
export function arbInput(p: Pipeline, opts: InputOptions = {}): fc.Arbitrary<Input> {
  return arbInputB(opts).map((b) => decodeInput(b, p));
}
