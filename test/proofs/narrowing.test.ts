// Lemma 2.11 (narrowing executions match), checked on pairs P1 ≤ P2 (def. 2.17) of completions of
// 𝓛(P): P1 is the demand-derived completion for an input z (test/lowering/demand-bounds.ts), P2 the
// one for the same parameters and a window containing z's; both are run on z. The precondition
// P1 ≤ P2 (every compute and allocation interval of P1 inside P2's) is checked, not assumed. For
// every func f and stage i, the program is cut just after stage i of f and both cuts are run, so
// "after the execution of corresponding loops for f" is observed directly: the two buffers of f
// must agree on P1's compute box of that stage.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Input, Pipeline } from '../../src/alg-semantics/ast.js';
import { forEachPoint } from '../../src/expr/window.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { UserError } from '../../src/diag.js';
import { add, mul, sub } from '../../src/expr/ops.js';
import { type Int, type Value, showValue } from '../../src/expr/value.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { lower, seq } from '../../src/lowering/lower.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { execTgt } from '../../src/target-semantics/exec.js';
import { fillHoles } from '../../src/target-semantics/holes.js';
import type { Buffer } from '../../src/target-semantics/outcome.js';
import { type DemandBounds, demandBounds } from '../lowering/demand-bounds.js';

type Box = readonly (readonly [Int, Int])[];

/** The program run up to and including stage `i` of func `f` (lowered layout), returning f's buffer. */
function cutAfter(t: TgtProgram, f: string, i: number): TgtProgram {
  const top = t.body.k === 'seq' ? t.body.body : [t.body];
  const k = top.findIndex((s) => s.k === 'label' && s.name === f);
  const lab = top[k] as Extract<TgtProgram['body'], { k: 'label' }>;
  const stages = lab.body.k === 'seq' ? lab.body.body : [lab.body];
  return { ...t, output: f, body: seq([...top.slice(0, k), { ...lab, body: seq(stages.slice(0, i + 1)) }]) };
}

/** The value of a buffer at a point (first dimension fastest), or undefined outside it. */
function at(b: Buffer, c: readonly Int[]): Value | undefined {
  let idx: Int = 0;
  let stride: Int = 1;
  for (let d = 0; d < b.dims.length; d++) {
    const off = sub(c[d]!, b.dims[d]!.min);
    if (off < 0 || off >= b.dims[d]!.len) return undefined;
    idx = add(idx, mul(off, stride));
    stride = mul(stride, b.dims[d]!.len);
  }
  return b.data[Number(idx)];
}

const inside = (a: readonly [Int, Int], b: readonly [Int, Int]) => a[1] <= 0 || (b[0] <= a[0] && add(a[0], a[1]) <= add(b[0], b[1]));

/** Def. 2.17 for constant completions: every interval of P1 lies in P2's. */
function narrower(b1: DemandBounds, b2: DemandBounds): boolean {
  for (const [f, stages] of b1.cpu) if (!stages.every((box, i) => box.every((iv, d) => inside(iv, b2.cpu.get(f)![i]![d]!)))) return false;
  for (const [f, box] of b1.mem) if (!box.every((iv, d) => inside(iv, b2.mem.get(f)![d]!))) return false;
  return true;
}

interface Mismatch {
  readonly func: string;
  readonly stage: number;
  readonly point: readonly Int[];
  readonly v1: Value | undefined;
  readonly v2: Value | undefined;
}
const showMismatch = (m: Mismatch) =>
  `${m.func} after stage ${m.stage} at (${m.point.map(showValue).join(', ')}): ${m.v1 === undefined ? 'outside' : showValue(m.v1)} vs ${m.v2 === undefined ? 'outside' : showValue(m.v2)}`;

/**
 * Runs both cuts for every stage of every func on z; the points of P1's compute box where the
 * buffers disagree, and how many stage boxes were compared (cuts where either run got stuck are
 * not executions the lemma speaks about).
 */
