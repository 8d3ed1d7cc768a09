// Lemmas 2.4 (loop naming) and 2.5 (dominance): they hold after lowering, and the checkers find
// each kind of violation in hand-broken programs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { lower } from '../../src/lowering/lower.js';
import { checkDominance, checkLoopNaming } from '../../src/lowering/invariants.js';
import { parseLoopName } from '../../src/target-semantics/loop-name.js';
import { loopsOf, replaceAt, stmtAt } from '../../src/target-semantics/walk.js';
import { tgt } from '../target-semantics/support.js';

const sec22 = loadPipeline('pipeline f() { func g(x) = x * x; func f(x) = g(x) + g(x + 1); }', 'sec22.alg');

describe('after lowering', () => {
  it('lemmas 2.4 and 2.5 hold for generated valid pipelines', () => {
    fc.assert(fc.property(arbPipeline({ maxFuncs: 4 }), (p) => {
      const t = lower(p);
      expect(checkLoopNaming(t)).toEqual([]);
      expect(checkDominance(t, p)).toEqual([]);
    }), { numRuns: 400, seed: 24 });
  });

  it('loopsOf names every loop ⟨f, i, j, v⟩ and its path leads back to it', () => {
    fc.assert(fc.property(arbPipeline(), (p) => {
      const t = lower(p);
      for (const l of loopsOf(t)) {
        expect(stmtAt(t.body, l.path)).toBe(l.stmt);
        expect(l.name?.spec).toBe(0);
        expect(l.labels).toContain(l.name!.func);
      }
    }), { numRuns: 200, seed: 7 });
  });
});

describe('replaceAt', () => {
  it('rewrites exactly the loop at a path found by loopsOf', () => {
    fc.assert(fc.property(arbPipeline(), fc.nat(), (p, k) => {
      const t = lower(p);
      const loops = loopsOf(t);
      const target = loops[k % loops.length]!;
      const body = replaceAt(t.body, target.path, (s) => (s.k === 'for' ? { ...s, trav: 'parallel' } : s));
      const after = loopsOf({ ...t, body });
      expect(after.map((l) => l.stmt.var)).toEqual(loops.map((l) => l.stmt.var));
      expect(after.filter((l) => l.stmt.trav === 'parallel').map((l) => l.stmt.var)).toEqual([target.stmt.var]);
    }), { numRuns: 100, seed: 5 });
  });
});

describe('parseLoopName', () => {
  it('reads f.s<i>.v and f.s<i>.k<j>.v, and nothing else', () => {
    expect(parseLoopName('blur.s0.x')).toEqual({ func: 'blur', stage: 0, spec: 0, v: 'x' });
    expect(parseLoopName('f.s12.k3.xo')).toEqual({ func: 'f', stage: 12, spec: 3, v: 'xo' });
    expect(parseLoopName('x')).toBeUndefined();
    expect(parseLoopName('f.x')).toBeUndefined();
    expect(parseLoopName('f.s0.k0.x')).toBeUndefined(); // specialization 0 is written without .k
  });
});

describe('lemma 2.4 violations', () => {
  it('a loop whose name is not ⟨f, i, j, v⟩', () => {
    const t = tgt(`pipeline f(; x in (x.min, x.len)): {
      allocate f(x in (x.min, x.len));
      label f: label f.s0: for i in (x.min, x.len) do f[i] <- 0 }`);
    expect(checkLoopNaming(t)).toEqual([expect.stringContaining("loop 'i' is not named")]);
  });

  it('two loops with one name', () => {
    const t = tgt(`pipeline f(; x in (x.min, x.len)): {
      allocate f(x in (x.min, x.len));
      label f: label f.s0: { for f.s0.x in (x.min, 1) do f[f.s0.x] <- 0; for f.s0.x in (x.min, 1) do f[f.s0.x] <- 1 } }`);
    expect(checkLoopNaming(t)).toEqual([expect.stringContaining('two loops are named f.s0.x')]);
  });

  it('a loop outside its func or stage label', () => {
    const t = tgt(`pipeline f(; x in (x.min, x.len)): {
      allocate f(x in (x.min, x.len));
      allocate g(x in (x.min, x.len));
      label f: label f.s0: for g.s0.x in (x.min, x.len) do g[g.s0.x] <- 0;
      label g: label g.s1: for g.s0.y in (x.min, x.len) do f[g.s0.y] <- 0 }`);
    expect(checkLoopNaming(t)).toEqual([
      "[LOOP-NAMING] loop g.s0.x is not inside 'label g'",
      "[LOOP-NAMING] loop g.s0.y is not inside 'label g.s0' within 'label g'",
    ]);
  });
});

