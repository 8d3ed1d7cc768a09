// One example per rule of fig. 2.8 and per named stuck state, run on both executors.
import { describe, expect, it } from 'vitest';
import type { Input } from '../../src/alg-semantics/ast.js';
import { UserError } from '../../src/diag.js';
import { E_MEM, E_RDOM } from '../../src/expr/value.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { execTgt } from '../../src/target-semantics/exec.js';
import { type RuleId, type StepEvent, decompose, plug, runMachine, showStep, term } from '../../src/target-semantics/machine.js';
import type { Outcome } from '../../src/target-semantics/outcome.js';
import { example, input, tgt } from './support.js';

type Exec = (p: TgtProgram, z: Input, o?: { seed?: number; maxSteps?: number }) => Outcome;
const executors: [string, Exec][] = [
  ['machine', runMachine],
  ['exec', execTgt],
];

const none = input([]);
const prog = (body: string, header = '') => tgt(`pipeline f(${header}): { ${body} }`);

function trace(p: TgtProgram, z: Input = none): StepEvent[] {
  const evs: StepEvent[] = [];
  runMachine(p, z, { onStep: (e) => evs.push(e) });
  return evs;
}

describe('rules of fig. 2.8 (machine trace)', () => {
  const rules = (p: TgtProgram, z?: Input) => trace(p, z).map((e) => e.rule);

  it('[TGT-REALIZE] binds the parameters, then the body runs, then [END] returns the output', () => {
    const evs = trace(prog('allocate f(x in (0, 1)); f[0] <- k', 'k'), input([], { k: 5 }));
    expect(evs[0]).toMatchObject({ rule: 'TGT-REALIZE', result: 'k = 5' });
    expect(evs.at(-1)?.rule).toBe('END');
  });

  it('[TGT-VAR] and [EVAL] evaluate left to right inside [REDUCE] contexts', () => {
    const evs = trace(prog('allocate f(x in (0, 1)); f[0] <- k * 2 + k', 'k'), input([], { k: 3 }));
    const exprSteps = evs.filter((e) => e.rule === 'TGT-VAR' || e.rule === 'EVAL');
    expect(exprSteps.map((e) => `${e.rule} ${e.redex} ${e.result}`)).toEqual([
      'TGT-VAR k 3',
      'EVAL 3 * 2 6',
      'TGT-VAR k 3',
      'EVAL 6 + 3 9',
    ]);
    expect(exprSteps.every((e) => e.reduce)).toBe(true);
    expect(showStep(exprSteps[0]!)).toContain('[REDUCE] [TGT-VAR]  k  ⟶  3');
  });

  it.each<[RuleId, string]>([
    ['NOP', 'nop; allocate f(x in (0, 1))'],
    ['ASSERT-TRUE', 'assert 2; allocate f(x in (0, 1))'],
    ['LET', 'let t = 1 in allocate f(x in (t, 1))'],
    ['LABEL', 'label f: allocate f(x in (0, 1))'],
    ['ALLOC', 'allocate f(x in (0, 1))'],
    ['ASSN', 'allocate f(x in (0, 1)); f[0] <- 1'],
    ['READ', 'allocate f(x in (0, 2)); f[0] <- 1; f[1] <- f[0]'],
    ['IF-T', 'allocate f(x in (0, 1)); if 3 then f[0] <- 1 else nop'],
    ['IF-F', 'allocate f(x in (0, 1)); if 0 then nop else f[0] <- 1'],
    ['FOR-ITER', 'allocate f(x in (0, 2)); for i in (0, 2) do f[i] <- i'],
    ['FOR-STOP', 'allocate f(x in (0, 2)); for i in (0, 0) do f[i] <- i'],
  ])('[%s] fires', (rule, body) => {
    expect(rules(prog(body))).toContain(rule);
  });

  it('[FOR-ITER] runs min, min+1, … and [FOR-STOP] ends the loop', () => {
    const evs = trace(prog('allocate f(x in (3, 3)); for i in (3, 3) do f[i] <- i'));
    expect(evs.filter((e) => e.rule === 'FOR-ITER').map((e) => e.result)).toEqual(['Σ[i = 3]', 'Σ[i = 4]', 'Σ[i = 5]']);
    expect(evs.filter((e) => e.rule === 'FOR-STOP')).toHaveLength(1);
  });
});

