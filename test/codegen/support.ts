// Shared helpers for the codegen tests: parsing target programs from text and building inputs.
import { widestHostIsa } from '../../src/codegen/cpu.js';
import type { Isa } from '../../src/codegen/c-syntax.js';
import { type BackendVerdict, validateBatch } from '../../src/codegen/validate.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { input, tgt } from '../support/tgt.js';

export { input, tgt } from '../support/tgt.js';

/** One output func `f` over x, computing `value` at each point of the window. */
export function pointwise(value: string, params: readonly string[] = []): TgtProgram {
  return tgt(`pipeline f(${params.join(', ')}; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for f.s0.x in (x.min, x.len) do f[f.s0.x] <- ${value}
}`);
}

/**
 * The widest instruction set this CPU runs: tests that execute vector binaries use it, so the
 * suite passes on machines without AVX-512 (emitted text can still be inspected for any ISA).
 */
export const HOST_ISA: Isa = widestHostIsa();

/** Verdicts that are failures, or that compared nothing. */
export const bad = (vs: BackendVerdict[][]) => vs.flat().filter((v) => !v.ok || v.kind === 'inconclusive');

/** Every SIMD mode this CPU runs and the scalar build, checked and unchecked, on each window. */
export async function agreeEverywhere(t: TgtProgram, inputs: ReturnType<typeof input>[]): Promise<BackendVerdict[][]> {
  const modes = ['none', HOST_ISA, 'generic'] as const;
  const out: BackendVerdict[][] = [];
  for (const checked of [true, false]) {
    out.push(...(await validateBatch(modes.map((simd) => ({ t, inputs, emit: { simd } })), { backend: 'simd', checked })));
  }
  return out;
}
