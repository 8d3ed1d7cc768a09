// Runs selected FPIR code on this CPU against the interpreter (spec/fpir.md, [FPIR-RUN]): the
// emitted function is compiled into a small program that reads each input's lanes from a file
// and writes the result's; every lane is compared with evalVector. The `fpir` fuzz property, the
// Sobel benchmark and the zoo use it.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FExpr } from '../fpir/ast.js';
import { evalVector } from '../fpir/eval.js';
import { PRELUDE, type EmitFaults, cScalar, emitFunction } from '../fpir/emit-program.js';
import type { Selected } from '../fpir/select.js';
import type { Target } from '../fpir/intrinsics.js';
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

// implements [FPIR-RUN]
/** The selected code of `e` on `env`'s lanes (a multiple of the target's lanes), `repeat` times. */
export async function runSelected(e: FExpr, sel: Selected, target: Target, env: ReadonlyMap<string, readonly bigint[]>, opts: ToolchainOptions & { faults?: EmitFaults; repeat?: number } = {}): Promise<RunOutcome> {
  const fn = emitFunction(sel, target, 'rs_fpir', opts.faults);
  const n = env.get(fn.inputs[0]?.name ?? '')?.length ?? fn.lanes;
  const reps = opts.repeat ?? 1;
  const src = [
    PRELUDE,
    '#include <immintrin.h>',
    '#include <stdio.h>',
    '#include <stdlib.h>',
    '#include <time.h>',
    fn.text,
    'int main(int argc, char **argv) {',
    '  FILE *f = fopen(argv[1], "rb");',
    '  if (!f) return 2;',
    ...fn.inputs.map((v, k) => `  ${cScalar(v.type)} *in${k} = malloc(${n * width(v.type)}); if (fread(in${k}, 1, ${n * width(v.type)}, f) != ${n * width(v.type)}) return 2;`),
    '  fclose(f);',
    `  ${cScalar(e.type)} *out = malloc(${n * width(e.type)});`,
    '  struct timespec t0, t1;',
    '  clock_gettime(CLOCK_MONOTONIC, &t0);',
    `  for (int r = 0; r < ${reps}; r++) rs_fpir(${[...fn.inputs.map((_, k) => `in${k}`), 'out', String(n)].join(', ')});`,
    '  clock_gettime(CLOCK_MONOTONIC, &t1);',
    `  printf("%lld\\n", (long long)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec)) / ${reps});`,
    '  FILE *g = fopen(argv[2], "wb");',
    `  if (!g || fwrite(out, 1, ${n * width(e.type)}, g) != ${n * width(e.type)}) return 2;`,
    '  fclose(g);',
    '  return 0;',
    '}',
    '',
  ].join('\n');
  const bin = await compileStandalone(src, opts);
  if ('error' in bin) return { status: 'failed', detail: bin.error };
  try {
    writeFileSync(join(bin.dir, 'in.bin'), Buffer.concat(fn.inputs.map((v) => toBytes(env.get(v.name)!, v.type.bits))));
    const r = spawnSync(bin.bin, [join(bin.dir, 'in.bin'), join(bin.dir, 'out.bin')], { encoding: 'utf8' });
    if (r.status !== 0) return { status: 'failed', detail: `${r.signal ?? `exit ${r.status}`} ${r.stderr}` };
    const got = fromBytes(readFileSync(join(bin.dir, 'out.bin')), e.type.bits === 1 ? { signed: false, bits: 8 } : e.type);
    const want = evalVector(e, env, fn.inputs);
    const i = want.findIndex((w, k) => w !== got[k]);
    const ns = Number(r.stdout.trim());
    if (i < 0) return { status: 'agree', ns };
    const at = fn.inputs.map((v) => `${v.name}=${env.get(v.name)![i]}`).join(' ');
    return { status: 'differ', detail: `lane ${i}, ${at}: the interpreter gives ${want[i]}, the CPU ${got[i]}`, ns };
  } finally {
    bin.done();
  }
}