function compareStages(p: Pipeline, t: TgtProgram, b1: DemandBounds, b2: DemandBounds, z: Input): { mismatches: Mismatch[]; compared: number } {
  const p1 = fillHoles(t, b1.gamma);
  const p2 = fillHoles(t, b2.gamma);
  const mismatches: Mismatch[] = [];
  let compared = 0;
  for (const f of p.funcs) {
    f.stages.forEach((_, i) => {
      const r1 = execTgt(cutAfter(p1, f.name, i), z, { maxSteps: 200_000 });
      const r2 = execTgt(cutAfter(p2, f.name, i), z, { maxSteps: 200_000 });
      if (r1.kind !== 'done' || r2.kind !== 'done') return;
      const box: Box = b1.cpu.get(f.name)![i]!;
      compared++;
      forEachPoint(box, (c) => {
        const v1 = at(r1.output, c as Int[]);
        const v2 = at(r2.output, c as Int[]);
        if (v1 === undefined || v1 !== v2) mismatches.push({ func: f.name, stage: i, point: c as Int[], v1, v2 });
      });
    });
  }
  return { mismatches, compared };
}

const cases = arbPipeline({ maxFuncs: 3, maxDims: 2, maxUpdates: 2, maxRVars: 2, exprDepth: 2 }).chain((p) =>
  fc.record({
    p: fc.constant(p),
    z: arbInput(p, { maxWindowLen: 3 }),
    widen: fc.array(fc.tuple(fc.nat(2), fc.nat(2)), { minLength: 3, maxLength: 3 }),
  }));

/** Runs `f`, discarding the case when the executor refuses an allocation too large to run. */
function runnable<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UserError && /allocation of/.test(e.message)) fc.pre(false);
    throw e;
  }
}

describe('lemma 2.11: narrowing executions match', () => {
  it('after each stage of each func, P1 ≤ P2 hold the same values on P1\'s compute box', () => {
    let compared = 0;
    let wider = 0;
    fc.assert(
      fc.property(cases, ({ p, z, widen }) => {
        const t = lower(p);
        const z2: Input = { ...z, window: z.window.map(([m, l], d) => [sub(m, widen[d]![0]), add(l, add(widen[d]![0], widen[d]![1]))] as const) };
        const b1 = demandBounds(p, t, z);
        const b2 = demandBounds(p, t, z2);
        fc.pre(b1 !== undefined && b2 !== undefined);
        expect(narrower(b1!, b2!), 'demand bounds grow with the window').toBe(true);
        if (!narrower(b2!, b1!)) wider++;
        const r = runnable(() => compareStages(p, t, b1!, b2!, z));
        compared += r.compared;
        expect(r.mismatches.slice(0, 3).map(showMismatch)).toEqual([]);
      }),
      { numRuns: 200, seed: 211 },
    );
    expect(compared).toBeGreaterThan(200);
    expect(wider, 'cases where P2 really computes more than P1').toBeGreaterThan(50);
  });

  it('negative control: a P1 whose producer box misses one point the consumer reads is not narrowing, and is caught', () => {
    const p = loadPipeline('pipeline f() {\n  func g(x) = x * x;\n  func f(x) = g(x) + g(x + 1);\n}', 'neg.alg');
    const t = lower(p);
    const z: Input = { window: [[0, 3]], params: new Map() };
    const b1 = demandBounds(p, t, z)!;
    const b2 = demandBounds(p, t, { ...z, window: [[-2, 8]] })!;
    expect(b1.cpu.get('g')![0]).toEqual([[0, 4]]);
    // g computed on [0, 3) only: still inside P2's intervals, but no longer a completion in BI(T)
    const short: DemandBounds = {
      ...b1,
      gamma: new Map([...b1.gamma, ['?cpu.len(g.x)', { k: 'const', value: 3 }]]),
      cpu: new Map([...b1.cpu, ['g', [[[0, 3]]]]]),
    };
    expect(narrower(short, b2)).toBe(true);
    const r = compareStages(p, t, short, b2, z);
    expect(r.mismatches.map(showMismatch)).toEqual(['f after stage 0 at (2): ε_mem vs 13']);
  });
});