describe.each(executors)('outcomes (%s)', (_name, run) => {
  it('returns the output buffer, first dimension fastest', () => {
    const o = run(prog('allocate f(x in (0, 2), y in (0, 2)); for j in (0, 2) do for i in (0, 2) do f[i, j] <- i + 10 * j'), none);
    expect(o).toMatchObject({ kind: 'done', output: { func: 'f', dims: [{ dim: 'x', min: 0, len: 2 }, { dim: 'y', min: 0, len: 2 }], data: [0, 1, 10, 11] } });
  });

  it('reads of allocated, unwritten points give ε_mem; stored error values are fine', () => {
    const o = run(prog('allocate f(x in (0, 3)); f[0] <- f[1]; f[2] <- err.rdom'), none);
    expect(o).toMatchObject({ kind: 'done', output: { data: [E_MEM, E_MEM, E_RDOM] } });
  });

  it('a let may bind an error value; it is stuck only where it is used as control', () => {
    expect(run(prog('allocate f(x in (0, 1)); let e = err.rdom in f[0] <- e'), none).kind).toBe('done');
    expect(run(prog('allocate f(x in (0, 1)); let e = err.rdom in for i in (0, e) do nop'), none)).toMatchObject({
      stuck: { kind: 'error-in-control', what: 'loop extent of i', value: E_RDOM },
    });
  });

  it('def. 2.11: a failing assertion', () => {
    expect(run(prog('assert 1 > 2'), none)).toMatchObject({
      kind: 'stuck',
      stuck: { kind: 'assert-failed', cond: { k: 'op', op: '>' }, site: { stmt: 'assert 1 > 2', loc: { line: 1 } } },
    });
  });

  it('def. 2.12: a loop with negative extent', () => {
    expect(run(prog('for i in (4, 0 - 1) do nop'), none)).toMatchObject({ stuck: { kind: 'rdom-failure', var: 'i', min: 4, len: -1 } });
  });

  it('a negative allocation extent is an rdom failure on the dimension', () => {
    expect(run(prog('allocate f(x in (0, -2))'), none)).toMatchObject({ stuck: { kind: 'rdom-failure', var: 'f.x', min: 0, len: -2 } });
  });

  it('def. 2.13: reads and writes out of bounds, and an error value in an index', () => {
    expect(run(prog('allocate f(x in (0, 2)); f[0] <- f[2]'), none)).toMatchObject({
      stuck: { kind: 'oob-read', func: 'f', point: [2], bounds: [[0, 2]], site: { stmt: 'f[0] <- f[2]' } },
    });
    expect(run(prog('allocate f(x in (0, 2)); f[-1] <- 0'), none)).toMatchObject({ stuck: { kind: 'oob-write', point: [-1] } });
    expect(run(prog('allocate f(x in (0, 2)); f[err.mem] <- 0'), none)).toMatchObject({ stuck: { kind: 'oob-write', point: [E_MEM] } });
  });

  it('error values in control: if and assert conditions, loop and allocation bounds', () => {
    for (const [body, what] of [
      ['if err.rdom then nop', 'if condition'],
      ['assert err.mem', 'assert condition'],
      ['for i in (err.rdom, 2) do nop', 'loop min of i'],
      ['allocate f(x in (0, err.mem))', 'allocation extent of f.x'],
    ]) {
      expect(run(prog(body!), none)).toMatchObject({ stuck: { kind: 'error-in-control', what } });
    }
  });

  it('accesses with no allocation, and an output never allocated, are unallocated', () => {
    expect(run(prog('f[0] <- 1; allocate f(x in (0, 1))'), none)).toMatchObject({ stuck: { kind: 'unallocated', func: 'f', site: { stmt: 'f[0] <- 1' } } });
    expect(run(prog('allocate g(x in (0, 1))'), none)).toMatchObject({ stuck: { kind: 'unallocated', func: 'f' } });
  });

  it('allocating again starts afresh (store-at inside a loop)', () => {
    const o = run(prog('allocate f(x in (0, 1)); for i in (0, 2) do { allocate g(x in (0, 1)); if i then f[0] <- g[0] else g[0] <- 7 }'), none);
    expect(o).toMatchObject({ kind: 'done', output: { data: [E_MEM] } });
  });

  it('counts steps the same way and stops at the budget', () => {
    const p = prog('allocate f(x in (0, 100)); for i in (0, 100) do f[i] <- i');
    const full = run(p, none);
    expect(full.kind).toBe('done');
    expect(run(p, none, { maxSteps: full.steps })).toEqual(full);
    expect(run(p, none, { maxSteps: full.steps - 1 })).toEqual({
      kind: 'stuck',
      stuck: { kind: 'budget-exceeded', steps: full.steps - 1 },
      steps: full.steps - 1,
    });
  });

  it('refuses programs with holes, and bad inputs, as user errors', () => {
    const holes = tgt('pipeline f(): allocate f(x in (?mem.min(f.x), ?mem.len(f.x)))');
    expect(() => run(holes, none)).toThrow(/program still has holes: \?mem\.min\(f\.x\) \?mem\.len\(f\.x\)/);
    const p = prog('allocate f(x in (0, k))', 'k');
    expect(() => run(p, none)).toThrow(/missing parameter 'k'/);
    expect(() => run(p, input([], { k: 1, j: 2 }))).toThrow(/unknown parameter 'j'/);
    expect(() => run(p, input([[0, 1]], { k: 1 }))).toThrow(/1 MIN\+LEN|output dimensions/);
    expect(() => run(prog('allocate f(x in (0, q))'), none)).toThrow(UserError);
    expect(() => run(prog('g[0] <- 1'), none)).toThrow(/unknown buffer 'g'/);
    expect(() => run(prog('allocate f(x in (0, 1)); f[0, 1] <- 1'), none)).toThrow(/1 dimensions but is accessed with 2/);
    expect(() => run(prog('for i in (0, 1) do let i = 2 in nop'), none)).toThrow(/'i' is already bound/);
  });
});

