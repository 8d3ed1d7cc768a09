// Runs selected FPIR code on this CPU against the interpreter (spec/fpir.md, [FPIR-RUN]): the
// emitted functions of one or more expressions are compiled into one small program that reads
// each input's lanes from a file and writes each result's; every lane is compared with
// evalVector. The `fpir` fuzz property, the Sobel benchmark and the zoo use it; Neon code runs
// under qemu-aarch64.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FExpr } from '../fpir/ast.js';
import { evalVector } from '../fpir/eval.js';
import { PRELUDE, type EmitFaults, type EmittedFunction, cScalar, emitFunction } from '../fpir/emit-program.js';
import type { Selected } from '../fpir/select.js';
import type { Target } from '../fpir/intrinsics.js';
import { NEON_PACKAGES, neonToolchain } from './fpir-harness.js';
import { compileStandalone, type ToolchainOptions } from './toolchain.js';

export interface RunOutcome {
  readonly status: 'agree' | 'differ' | 'failed';
  readonly detail?: string;
  /** nanoseconds per call over all lanes, when timed */
  readonly ns?: number;
}

const width = (t: { bits: number }) => Math.max(1, t.bits / 8);

function toBytes(vs: readonly bigint[], bits: number): Buffer {
  const w = bits / 8;
  const b = Buffer.alloc(vs.length * w);
  vs.forEach((v, i) => {
    const u = BigInt.asUintN(bits, v);
    for (let k = 0; k < w; k++) b[i * w + k] = Number((u >> BigInt(8 * k)) & 0xffn);
  });
  return b;
}

function fromBytes(b: Buffer, t: { signed: boolean; bits: number }): bigint[] {
  const w = width(t);
  const out: bigint[] = [];
  for (let i = 0; i + w <= b.length; i += w) {
    let u = 0n;
    for (let k = w - 1; k >= 0; k--) u = (u << 8n) | BigInt(b[i + k]!);
    out.push(t.signed ? BigInt.asIntN(t.bits === 1 ? 8 : t.bits, u) : u);
  }
  return out;
}

/** One expression of a run: its selected code for `target` and its input lanes. */
export interface RunItem {
  readonly expr: FExpr;
  readonly sel: Selected;
  readonly target: Target;
  readonly env: ReadonlyMap<string, readonly bigint[]>;
  /** C to run instead of the selection's (the plain C baseline of fpir-bench) */
  readonly fn?: EmittedFunction;
}

/** What every run includes: one text per instruction set, so that it is precompiled once ([C-PCH]). */
const header = (intrinsics: string) => [PRELUDE, `#include <${intrinsics}>`, '#include <stdio.h>', '#include <stdlib.h>', '#include <time.h>', ''].join('\n');

// implements [FPIR-RUN]
/**
 * Every item's selected code on its lanes (a multiple of its target's lanes), `repeat` times, in
 * one program: compiling dominates a run, so a batch pays for the compiler (and for parsing the
 * intrinsics header) once. One outcome per item, in order.
 */
