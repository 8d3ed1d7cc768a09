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
