// Z3 verification agrees with concrete checking (CHECK-Z3, CHECK-CONCRETE): a completion Z3
// proves never fails a concrete check inside the ranges, and an input Z3 returns as a
// counterexample really fails the concrete check. Completions come from β0 and β1 and from
// perturbing them (a hole's length shortened or its min moved), so that both answers occur.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type Expr, op } from '../../src/expr/ast.js';
import type { Int } from '../../src/expr/value.js';
import { BUILTIN_ENGINES, runEngine } from '../../src/bounds/engine.js';
import { checkConcrete } from '../../src/bounds/concrete-check.js';
import { withAssertions } from '../../src/bounds/completion.js';
import { extractQuery } from '../../src/bounds/query.js';
import { verifyCompletion } from '../../src/bounds/verify-z3.js';
import { shutdownZ3 } from '../../src/expr/smt.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { parseExprText } from '../../src/expr/parse.js';
import { arbCase } from './gen.js';

afterAll(async () => {
  await shutdownZ3();
});

function rangesFor(params: readonly string[], lens: readonly string[]): Map<string, readonly [Int, Int]> {
  return new Map(params.map((p) => [p, lens.includes(p) ? ([0, 5] as const) : ([-4, 5] as const)]));
}

describe('Z3 verification', () => {
  it('agrees with concrete checking on generated completions', async () => {
    const seen = { proved: 0, refuted: 0 };
    await fc.assert(
      fc.asyncProperty(arbCase({ maxFuncs: 2, directives: 2, dataDependent: false }), fc.nat(), fc.constantFrom('beta0', 'beta1'), fc.constantFrom('keep', 'shorten', 'shift'), async (c, pick, name, how) => {
        const r = runEngine(c.t, BUILTIN_ENGINES[name]!);
        fc.pre(r.ok);
        if (!r.ok) return;
        const gamma = new Map(r.completion);
        const keys = [...gamma.keys()];
        const key = keys[pick % keys.length]!;
        if (how !== 'keep') {
          const e = gamma.get(key)!;
          const changed: Expr = how === 'shorten' && key.includes('.len(') ? op('-', e, { k: 'const', value: 1 }) : op('+', e, { k: 'const', value: 1 });
          gamma.set(key, changed);
        }
        const lens = c.t.window.map((w) => w.len);
        const params = [...c.t.params, ...c.t.window.flatMap((w) => [w.min, w.len])];
        const ranges = rangesFor(params, lens);
        const v = await verifyCompletion(c.t, gamma, ranges, { timeoutMs: 5000, assertions: r.assertions ?? [] });
        const tt = withAssertions(c.t, r.assertions ?? []);
        const q = extractQuery(tt);
        if (v.status === 'refuted') {
          seen.refuted++;
          expect(checkConcrete(tt, q, gamma, v.input).holds).toBe(false);
        } else if (v.status === 'proved') {
          seen.proved++;
          const inRange = [...ranges].every(([p, [lo, hi]]) => {
            const i = c.t.window.findIndex((w) => w.min === p || w.len === p);
            const val = i < 0 ? c.input.params.get(p)! : c.input.window[i]![c.t.window[i]!.min === p ? 0 : 1];
            return val >= lo && val <= hi;
          });
          if (inRange) expect(checkConcrete(tt, q, gamma, c.input).holds).not.toBe(false);
        }
      }),
      { numRuns: 40, seed: 31 },
    );
    expect(seen.proved).toBeGreaterThan(5);
    expect(seen.refuted).toBeGreaterThan(5);
  }, 120_000);

  it('proves β0 on §2.2 and refutes a completion one point short, with a failing input', async () => {
    const t = parseTgt(
      `pipeline f(; x in (x.min, x.len)): {
        allocate g(x in (?mem.min(g.x), ?mem.len(g.x)));
        label g: for g.x in (?cpu.min(g.x), ?cpu.len(g.x)) do g[g.x] <- g.x * g.x;
        allocate f(x in (?mem.min(f.x), ?mem.len(f.x)));
        label f: for f.x in (?cpu.min(f.x), ?cpu.len(f.x)) do f[f.x] <- g[f.x] + g[f.x + 1]
      }`,
      'sec22.tgt',
    );
    const r = runEngine(t, BUILTIN_ENGINES.beta0!);
    if (!r.ok) throw new Error(r.explanation);
    expect(await verifyCompletion(t, r.completion)).toEqual({ status: 'proved' });
    const short = new Map(r.completion);
    short.set('?mem.len(g.x)', op('-', short.get('?mem.len(g.x)')!, { k: 'const', value: 1 }));
    const v = await verifyCompletion(t, short);
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    expect(v.input.window[0]![1] > 0).toBe(true); // an empty window needs no points of g
    expect(checkConcrete(t, extractQuery(t), short, v.input).holds).toBe(false);
  }, 60_000);

  it('says honestly when it cannot decide', async () => {
    // An error constant in an index cannot be encoded.
    const err = parseTgt('pipeline f(; x in (x.min, x.len)): { allocate f(x in (?mem.min(f.x), ?mem.len(f.x))); label f: for f.x in (?cpu.min(f.x), ?cpu.len(f.x)) do f[f.x] <- f.x; allocate h(x in (0, 1)); label h: h[0] <- f[err.rdom] }', 'e.tgt');
    const gamma = new Map([['?mem.min(f.x)', 'x.min'], ['?mem.len(f.x)', 'x.len'], ['?cpu.min(f.x)', 'x.min'], ['?cpu.len(f.x)', 'x.len']].map(([k, v]) => [k!, parseExprText(v!, 'tgt')] as const));
    const v = await verifyCompletion(err, gamma);
    expect(v).toMatchObject({ status: 'unknown', reason: expect.stringMatching(/error constant/) });
    // A func with two stores is uninterpreted: a model may pick values no run computes, and the
    // concrete replay cannot confirm it.
    const two = parseTgt(
      `pipeline o(; x in (x.min, x.len)): {
        allocate s(x in (0, 2)); label s: { s[0] <- 0; s[1] <- 1 };
        allocate o(x in (?mem.min(o.x), ?mem.len(o.x)));
        label o: for o.x in (?cpu.min(o.x), ?cpu.len(o.x)) do o[s[0]] <- 1
      }`,
      'two.tgt',
    );
    const g2 = new Map([['?mem.min(o.x)', '0'], ['?mem.len(o.x)', '2'], ['?cpu.min(o.x)', 'x.min'], ['?cpu.len(o.x)', 'x.len'], ['?cpu.min(s.x)', '0'], ['?cpu.len(s.x)', '2']].map(([k, v]) => [k!, parseExprText(v!, 'tgt')] as const));
    const u = await verifyCompletion(two, g2);
    expect(u).toMatchObject({ status: 'unknown', reason: expect.stringMatching(/relies on func values/) });
  }, 60_000);

  it('reports an empty range and an unknown parameter as bad input', async () => {
    const t = parseTgt('pipeline f(; x in (x.min, x.len)): { allocate f(x in (?mem.min(f.x), ?mem.len(f.x))); label f: for f.x in (?cpu.min(f.x), ?cpu.len(f.x)) do f[f.x] <- 1 }', 'f.tgt');
    const r = runEngine(t, BUILTIN_ENGINES.beta0!);
    if (!r.ok) throw new Error(r.explanation);
    expect(() => verifyCompletion(t, r.completion, new Map([['x.len', [3, 1] as const]]))).toThrow(/empty/);
    expect(() => verifyCompletion(t, r.completion, new Map([['n', [0, 1] as const]]))).toThrow(/not a parameter/);
  });
});
