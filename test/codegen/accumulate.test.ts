// [C-ACCUMULATE]: a store that adds a term to the point it writes gets a value range from how often
// it can run per point, instead of [−∞, ∞]. Checked on the Harris box sums (their additions and the
// response's products lose their overflow checks), against every value the reference stores in
// generated scheduled programs, and on stores that run more than once per point.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Input } from '../../src/alg-semantics/ast.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { completeProgram } from '../../src/bounds/engine.js';
import { emitC } from '../../src/codegen/emit-c.js';
import { completedTarget } from '../../src/codegen/hook.js';
import { type FuncRanges, funcRanges } from '../../src/codegen/ranges.js';
import { type Expr, listEquals } from '../../src/expr/ast.js';
import { evalExpr } from '../../src/expr/eval.js';
import type { Interval } from '../../src/expr/interval.js';
import { constOf } from '../../src/expr/symbolic.js';
import { type Value, isError } from '../../src/expr/value.js';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { arbSchedGen, finalProgram, schedCase } from '../../src/fuzz/properties/sched-case.js';
import { lower } from '../../src/lowering/lower.js';
import { halideSchedule } from '../../src/schedule/halide-style.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { execTgt } from '../../src/target-semantics/exec.js';
import { visitStmts } from '../../src/target-semantics/walk.js';
import { example } from '../support/files.js';
import { tgt } from './support.js';

const constEnds = (i: Interval | undefined) => [i?.lo ? constOf(i.lo) : undefined, i?.hi ? constOf(i.hi) : undefined];

/** The value of an interval end for an input: the pipeline's parameters and window bound. */
function endValue(e: Expr, t: TgtProgram, z: Input): Value {
  const env = new Map<string, Value>(z.params);
  t.window.forEach((w, d) => env.set(w.min, z.window[d]![0]).set(w.len, z.window[d]![1]));
  return evalExpr(e, env);
}

/** The stored integers of a run that lie outside their func's range, as text. */
function escapes(t: TgtProgram, z: Input, ranges: FuncRanges): string[] {
  const out: string[] = [];
  const inside = (v: Value, end: Expr | null, side: 1 | -1) => {
    if (end === null) return true;
    const b = endValue(end, t, z);
    return isError(b) || (side === 1 ? BigInt(v as bigint) <= BigInt(b) : BigInt(v as bigint) >= BigInt(b));
  };
  execTgt(t, z, {
    maxSteps: 200_000,
    onStore: (f, point, v) => {
      const r = ranges.get(f);
      if (isError(v) || r === undefined) return;
      if (!inside(v, r.lo, -1) || !inside(v, r.hi, 1)) out.push(`${f}(${point.join(', ')}) = ${v}`);
    },
  });
  return out;
}

