// The campaign hook: (program, schedule, inputs) → verdicts, for algorithms scheduled with
// vectorize and completed by a bounds engine, and its translation into a property's check result.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { parseSchedule } from '../../src/schedule/parse.js';
import { checkBackendBatch, completedTarget, verdictsToCheck } from '../../src/codegen/hook.js';
import { holesOf } from '../../src/target-semantics/holes.js';
import { input } from './support.js';

const blur = loadPipeline(readFileSync(join(__dirname, '..', '..', 'examples', 'blur.alg'), 'utf8'), 'blur.alg');
const sched = parseSchedule('split blur_y.x by 8\nvectorize blur_y.xi\nsplit blur_x.x by 4 tail round\nvectorize blur_x.xi\n', 'blur.sched');
const inputs = [input([[0, 20], [0, 5]]), input([[-3, 13], [2, 3]]), input([[4, 1], [0, 1]])];

describe('checkBackend', () => {
  it('schedules, completes, compiles and judges every input', async () => {
    const t = completedTarget({ program: blur, schedule: sched, inputs });
    expect(holesOf(t)).toEqual([]);
    const [vs] = await checkBackendBatch([{ program: blur, schedule: sched, inputs }], { backend: 'simd' });
    const [faulty] = await checkBackendBatch([{ program: blur, schedule: sched, inputs }], { backend: 'simd', faults: { laneOrder: true } });
    expect(vs!.map((v) => v.kind)).toEqual(['equal', 'equal', 'equal']);
    expect(verdictsToCheck(vs!)).toEqual({ status: 'pass' });
    const r = verdictsToCheck(faulty!);
    expect(r).toMatchObject({ status: 'fail', verdict: 'backend-differs' });
  });
});