export async function runSelectedAll(items: readonly RunItem[], opts: ToolchainOptions & { faults?: EmitFaults; repeat?: number } = {}): Promise<RunOutcome[]> {
  const fns = items.map((it, j) => (it.fn ? { ...it.fn, text: it.fn.text.replace(/static void \w+\(/, `static void rs_fpir${j}(`) } : emitFunction(it.sel, it.target, `rs_fpir${j}`, opts.faults)))
    // Not inlined: each timed call runs the kernel, not a loop the compiler fused across calls.
    .map((fn) => ({ ...fn, text: `__attribute__((noinline)) ${fn.text}` }));
  const lanesOf = (j: number) => items[j]!.env.get(fns[j]!.inputs[0]?.name ?? '')?.length ?? fns[j]!.lanes;
  const reps = opts.repeat ?? 1;
  const call = (j: number): string[] => {
    const fn = fns[j]!;
    const n = lanesOf(j);
    const outBytes = n * width(items[j]!.expr.type);
    return [
      '  {',
      ...fn.inputs.map((v, k) => `    ${cScalar(v.type)} *in${k} = malloc(${n * width(v.type)}); if (fread(in${k}, 1, ${n * width(v.type)}, f) != ${n * width(v.type)}) return 2;`),
      `    ${cScalar(items[j]!.expr.type)} *out = malloc(${outBytes});`,
      '    clock_gettime(CLOCK_MONOTONIC, &t0);',
      // The barrier keeps the compiler from dropping repeated calls whose result it can see is unused.
      `    for (int r = 0; r < ${reps}; r++) { rs_fpir${j}(${[...fn.inputs.map((_, k) => `in${k}`), 'out', String(n)].join(', ')}); __asm__ __volatile__("" ::: "memory"); }`,
      '    clock_gettime(CLOCK_MONOTONIC, &t1);',
      `    printf("%lld\\n", (long long)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec)) / ${reps});`,
      `    if (fwrite(out, 1, ${outBytes}, g) != ${outBytes}) return 2;`,
      '  }',
    ];
  };
  const src = [
    ...fns.map((fn) => fn.text),
    'int main(int argc, char **argv) {',
    '  FILE *f = fopen(argv[1], "rb");',
    '  FILE *g = fopen(argv[2], "wb");',
    '  if (!f || !g) return 2;',
    '  struct timespec t0, t1;',
    ...items.flatMap((_, j) => call(j)),
    '  fclose(f);',
    '  return fclose(g) == 0 ? 0 : 2;',
    '}',
    '',
  ].join('\n');
  // Neon code is cross-compiled ($AARCH64_CC, $AARCH64_CFLAGS, static) and run under qemu-aarch64, as the table's Neon entries are ([FPIR-TABLE-CPU]).
  const neon = items.some((it) => it.target === 'neon');
  if (neon && !items.every((it) => it.target === 'neon')) throw new Error('one run holds Neon code or x86 code, not both');
  const cross = neon ? neonToolchain(opts.env) : undefined;
  if (neon && !cross) return items.map(() => ({ status: 'failed', detail: `needs ${NEON_PACKAGES.join(' and ')} (scripts/system-deps.sh)` }));
  const env = cross ? { ...(opts.env ?? process.env), CC: cross.cc, CFLAGS: `${(opts.env ?? process.env).AARCH64_CFLAGS ?? '-O1'} -static` } : opts.env;
  const bin = await compileStandalone(src, { ...opts, ...(env ? { env } : {}) }, header(neon ? 'arm_neon.h' : 'immintrin.h'));
  if ('error' in bin) return items.map(() => ({ status: 'failed', detail: bin.error }));
  try {
    writeFileSync(join(bin.dir, 'in.bin'), Buffer.concat(fns.flatMap((fn, j) => fn.inputs.map((v) => toBytes(items[j]!.env.get(v.name)!, v.type.bits)))));
    const args = [join(bin.dir, 'in.bin'), join(bin.dir, 'out.bin')];
    const r = cross ? spawnSync(cross.qemu, [bin.bin, ...args], { encoding: 'utf8' }) : spawnSync(bin.bin, args, { encoding: 'utf8' });
    if (r.status !== 0) return items.map(() => ({ status: 'failed', detail: `${r.signal ?? `exit ${r.status}`} ${r.stderr}` }));
    const out = readFileSync(join(bin.dir, 'out.bin'));
    const ns = r.stdout.trim().split('\n').map(Number);
    let at = 0;
    return items.map((it, j): RunOutcome => {
      const t = it.expr.type.bits === 1 ? { signed: false, bits: 8 } : it.expr.type;
      const bytes = lanesOf(j) * width(it.expr.type);
      const got = fromBytes(out.subarray(at, (at += bytes)), t);
      const want = evalVector(it.expr, it.env, fns[j]!.inputs);
      const i = want.findIndex((w, k) => w !== got[k]);
      if (i < 0) return { status: 'agree', ns: ns[j]! };
      const lane = fns[j]!.inputs.map((v) => `${v.name}=${it.env.get(v.name)![i]}`).join(' ');
      return { status: 'differ', detail: `lane ${i}, ${lane}: the interpreter gives ${want[i]}, the CPU ${got[i]}`, ns: ns[j]! };
    });
  } finally {
    bin.done();
  }
}

/** The selected code of `e` on `env`'s lanes (a multiple of the target's lanes), `repeat` times. */
export async function runSelected(e: FExpr, sel: Selected, target: Target, env: ReadonlyMap<string, readonly bigint[]>, opts: ToolchainOptions & { faults?: EmitFaults; repeat?: number } = {}): Promise<RunOutcome> {
  return (await runSelectedAll([{ expr: e, sel, target, env }], opts))[0]!;
}
