// Lemma 2.3 (algorithms terminate), checked as a statement about a number computed *before*
// evaluating: for a valid P and input z, `derivationBound` gives, from the shape of P's expressions
// and the rdom extents fixed by z's parameters alone (def. 2.9), an upper bound on the size of the
// derivation of any output point. The spec evaluator (fig. 2.6, applied literally) must then finish
// every window point within that many steps, and the fast evaluator must produce the same values.
// The bound exists only because of the lemma's ingredients: rdom extents are startup expressions,
// and [FUNC-EVAL] evaluates a stage in the definitions *before* its func (def. 2.10), so the
// recursion below descends on (number of funcs, number of stage versions) and always stops.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pipeline, Stage } from '../../src/alg-semantics/ast.js';
import { realize } from '../../src/alg-semantics/fast-eval.js';
import { forEachPoint } from '../../src/expr/window.js';
import { derivePoint } from '../../src/alg-semantics/spec-eval.js';
import type { Expr } from '../../src/expr/ast.js';
import { evalExpr } from '../../src/expr/eval.js';
import type { Int, Value } from '../../src/expr/value.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';

/** One stage version of the definitions D during evaluation: a source stage with its first `k` reduction variables still to unroll. */
interface Version {
  readonly stage: Stage;
  readonly src: number;
  readonly k: number;
}
interface DFunc {
  readonly name: string;
  readonly arity: number;
  readonly versions: readonly Version[];
}

/**
 * An upper bound on the derivation nodes of `f[c̄]` in D, for any c̄: [FUNC-SKIP] past later funcs,
 * [FUNC-EVAL] of the pure stage, [UPDATE-EVAL] of a point update (its select, all three arguments
 * evaluated), [RDOM-EVAL]/[RDOM-ERR] unrolling the outermost remaining reduction variable. Every
 * expression node costs one node plus its arguments; an access costs one node (for
 * [FUNC-ARG-EVAL], whether or not it is needed) plus its arguments plus the lookup. Step counts are
 * bookkeeping, not program values, so plain numbers (and Infinity) are fine here.
 */
function derivationBound(p: Pipeline, params: ReadonlyMap<string, Int>): number {
  const memo = new Map<string, number>();
  const keyOf = (d: readonly DFunc[]) => d.map((g) => `${g.name}:${g.versions.map((v) => `${v.src}/${v.k}`).join(',')}`).join(';');
  const extent = (e: Expr): Int => evalExpr(e, params) as Int; // startup expressions (def. 2.9)

  const size = (d: readonly DFunc[], e: Expr): number => {
    switch (e.k) {
      case 'op':
        return 1 + e.args.reduce((s, a) => s + size(d, a), 0);
      case 'access':
        return 1 + e.args.reduce((s, a) => s + size(d, a), 0) + lookup(d, e.func);
      default:
        return 1;
    }
  };

  const lookup = (d: readonly DFunc[], f: string): number => {
    const key = `${keyOf(d)}|${f}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const last = d[d.length - 1];
    if (!last) throw new Error(`no func '${f}' in D: the definitions refer forward (not a valid program)`);
    const rest = d.slice(0, -1);
    let n: number;
    if (last.name !== f) n = 1 + lookup(rest, f);
    else {
      const vs = last.versions;
      const u = vs[vs.length - 1]!;
      const before = [...rest, { ...last, versions: vs.slice(0, -1) }];
      if (vs.length === 1) n = 1 + size(rest, u.stage.rhs);
      else if (u.k === 0) {
        const conj = u.stage.lhs.reduce((s, e) => s + 2 + size(before, e), 0) + u.stage.lhs.length + size(before, u.stage.pred);
        n = 1 + 1 + conj + size(before, u.stage.rhs) + 1 + last.arity + lookup(before, f);
      } else {
        const rv = u.stage.rdom.slice(0, u.k);
        const bounds = rv.reduce((s, r) => s + size(d, r.min) + size(d, r.len), 0);
        const lens = rv.map((r) => extent(r.len));
        if (lens.some((l) => l < 0)) n = 1 + bounds;
        else {
          const copies = Array.from({ length: Number(lens[u.k - 1]!) }, () => ({ ...u, k: u.k - 1 }));
          // each unrolled copy costs one step too, so an empty body cannot make unrolling free
          n = 1 + bounds + copies.length + lookup([...rest, { ...last, versions: [...vs.slice(0, -1), ...copies] }], f);
        }
      }
    }
    memo.set(key, n);
    return n;
  };

  const d: DFunc[] = p.funcs.map((f) => ({
    name: f.name,
    arity: f.vars.length,
    versions: f.stages.map((s, i) => ({ stage: s, src: i, k: s.rdom.length })),
  }));
  return lookup(d, p.output); // derivePoint's [REALIZE] root is not charged to the budget
}

/** Small generated pipelines whose bound is small enough to run the exponential evaluator on. */
const cases = arbPipeline({ maxFuncs: 3, maxDims: 2, maxUpdates: 2, maxRVars: 2, exprDepth: 1 }).chain((p) =>
  fc.tuple(fc.constant(p), arbInput(p, { maxWindowLen: 2 })));

describe('lemma 2.3: algorithms terminate', () => {
  it('every window point is derived within a budget computed from P and z before evaluating', () => {
    let ran = 0;
    fc.assert(
      fc.property(cases, ([p, z]) => {
        const bound = derivationBound(p, z.params);
        expect(Number.isFinite(bound)).toBe(true);
        fc.pre(bound <= 200_000); // the spec evaluator is exponential by design; skip the huge ones
        ran++;
        const fast = realize(p, z);
        const pts: Value[][] = [];
        forEachPoint(z.window, (c) => pts.push(c));
        pts.forEach((c, i) => {
          const r = derivePoint(p, z.params, p.output, c, bound);
          expect(r.kind, `point (${c.join(', ')}) needed more than ${bound} steps`).toBe('value');
          if (r.kind !== 'value') return;
          expect(r.steps).toBeLessThanOrEqual(bound);
          expect(r.value).toEqual(fast.values[i]);
        });
      }),
      { numRuns: 200, seed: 203 },
    );
    expect(ran).toBeGreaterThan(100);
  });

  it('the bound is not loose by construction: it is attained by a pure func without accesses', () => {
    // f(x) = x + 1: [REALIZE] over [FUNC-EVAL] over one OP-EVAL with two CONST-EVAL children.
    const p: Pipeline = {
      output: 'f', params: [],
      funcs: [{ name: 'f', vars: ['x'], stages: [{ pure: true, rdom: [], lhs: [{ k: 'var', name: 'x' }], rhs: { k: 'op', op: '+', args: [{ k: 'var', name: 'x' }, { k: 'const', value: 1 }] }, pred: { k: 'const', value: 1 } }] }],
    };
    const r = derivePoint(p, new Map(), 'f', [3]);
    expect(r.kind === 'value' && r.steps).toBe(derivationBound(p, new Map()));
  });

  it('negative control: a budget one below a derivation\'s size is reported as spent, not as a value', () => {
    // Guards the property above against an evaluator that ignores its budget.
    fc.assert(
      fc.property(cases, ([p, z]) => {
        fc.pre(derivationBound(p, z.params) <= 20_000);
        const c = z.window.map(([m]) => m);
        const r = derivePoint(p, z.params, p.output, c);
        if (r.kind !== 'value') return;
        expect(derivePoint(p, z.params, p.output, c, r.steps - 1).kind).toBe('budget');
      }),
      { numRuns: 50, seed: 2031 },
    );
  });
});