describe.each(executors)('parallel loops (%s)', (_name, run) => {
  it('reports the race of examples/racy.tgt, naming buffer, point and both iterations', () => {
    const o = run(example('racy.tgt'), input([[0, 2]], { n: 4 }), { seed: 1 });
    expect(o).toMatchObject({
      kind: 'stuck',
      stuck: { kind: 'data-race', func: 'sum', point: [0], loopVar: 'sum.s1.y', access: ['write', 'read'] },
    });
    if (o.kind !== 'stuck' || o.stuck.kind !== 'data-race') throw new Error('expected a race');
    const [a, b] = o.stuck.iterations;
    expect(a).not.toBe(b);
  });

  it('is race-free when every iteration touches its own points; the order does not change the result', () => {
    const p = example('stencil.tgt');
    const z = input([[-2, 6]], { k: 2 });
    const outs = [0, 1, 2, 3].map((seed) => run(p, z, { seed }));
    expect(outs[0]).toMatchObject({ kind: 'done', output: { data: [-12, -6, 0, 6, 12, 18] } });
    for (const o of outs) expect(o.kind === 'done' && o.output).toEqual(outs[0]!.kind === 'done' && outs[0]!.output);
  });

  it('runs iterations in a seeded order: the same seed gives the same order, others differ', () => {
    // each iteration overwrites f[0]; the survivor is the last iteration run
    const p = prog('allocate f(x in (0, 1)); for parallel i in (0, 1) do nop; for j in (0, 1) do for parallel i in (0, 8) do f[0] <- i');
    const last = (seed: number) => {
      const o = run(p, none, { seed });
      return o.kind === 'stuck' && o.stuck.kind === 'data-race' ? o.stuck.iterations.join(',') : 'none';
    };
    expect(last(5)).toBe(last(5));
    const seen = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(last));
    expect(seen.size).toBeGreaterThan(1);
  });
});

describe('[REDUCE] evaluation contexts', () => {
  it('every non-nop term is E[r] for exactly the context decompose finds: plug(E, r) = t', async () => {
    const fc = (await import('fast-check')).default;
    const { arbTgtProgram } = await import('../../src/fuzz/arbitraries/tgt.js');
    fc.assert(
      fc.property(arbTgtProgram(), (p) => {
        const t = term(p.body);
        if (t.k === 'nop') return;
        const { ctx, redex } = decompose(t);
        expect(plug(ctx, redex.k === 'stmt' ? redex.t : redex.e)).toEqual(t);
      }),
      { numRuns: 200 },
    );
  });

  it('finds the leftmost-innermost redex: the value of an update before its indices', () => {
    const p = prog('allocate f(x in (0, 2)); f[k] <- f[0] + k', 'k');
    const body = p.body.k === 'seq' ? p.body.body : [];
    const { ctx, redex } = decompose(term(body[1]!));
    // f[0] has only values as arguments, so it is the redex, inside `f[k] <- □ + k`
    expect(redex).toMatchObject({ k: 'expr', e: { k: 'access', func: 'f' } });
    expect(ctx).toMatchObject([{ k: 'stmt', slot: 0 }, { k: 'arg', i: 0 }]);
    // in a sequence the head runs first, inside the frame `E; s`; a head with only values is the redex
    const whole = decompose(term(p.body));
    expect(whole.ctx).toMatchObject([{ k: 'seq', rest: [{ k: 'store' }] }]);
    expect(whole.redex).toMatchObject({ k: 'stmt', t: { k: 'allocate' } });
  });
});
