// The fast executor agrees with the small-step machine (fig. 2.8) on generated completed programs,
// stuck ones included: same outcome, same buffers, same step counts, same races.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbTgtInput, arbTgtProgram } from '../../src/fuzz/arbitraries/tgt.js';
import { compileTgt, execTgt } from '../../src/target-semantics/exec.js';
import { runMachine } from '../../src/target-semantics/machine.js';
import type { Outcome } from '../../src/target-semantics/outcome.js';
import { E_MEM, type Int, int } from '../../src/expr/value.js';
import { example, input, tgt } from './support.js';

const kindOf = (o: Outcome) => (o.kind === 'done' ? 'done' : o.stuck.kind);

describe('fast executor ≡ small-step machine', () => {
  it('returns equal outcomes on generated programs', () => {
    fc.assert(
      fc.property(arbTgtProgram(), arbTgtInput, fc.integer(), fc.integer({ min: 0, max: 3000 }), (p, z, seed, maxSteps) => {
        expect(execTgt(p, z, { seed, maxSteps })).toEqual(runMachine(p, z, { seed, maxSteps }));
      }),
      { numRuns: 400 },
    );
  });

  it('the generator reaches every outcome kind', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(arbTgtProgram(), arbTgtInput, (p, z) => {
        seen.add(kindOf(execTgt(p, z, { maxSteps: 100_000 })));
      }),
      { numRuns: 1500, seed: 7 },
    );
    expect([...seen].sort()).toEqual(
      ['assert-failed', 'data-race', 'done', 'error-in-control', 'oob-read', 'oob-write', 'rdom-failure', 'unallocated'].sort(),
    );
  });

  it('agrees on the examples, and a compiled program runs many inputs', () => {
    const c = compileTgt(example('blur.tgt'));
    for (const w of [[0, 3], [-2, 4], [5, 1]] as [number, number][]) {
      const z = input([w, [1, 2]]);
      expect(c.run(z, { seed: 1 })).toEqual(runMachine(c.program, z, { seed: 1 }));
    }
    const s = example('stencil.tgt');
    const z = input([[-1, 5]], { k: 3 });
    expect(execTgt(s, z, { seed: 9 })).toEqual(runMachine(s, z, { seed: 9 }));
  });
});

describe('exact integers beyond 2^53', () => {
  it('loops, allocations and indices crossing the safe range stay exact and agree', () => {
    const p = tgt(
      'pipeline f(; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); for parallel i in (x.min, x.len) do f[i] <- i * i - i }',
    );
    const base = 2n ** 53n - 2n;
    const z = { window: [[int(base), int(4)]] as [Int, Int][], params: new Map<string, Int>() };
    const o = execTgt(p, z, { seed: 2 });
    expect(o).toEqual(runMachine(p, z, { seed: 2 }));
    const want = [0n, 1n, 2n, 3n].map((d) => int((base + d) * (base + d) - (base + d)));
    expect(o).toMatchObject({ kind: 'done', output: { dims: [{ min: int(base), len: 4 }], data: want } });
  });
});

describe('generated functions shared between programs', () => {
  it('programs differing only in wide constants share one function and keep their own values', () => {
    const prog = (k: bigint) => tgt(`pipeline f(; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); for f.s0.x in (x.min, x.len) do f[f.s0.x] <- f.s0.x + ${k} }`);
    const [a, b] = [compileTgt(prog(2n ** 60n)), compileTgt(prog(2n ** 61n + 7n))];
    expect(a.source).toBe(b.source);
    const z = input([[-1, 3]]);
    for (const c of [a, b]) expect(c.run(z)).toEqual(runMachine(c.program, z));
    const first = (c: typeof a) => { const o = c.run(z); return o.kind === 'done' ? o.output.data[0] : undefined; };
    expect(first(a)).toEqual(int(2n ** 60n - 1n));
    expect(first(b)).toEqual(int(2n ** 61n + 6n));
  });
});

describe('sums and errors the fast executor computes on its own paths', () => {
  const z = input([[0, 4]]);
  const run = (body: string, extra = '') => {
    const p = tgt(`pipeline f(; x in (x.min, x.len)): { ${extra}allocate f(x in (x.min, x.len)); for i in (x.min, x.len) do f[i] <- ${body} }`);
    const o = execTgt(p, z, { seed: 1 });
    expect(o).toEqual(runMachine(p, z, { seed: 1 }));
    return o.kind === 'done' ? o.output.data : o;
  };

  it('a sum of two safe integers past 2^53 stays exact', () => {
    const safe = 2n ** 53n - 1n;
    expect(run(`i + ${safe}`)).toEqual([0n, 1n, 2n, 3n].map((d) => int(safe + d)));
  });

  it('the negation of an error value is that error value (def. 2.6)', () => {
    // g is allocated but never written: every read of it is ε_mem.
    expect(run('!(g[i])', 'allocate g(x in (x.min, x.len)); ')).toEqual([E_MEM, E_MEM, E_MEM, E_MEM]);
  });
});
