// [C-BATCH] (spec/codegen.md): the driver times repeated runs of a program both ways, the fastest
// single repetition and the mean of all of them, and the bench takes the fastest.
import { describe, expect, it } from 'vitest';
import { compileAndRun } from '../../src/codegen/toolchain.js';
import { fastestMs } from '../../src/bench/timing.js';
import { input, pointwise } from './support.js';

describe('[C-BATCH] repeated runs', () => {
  it('reports the fastest repetition, never slower than the mean, and the bench reads it', async () => {
    const t = pointwise('f.s0.x * 3 + 1');
    const res = await compileAndRun([{ t, inputs: [input([[0, 4096]])], emit: { simd: 'none' } }], { repeat: 5, jobs: 1 });
    const r = res[0]!;
    expect(r.kind).toBe('ran');
    if (r.kind !== 'ran') return;
    expect(r.status).toBe('ok');
    expect(r.bestNs).toBeGreaterThan(0);
    expect(r.bestNs!).toBeLessThanOrEqual(r.timeNs);
    expect(fastestMs(res, 1)).toEqual([r.bestNs! / 1e6]);
  });
});

describe('[C-BATCH] the emitted C of a batch', () => {
  it('is handed to the caller once per program, as compiled (validate reads its variant markers there)', async () => {
    const seen: [number, string][] = [];
    const progs = [pointwise('f.s0.x + 1'), pointwise('f.s0.x * 2')];
    const res = await compileAndRun(progs.map((t) => ({ t, inputs: [input([[0, 3]])], emit: { simd: 'none' as const } })), { jobs: 1, onEmitted: (k, p) => seen.push([k, p.text]) });
    expect(res.map((r) => r.kind)).toEqual(['ran', 'ran']);
    expect(seen.map(([k]) => k).sort()).toEqual([0, 1]);
    expect(seen.find(([k]) => k === 1)![1]).toContain('void refsem_f__1(');
    expect(seen.find(([k]) => k === 1)![1]).toContain('RS_RAN(0); /* f.s0.x proved */');
  });
});
