// Example tests for the code generation rules no other test names: the entry point's ABI, the
// expression form, 32-bit vector lanes guarded by their range proof, and batching (spec/codegen.md).
import { describe, expect, it } from 'vitest';
import { emitPipeline } from '../../src/codegen/emit-c.js';
import { batchSource } from '../../src/codegen/toolchain.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { runCli } from '../support/cli.js';
import { example, examplesDir } from '../support/files.js';

const ex = (name: string) => `${examplesDir}/${name}`;

describe('emitted code', () => {
  it('[C-ABI]: the entry reads the window as (min, len) per output dimension, in order', async () => {
    const r = await runCli(['codegen', ex('blur.alg'), '--schedule', ex('blur.sched'), '--simd', 'none']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/void refsem_blur__y\w*\(const int64_t \*params, const int64_t \*window, refsem_result \*res\)/);
    const reads = [...r.stdout.matchAll(/const int64_t v_(\w+) = window\[(\d)\];/g)].map((m) => `${m[1]}=${m[2]}`);
    expect(reads.slice(0, 4)).toEqual(['x_dmin=0', 'x_dlen=1', 'y_dmin=2', 'y_dlen=3']);
    expect(r.stdout).toContain('[C-ABI]');
  });

  it('[C-EXPR]: every operation is its own single-assignment temporary', async () => {
    const r = await runCli(['codegen', ex('sec22.alg'), '--simd', 'none']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[C-EXPR]');
    // g(x) = x * x: one checked multiplication into a fresh temporary, then the store
    expect(r.stdout).toMatch(/const int64_t (t\d+) = rs_mul\(v_g_ds0_dx, v_g_ds0_dx\);/);
  });

  it('[C-NARROW]: vector loops choose 32-bit lanes only behind a range check evaluated at run time', async () => {
    const r = await runCli(['codegen', ex('blur.alg'), '--schedule', ex('blur.sched'), '--simd', 'avx2']);
    expect(r.code).toBe(0);
    // decided once at the entry of the outer loop: every lane value's range is checked to fit …
    const hoisted = /\/\* \[C-NARROW-HOIST\] for (\S+), decided once here \*\/\n\s*int (bad\d+) = 0;\n(?:\s*const rs_q q\d+ = [^\n]*;\n)*\s*const int (n32\d+) = rs_q_fits32\(.*!\2;/.exec(r.stdout);
    expect(hoisted).not.toBeNull();
    // … and the vector loop takes the narrow lanes only if all fit (or, failing that, its own proof holds)
    const flag = new RegExp(`int (n32\\d+) = ${hoisted![3]};`).exec(r.stdout)?.[1] ?? hoisted![3];
    const use = new RegExp(`if \\(${flag}\\) \\{\\n\\s*/\\* C-VECTOR: avx2, 4 lanes of int32`).exec(r.stdout);
    expect(use).not.toBeNull();
  });

  it('[C-NARROW]: a loop with a constant end outside int32 gets only 64-bit chunks', () => {
    const wide = parseTgt(`pipeline out(; x in (x.min, x.len)):
{
  allocate out(x in (x.min, x.len));
  for vectorize out.s0.x in (x.min, x.len) do out[out.s0.x] <- out.s0.x % 4 * 1099511627776
}`, 'narrow-wide.tgt');
    const c = emitPipeline(wide, { simd: 'avx2' }).text;
    expect(c).toContain('lanes of int64');
    expect(c).not.toContain('lanes of int32');
    expect(c).not.toContain('rs_q_fits32');
  });
});

describe('[C-BATCH] batching', () => {
  it('one translation unit holds every pipeline under its own symbol, and a driver table lists them in order', () => {
    const a = emitPipeline(parseTgt(example('stencil.tgt'), 'stencil.tgt'), { simd: 'none' });
    const b = emitPipeline(parseTgt(example('blur.tgt'), 'blur.tgt'), { simd: 'none' });
    expect(a.name).not.toBe(b.name);
    const src = batchSource([a, b]);
    expect(src.startsWith('/* [C-BATCH]')).toBe(true);
    expect(src).toContain(a.text);
    expect(src).toContain(b.text);
    expect(src).toContain(`static const rs_entry rs_entries[] = {${a.name}, ${b.name}};`);
    expect(src).toMatch(/int main\(/);
  });
});
