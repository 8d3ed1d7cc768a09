// The backend property's cases: the codegen profile with the vector template (split an innermost
// loop by a constant, vectorize the inner loop), one instruction set per case, and reproducers
// that carry the instruction set and replay without this module's generators.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostIsas, runnableIsa } from '../../src/codegen/cpu.js';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { applyVectorTemplate, arbVectorB } from '../../src/fuzz/gen/vector-template.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';
import { emptyStats } from '../../src/fuzz/stats.js';
import { finalProgram } from '../../src/fuzz/properties/sched-case.js';
import { lower } from '../../src/lowering/lower.js';
import { loopsOf } from '../../src/target-semantics/walk.js';
import { constValue } from '../../src/schedule/loops.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import type { AppliedCall } from '../../src/fuzz/gen/driver.js';
import { completedTarget } from '../../src/codegen/hook.js';
import { validateBatch } from '../../src/codegen/validate.js';
import { parseSchedule } from '../../src/schedule/parse.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { input } from '../support/tgt.js';

const blur = loadPipeline(readFileSync(join(__dirname, '..', '..', 'examples', 'blur.alg'), 'utf8'), 'blur.alg');

const env = await makeEnv({ ...DEFAULT_CONFIG, backend: 'simd' });
const prop = propertyNamed('backend');

describe('vector template', () => {
  const p = loadPipeline('pipeline g(n) {\n  func f(x, y) = x * y + n;\n  func g(x, y) = f(x, y) + f(x + 1, y);\n}\n', 'v.alg');

  it('splits an innermost loop by a constant and vectorizes the inner loop', () => {
    for (const b of fc.sample(arbVectorB, { numRuns: 100, seed: 2 })) {
      if (b === null) continue;
      let t = lower(p);
      const calls: AppliedCall[] = [];
      applyVectorTemplate(t, b, (call) => {
        calls.push(call);
        t = env.schedule!.step(t, call, calls.slice(0, -1));
        return t;
      });
      expect(calls.map((c) => c.name)).toEqual(['split', 'vectorize']);
      const vec = loopsOf(t).filter((l) => l.stmt.trav === 'vectorize');
      expect(vec).toHaveLength(1);
      expect(constValue(vec[0]!.stmt.len)).toBe(constValue((calls[0]!.args as { factor: never }).factor));
      expect(loopsOf({ ...t, body: vec[0]!.stmt.body })).toEqual([]);
    }
  });

  it('stops when the split is rejected', () => {
    const t = lower(p);
    const tried: string[] = [];
    applyVectorTemplate(t, { loop: 0, factor: 0, tail: 0 }, (call) => {
      tried.push(call.name);
      return undefined;
    });
    expect(tried).toEqual(['split']);
  });
});

describe('backend property cases', () => {
  const cases = fc.sample(prop.arbitrary(env), { numRuns: 150, seed: 5 }).map((g) => prop.concretize(g, env));

  it('mostly vectorize, with each instruction set and with factors leaving tails', () => {
    const vec = cases.filter((c) => c.names.includes('vectorize'));
    expect(vec.length).toBeGreaterThan(cases.length / 2);
    expect(new Set(cases.map((c) => c.isa))).toEqual(new Set(['avx512', 'avx2', 'generic']));
    const lens = vec.flatMap((c) => loopsOf(finalProgram(c)).filter((l) => l.stmt.trav === 'vectorize').map((l) => Number(constValue(l.stmt.len))));
    expect(lens.some((n) => n % 4 !== 0 && n > 4)).toBe(true);
    expect(lens.some((n) => n >= 8 && n % 8 === 0)).toBe(true);
  });

  it('are counted by --stats: instruction sets, vector loops with and without tails, wide constants', () => {
    const stats = emptyStats();
    for (const c of cases) prop.observe!(c, stats);
    for (const k of ['vector code for avx512', 'vector code for avx2', 'vector code for generic', 'vectorized loop with a tail', 'vectorized loop of whole vectors', 'constant beyond 32 bits']) {
      expect(stats.constructs[k] ?? 0, k).toBeGreaterThan(0);
    }
  });

  it('replay from their text, instruction set included', () => {
    for (const c of cases.slice(0, 30)) {
      const again = prop.decode(JSON.parse(JSON.stringify(prop.encode(c))), env);
      expect(again.isa).toBe(c.isa);
      expect(again.scheduleText).toBe(c.scheduleText);
      expect(prop.shape(again)).toBe(prop.shape(c));
    }
  });
});

describe('host instruction sets', () => {
  it('are the ones whose vector code runs here: each compiles, runs and agrees with the reference', async () => {
    expect(hostIsas().has('generic')).toBe(true);
    const t = completedTarget({ program: blur, schedule: parseSchedule('split blur_y.x by 8\nvectorize blur_y.xi\n', 's.sched'), inputs: [] });
    const isas = [...hostIsas()];
    const vs = await validateBatch(isas.map((simd) => ({ t, inputs: [input([[-2, 19], [0, 3]])], emit: { simd } })), { backend: 'simd' });
    expect(vs.map((v) => v[0]!.kind)).toEqual(isas.map(() => 'equal'));
    for (const isa of ['avx512', 'avx2'] as const) expect(runnableIsa(isa)).toBe(hostIsas().has(isa) ? isa : 'generic');
  }, 120_000);
});