describe('[C-ACCUMULATE] accumulations bounded by how often they run', () => {
  const harrisAlg = example('harris.alg');
  const t0 = lower(loadPipeline(harrisAlg, 'harris.alg'));
  const harris = completedTarget({ program: loadPipeline(harrisAlg, 'harris.alg'), schedule: halideSchedule(example('harris.halide'), 'harris.halide', t0), inputs: [] });

  it('bounds the Harris box sums by nine terms, so their additions and the response products are proved', () => {
    const ranges = funcRanges(harris);
    // a gradient lies in [−4·255, 4·255]; its square's interval is ±1020²; nine of them per point
    for (const f of ['sxx', 'syy', 'sxy']) expect(constEnds(ranges.get(f))).toEqual([-9 * 1020 ** 2, 9 * 1020 ** 2]);
    expect(ranges.get('harris')?.lo).not.toBeNull();
    expect(ranges.get('harris')?.hi).not.toBeNull();
    const c = emitC(harris, { simd: 'none' });
    const proved = /\[C-PROVED\] \d+ operations[^]*?\n {2}\} else \{/.exec(c)![0];
    expect(proved).toContain('sxx[sxx.s1.x, sxx.s1.y] <- sxx@s0[sxx.s1.x, sxx.s1.y] + ');
    // only the loops' entry checks stay checked: `(void)rs_add(min, len - 1)`
    expect(proved.match(/[^)]rs_(add|sub|mul)\(/g)).toBeNull();
  });

  it('contains every value the reference stores in generated scheduled programs', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    let accumulating = 0;
    let bounded = 0;
    for (const g of fc.sample(arbSchedGen(env), { numRuns: 150, seed: 11 })) {
      const c = schedCase(g, env);
      const t = completeProgram(finalProgram(c), env.engine);
      const ranges = funcRanges(t);
      // stores that read the point they write: [−∞, ∞] without [C-ACCUMULATE]
      const selfReading = new Set<string>();
      visitStmts(t.body, (s) => {
        if (s.k === 'store' && s.value.k === 'op' && s.value.args.some((a) => a.k === 'access' && a.func === s.func && listEquals(a.args, s.idx))) selfReading.add(s.func);
      });
      if (selfReading.size > 0) accumulating++;
      if ([...selfReading].some((f) => ranges.get(f)?.lo && ranges.get(f)?.hi)) bounded++;
      expect(escapes(t, c.input, ranges)).toEqual([]);
    }
    expect(accumulating).toBeGreaterThan(50);
    expect(bounded).toBeGreaterThan(30);
  });

  /** f(0) starts at 1 and gains 3 per run of `loops` around `f[idx] <- f[idx] + 3`; g reads f. */
  const counted = (loops: string, idx: string, allocInside = false) =>
    tgt(`pipeline g(; x in (x.min, x.len)):
{
  allocate g(x in (x.min, x.len));
  ${allocInside ? '' : 'allocate f(x in (0, 2));'}
  for t in (0, 4) do {
    ${allocInside ? 'allocate f(x in (0, 2));' : ''}
    f[0] <- 1;
    f[1] <- 1;
    ${loops} f[${idx}] <- f[${idx}] + 3
  };
  for g.s0.x in (x.min, x.len) do g[g.s0.x] <- f[0] + f[1]
}`);
  const z: Input = { window: [[0, 2]], params: new Map() };

  it('an index that is a whole loop variable fixes that loop; any other index makes it a repeat', () => {
    expect(constEnds(funcRanges(counted('for r in (0, 2) do', 'r', true)).get('f'))).toEqual([1, 1 + 3]);
    // r / 2 writes f(0) twice: a larger bound, and every stored value inside it
    const halves = counted('for r in (0, 2) do', 'r / 2', true);
    expect(constEnds(funcRanges(halves).get('f'))).toEqual([1, 1 + 2 * 3]);
    expect(escapes(halves, z, funcRanges(halves))).toEqual([]);
  });

  it('a guarded split of the index fixes both of its loops; a split whose parts overlap does not', () => {
    /** f(x) starts at 1 and gains 3 per r, x split into (xo, xi) by `k`, xi over (0, n). */
    const split = (k: number, n: number) =>
      tgt(`pipeline g(; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len + 8));
  for f.s0.x in (x.min, x.len + 8) do f[f.s0.x] <- 1;
  for r in (0, 2) do
    for xo in (0, (x.len + 3) / 4) do
      for xi in (0, ${n}) do
        let fx = x.min + xo * ${k} + xi in
        if fx < x.min + x.len then f[fx] <- f[fx] + 3 else nop;
  allocate g(x in (x.min, x.len));
  for g.s0.x in (x.min, x.len) do g[g.s0.x] <- f[g.s0.x]
}`);
    const guarded = split(4, 4);
    expect(constEnds(funcRanges(guarded).get('f'))).toEqual([1, 1 + 2 * 3]);
    // xi over (0, 6) with steps of 4: two (xo, xi) pairs reach some points, and the bound grows with the window
    const overlapping = split(4, 6);
    expect(constEnds(funcRanges(overlapping).get('f'))).toEqual([1, undefined]);
    const w: Input = { window: [[-3, 13]], params: new Map() };
    expect(escapes(guarded, w, funcRanges(guarded))).toEqual([]);
    expect(escapes(overlapping, w, funcRanges(overlapping))).toEqual([]);
  });

  it('counts the loops between the allocation and the store, not those around the allocation', () => {
    expect(constEnds(funcRanges(counted('for r in (0, 3) do', '0', true)).get('f'))).toEqual([1, 1 + 3 * 3]);
    // allocated once outside t: the t loop repeats the store too (resets are not relied on)
    const shared = counted('for r in (0, 3) do', '0');
    expect(constEnds(funcRanges(shared).get('f'))).toEqual([1, 1 + 12 * 3]);
    expect(escapes(shared, z, funcRanges(shared))).toEqual([]);
  });

  it('leaves the upper end unbounded when a repeating loop has no bounded extent', () => {
    // h doubles itself as often as the window is wide, so its range and the extent read from it
    // are unbounded
    const t = tgt(`pipeline g(; x in (x.min, x.len)):
{
  allocate g(x in (x.min, x.len));
  allocate h(x in (0, 1));
  allocate f(x in (0, 1));
  h[0] <- 2;
  for d in (0, x.len) do h[0] <- h[0] + h[0];
  f[0] <- 1;
  for r in (0, h[0]) do f[0] <- f[0] + 3;
  for g.s0.x in (x.min, x.len) do g[g.s0.x] <- f[0]
}`);
    const ranges = funcRanges(t);
    expect(ranges.get('h')).toEqual({ lo: null, hi: null });
    expect(constEnds(ranges.get('f'))).toEqual([1, undefined]);
    expect(ranges.get('f')?.hi).toBeNull();
  });
});
