// Which vector code this machine runs (spec/codegen.md, [C-DISPATCH]), known ahead of compiling:
// campaigns compile one instruction set per case instead of all of them with run-time dispatch,
// which halves the compile time of a vectorized case. The emitted dispatcher asks the CPU with
// __builtin_cpu_supports; on Linux /proc/cpuinfo names the same features.
import { readFileSync } from 'node:fs';
import { arch } from 'node:process';
import type { Isa } from './c-syntax.js';
import { AVX512_FEATURES } from './runtime-simd.js';

let cached: ReadonlySet<Isa> | undefined;

/** The instruction sets of the vector code this host can run; the portable one always. */
export function hostIsas(): ReadonlySet<Isa> {
  if (cached) return cached;
  const out = new Set<Isa>(['generic']);
  if (arch === 'x64') {
    let flags: Set<string>;
    try {
      flags = new Set(/^flags\s*:(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim().split(/\s+/) ?? []);
    } catch {
      // Not Linux: only the portable code is known to run.
      flags = new Set();
    }
    if (flags.has('avx2')) out.add('avx2');
    if (AVX512_FEATURES.every((f) => flags.has(f))) out.add('avx512');
  }
  return (cached = out);
}

/** The requested instruction set if this host runs it, else the portable vector code. */
export const runnableIsa = (isa: Isa): Isa => (hostIsas().has(isa) ? isa : 'generic');

/**
 * The widest vector code this host runs. What is compiled here to be run here needs no other copy:
 * behind the dispatcher ([C-DISPATCH]) the others could never run, so they would only cost
 * compile time and go unvalidated.
 */
export const widestHostIsa = (): Isa => (['avx512', 'avx2', 'generic'] as const).find((i) => hostIsas().has(i))!;