describe('lemma 2.5 violations', () => {
  it('a consumer assigned before its producer is computed', () => {
    const t = tgt(`pipeline f(; x in (x.min, x.len)): {
      allocate g(x in (x.min, x.len + 1));
      allocate f(x in (x.min, x.len));
      label f: label f.s0: for f.s0.x in (x.min, x.len) do f[f.s0.x] <- g[f.s0.x] + g[f.s0.x + 1];
      label g: label g.s0: for g.s0.x in (x.min, x.len + 1) do g[g.s0.x] <- g.s0.x * g.s0.x }`);
    expect(checkDominance(t, sec22)).toEqual([expect.stringContaining('the loops for g do not dominate the assignment to f')]);
  });

  it('a producer computed only inside a loop that may not run, or in one branch', () => {
    const inLoop = tgt(`pipeline f(n; x in (x.min, x.len)): {
      allocate g(x in (x.min, x.len + 1));
      for i in (0, n) do label g: label g.s0: for g.s0.x in (x.min, x.len + 1) do g[g.s0.x] <- 0;
      allocate f(x in (x.min, x.len));
      label f: label f.s0: for f.s0.x in (x.min, x.len) do f[f.s0.x] <- g[f.s0.x] }`);
    expect(checkDominance(inLoop, sec22)).toHaveLength(1);
    const oneBranch = tgt(`pipeline f(n; x in (x.min, x.len)): {
      allocate g(x in (x.min, x.len + 1));
      if n > 0 then label g: label g.s0: for g.s0.x in (x.min, x.len + 1) do g[g.s0.x] <- 0;
      allocate f(x in (x.min, x.len));
      label f: label f.s0: for f.s0.x in (x.min, x.len) do f[f.s0.x] <- g[f.s0.x] }`);
    expect(checkDominance(oneBranch, sec22)).toHaveLength(1);
  });

  it('both branches of a specialization computing the producer dominate what follows', () => {
    const t = tgt(`pipeline f(n; x in (x.min, x.len)): {
      allocate g(x in (x.min, x.len + 1));
      label g: if n > 0 then label g.s0: for g.s0.k1.x in (x.min, x.len + 1) do g[g.s0.k1.x] <- 0
               else label g.s0: for g.s0.x in (x.min, x.len + 1) do g[g.s0.x] <- 0;
      allocate f(x in (x.min, x.len));
      label f: label f.s0: for f.s0.x in (x.min, x.len) do f[f.s0.x] <- g[f.s0.x] }`);
    expect(checkDominance(t, sec22)).toEqual([]);
    expect(checkLoopNaming(t)).toEqual([]);
  });

  it('a producer computed at the consumer loop, before the assignment (compute-at)', () => {
    const t = tgt(`pipeline f(; x in (x.min, x.len)): {
      allocate g(x in (x.min, x.len + 1));
      allocate f(x in (x.min, x.len));
      label f: label f.s0: for f.s0.x in (x.min, x.len) do {
        label g: label g.s0: for g.s0.x in (f.s0.x, 2) do g[g.s0.x] <- 0;
        f[f.s0.x] <- g[f.s0.x] } }`);
    expect(checkDominance(t, sec22)).toEqual([]);
  });

  it('loops and assignments of a func before its allocation', () => {
    const t = tgt(`pipeline f(; x in (x.min, x.len)): {
      label g: label g.s0: for g.s0.x in (x.min, x.len + 1) do g[g.s0.x] <- 0;
      allocate g(x in (x.min, x.len + 1));
      allocate f(x in (x.min, x.len));
      label f: label f.s0: for f.s0.x in (x.min, x.len) do f[f.s0.x] <- g[f.s0.x] }`);
    expect(checkDominance(t, sec22)).toEqual([
      '[DOMINANCE] allocate g does not dominate loop g.s0.x',
      expect.stringContaining('allocate g does not dominate the assignment'),
    ]);
  });
});
