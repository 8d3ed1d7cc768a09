// The generators: every blueprint decodes to a valid algorithm (defs. 2.7–2.10) with a valid
// input, shrinking stays valid, and the constructs the issue lists are all reached.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPipeline } from '../../src/alg-semantics/validate.js';
import { checkInput } from '../../src/alg-semantics/input.js';
import { parsePipeline } from '../../src/alg-semantics/parse.js';
import { printPipeline } from '../../src/alg-semantics/print.js';
import { DEFAULT_GEN, type GenOptions, arbInputB, arbPipelineB, decodeInput, decodePipeline } from '../../src/fuzz/gen/pipeline.js';
import { type Expr, walkExpr } from '../../src/expr/ast.js';
import { E_MEM, E_RDOM, type Value } from '../../src/expr/value.js';
import { type Pipeline } from '../../src/alg-semantics/ast.js';
import { observePipeline } from '../../src/fuzz/gen/observe.js';
import { emptyStats } from '../../src/fuzz/stats.js';

describe('algorithm generator', () => {
  it('decodes every blueprint to a valid pipeline and an acceptable input', () => {
    fc.assert(fc.property(arbPipelineB(), arbInputB(), (b, z) => {
      const p = decodePipeline(b);
      expect(checkPipeline(p).map((e) => e.message)).toEqual([]);
      expect(() => checkInput(p, decodeInput(z, p))).not.toThrow();
    }), { numRuns: 300 });
  });

  it('stays valid along shrinking paths (every shrink is a decoded blueprint too)', () => {
    const out = fc.check(fc.property(arbPipelineB(), (b) => {
      expect(checkPipeline(decodePipeline(b))).toEqual([]);
      return printPipeline(decodePipeline(b)).length < 120; // forces shrinking of long programs
    }), { numRuns: 50, seed: 3 });
    expect(out.failed).toBe(true);
    expect(printPipeline(decodePipeline(out.counterexample![0] as never)).length).toBeGreaterThanOrEqual(120);
  });

  it('prints programs that parse back (the reproducer format relies on it)', () => {
    fc.assert(fc.property(arbPipelineB(), (b) => {
      const p = decodePipeline(b);
      expect(printPipeline(parsePipeline(printPipeline(p), 'x'))).toBe(printPipeline(p));
    }), { numRuns: 200 });
  });

  it('reaches every construct of the issue', () => {
    const stats = emptyStats();
    for (const [b, z] of fc.sample(fc.tuple(arbPipelineB(), arbInputB()), { numRuns: 2000, seed: 11 })) {
      const p = decodePipeline(b);
      observePipeline(p, decodeInput(z, p), stats);
    }
    for (const k of ['func of 1 dimension', 'func of 2 dimensions', 'func of 3 dimensions', 'func with several update stages', 'rdom of 2 dimensions',
      'negative rdom extent', 'predicate', 'data-dependent index', 'parameters', 'div by literal zero', 'mod by literal zero', 'empty window',
      'self-access', 'reduction dimension', 'error constant', 'op select', 'op not', 'op min', 'op =']) {
      expect(stats.constructs[k] ?? 0, k).toBeGreaterThan(0);
    }
  });

  it('with the zoo switch, breaks syntactic separation only inside predicates', () => {
    let loose = 0;
    for (const b of fc.sample(arbPipelineB({ ...DEFAULT_GEN, looseSeparationInPredicates: true }), { numRuns: 500, seed: 5 })) {
      const p = decodePipeline(b, { ...DEFAULT_GEN, looseSeparationInPredicates: true });
      const errs = checkPipeline(p);
      if (errs.length > 0) loose++;
      const stripped = { ...p, funcs: p.funcs.map((f) => ({ ...f, stages: f.stages.map((s) => ({ ...s, pred: { k: 'const' as const, value: 1 } })) })) };
      expect(checkPipeline(stripped)).toEqual([]);
    }
    expect(loose).toBeGreaterThan(0);
  });

  it('draws exactly the default distribution when every switch is off', () => {
    const plain = fc.sample(fc.tuple(arbPipelineB(), arbInputB()), { numRuns: 200, seed: 21 });
    const o: GenOptions = {
      ...DEFAULT_GEN, minFuncs: 1, maxDims: 3, maxRVars: 2, maxParams: 2, maxExtent: 3, negativeExtents: true, errorConstants: true,
      memErrors: true, dataDependent: true, selfCoords: false, extremeConstants: false, wideConstants: false,
    };
    const off = fc.sample(fc.tuple(arbPipelineB(o), arbInputB({ maxWindowLen: 4, maxInnerLen: 4, farWindows: false, extremeMins: false })), { numRuns: 200, seed: 21 });
    expect(off).toEqual(plain);
    expect(off.map(([b]) => decodePipeline(b, o))).toEqual(plain.map(([b]) => decodePipeline(b)));
  });

  it('keeps programs valid under every option, and each option does what it says', () => {
    const sample = (o: Partial<GenOptions>) => {
      const opts = { ...DEFAULT_GEN, ...o };
      return fc.sample(arbPipelineB(opts), { numRuns: 300, seed: 17 }).map((b) => {
        const p = decodePipeline(b, opts);
        expect(checkPipeline(p)).toEqual([]);
        return p;
      });
    };
    const errorsOf = (p: Pipeline) => constantsIn(p).filter((v) => typeof v === 'object');
    expect(sample({ errorConstants: false }).flatMap(errorsOf)).toEqual([]);
    expect(sample({ memErrors: false }).flatMap(errorsOf).every((v) => v === E_RDOM)).toBe(true);
    const extreme = sample({ extremeConstants: true });
    expect(extreme.filter((p) => constantsIn(p).some((v) => typeof v === 'bigint' || (typeof v === 'number' && Math.abs(v) >= 2 ** 53 - 1))).length).toBeGreaterThan(50);
    expect(extreme.filter((p) => errorsOf(p).includes(E_MEM)).length).toBeGreaterThan(30);
    // without data-dependent indexing, no index and no reduction coordinate reads a func
    for (const p of sample({ dataDependent: false, selfCoords: true })) {
      for (const f of p.funcs) for (const st of f.stages) {
        for (const e of [...st.lhs, st.rhs, st.pred]) walkExpr(e, (x) => {
          if (x.k === 'access') for (const a of x.args) expect(accessesIn(a)).toEqual([]);
        });
        for (const e of st.pure ? [] : st.lhs) expect(accessesIn(e).filter((g) => g === f.name)).toEqual([]);
      }
    }
    const selfInCoords = sample({ selfCoords: true }).filter((p) => p.funcs.some((f) => f.stages.slice(1).some((st) => st.lhs.some((e) => accessesIn(e).includes(f.name)))));
    expect(selfInCoords.length).toBeGreaterThan(20);
    for (const p of sample({ negativeExtents: false, maxDims: 1, maxRVars: 1, maxParams: 0, minFuncs: 2, maxFuncs: 2 })) {
      expect(p.funcs).toHaveLength(2);
      expect(p.params).toEqual([]);
      for (const f of p.funcs) {
        expect(f.vars).toHaveLength(1);
        for (const st of f.stages) {
          expect(st.rdom.length).toBeLessThanOrEqual(1);
          for (const r of st.rdom) expect(r.len.k === 'const' && typeof r.len.value === 'number' && r.len.value >= 0).toBe(true);
        }
      }
    }
  });

  it('draws inputs in the ranges asked for', () => {
    for (const z of fc.sample(arbInputB({ maxWindowLen: 2, paramRange: [-3, 6] }), { numRuns: 300, seed: 5 })) {
      expect(z.window.every(([, len]) => len <= 2)).toBe(true);
      expect(z.params.every((v) => v >= -3 && v <= 6)).toBe(true);
    }
    const mins = fc.sample(arbInputB({ extremeMins: true }), { numRuns: 300, seed: 5 }).flatMap((z) => z.window.map(([m]) => m));
    expect(mins.filter((m) => typeof m === 'bigint' || Math.abs(m) > 2 ** 52).length).toBeGreaterThan(100);
  });

  it('with wide constants, generates valid programs holding values beyond 32 bits', () => {
    const o = { ...DEFAULT_GEN, wideConstants: true };
    let wide = 0;
    for (const b of fc.sample(arbPipelineB(o), { numRuns: 300, seed: 8 })) {
      const p = decodePipeline(b, o);
      expect(checkPipeline(p)).toEqual([]);
      if (constantsOf(p).some((v) => v > 2n ** 31n - 1n || v < -(2n ** 31n))) wide++;
    }
    expect(wide).toBeGreaterThan(30);
  });

  it('widens only dimension 0 of the window when asked', () => {
    const lens = fc.sample(arbInputB({ maxInnerLen: 20 }), { numRuns: 500, seed: 4 }).map((z) => z.window.map(([, len]) => len));
    expect(Math.max(...lens.map((l) => l[0]!))).toBe(20);
    expect(Math.max(...lens.flatMap((l) => l.slice(1)))).toBe(4);
  });
});

function constantsOf(p: Pipeline): bigint[] {
  const out: bigint[] = [];
  for (const f of p.funcs) for (const st of f.stages) for (const e of [...st.lhs, st.rhs, st.pred]) walkExpr(e, (x) => {
    if (x.k === 'const' && (typeof x.value === 'number' || typeof x.value === 'bigint')) out.push(BigInt(x.value));
  });
  return out;
}

const constantsIn = (p: Pipeline): Value[] => {
  const out: Value[] = [];
  for (const f of p.funcs) for (const st of f.stages) for (const e of [...st.lhs, st.rhs, st.pred]) walkExpr(e, (x) => {
    if (x.k === 'const') out.push(x.value);
  });
  return out;
};

const accessesIn = (e: Expr): string[] => {
  const out: string[] = [];
  walkExpr(e, (x) => {
    if (x.k === 'access') out.push(x.func);
  });
  return out;
};
