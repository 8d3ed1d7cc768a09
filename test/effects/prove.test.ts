// Safety conditions decided by Z3 (spec/effects.md), on cases of the kinds Exo's scheduling tests
// cover — loop reordering, fission, fusion, loop removal, lifting an allocation, parallel loops —
// each with an accepted and a refused variant, plus the cases Exo's tracker records.
import { afterAll, describe, expect, it } from 'vitest';
import { shutdownZ3 } from '../../src/expr/smt.js';
import { prove } from '../../src/effects/prove-z3.js';
import type { Obligation } from '../../src/effects/obligation.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { type StmtPath, loopsOf } from '../../src/target-semantics/walk.js';
import { parseExprText } from '../../src/expr/parse.js';

afterAll(shutdownZ3);

const prog = (body: string): TgtProgram => parseTgt(`pipeline f(n, m; x in (x.min, x.len)):\n{\n${body}\n}`, 'case.tgt');
const loop = (t: TgtProgram, v: string): StmtPath => loopsOf(t).find((l) => l.stmt.var === v)!.path;
const answer = (o: Obligation) => prove(o);
const verdict = async (o: Obligation) => (await prove(o)).k;
const ALLOC = 'allocate f(x in (0, 100), y in (0, 100)); allocate g(x in (0, 100));';

/** `[accepted, refused]` pairs: the rule, the accepted program, the refused program. */
const reorderCases: [string, string, string][] = [
  ['a pure 2-D nest', 'for f.s0.y in (0, n) do for f.s0.x in (0, m) do f[f.s0.x, f.s0.y] <- f.s0.x + f.s0.y',
    'for f.s0.y in (1, n) do for f.s0.x in (0, m) do f[f.s0.x, f.s0.y] <- f[f.s0.x + 1, f.s0.y - 1]'],
  ['a reduction written as a read-modify-write (Exo tracker)', 'for f.s0.y in (0, n) do for f.s0.x in (0, m) do g[0] <- g[0] + f.s0.x * f.s0.y',
    'for f.s0.y in (0, n) do for f.s0.x in (0, m) do g[0] <- g[0] * 2 + f.s0.x * f.s0.y'],
  ['a reduction into a row', 'for f.s0.y in (0, n) do for f.s0.x in (0, m) do g[f.s0.x] <- max(g[f.s0.x], f.s0.y)',
    'for f.s0.y in (0, n) do for f.s0.x in (0, m) do g[f.s0.x + f.s0.y] <- g[f.s0.x + f.s0.y] * 2 + f.s0.x'],
  ['a stencil reading only an input', 'for f.s0.y in (0, n) do for f.s0.x in (0, m) do f[f.s0.x, f.s0.y] <- g[f.s0.x] + g[f.s0.y]',
    'for f.s0.y in (0, n) do for f.s0.x in (0, m) do g[f.s0.x + f.s0.y] <- f.s0.x'],
  ['a let and a guard between the loops', 'for f.s0.y in (0, n) do let f.s0.z = f.s0.y * 2 in if f.s0.z < m then for f.s0.x in (0, m) do f[f.s0.x, f.s0.z] <- 1',
    'for f.s0.y in (0, n) do let f.s0.z = f.s0.y * 2 in if f.s0.z < m then for f.s0.x in (0, m) do f[0, 0] <- f.s0.z + f.s0.x'],
  ['two reductions with different operators', 'for f.s0.y in (0, n) do for f.s0.x in (0, m) do { g[0] <- g[0] + 1; g[1] <- g[1] * 2 }',
    'for f.s0.y in (0, n) do for f.s0.x in (0, m) do { g[0] <- g[0] + f.s0.x; g[0] <- g[0] * 2 }'],
  ['a transpose copy', 'for f.s0.y in (0, n) do for f.s0.x in (0, m) do f[f.s0.y, f.s0.x] <- g[f.s0.x] * 3',
    'for f.s0.y in (0, n) do for f.s0.x in (0, m) do g[0] <- g[1] + f.s0.x - f.s0.y'],
  ['a write in one loop and a read of another array', 'for f.s0.y in (0, n) do for f.s0.x in (0, m) do g[f.s0.x] <- f[f.s0.x, 0] + f.s0.y * 0',
    'for f.s0.y in (0, n) do for f.s0.x in (0, m) do f[f.s0.x, f.s0.y + 1] <- f[f.s0.x + 1, f.s0.y]'],
  ['a min reduction into a column (refused: one cell, order-sensitive update)', 'for f.s0.y in (0, n) do for f.s0.x in (0, m) do g[f.s0.y] <- min(g[f.s0.y], f.s0.x)',
    'for f.s0.y in (0, n) do for f.s0.x in (0, m) do g[0] <- min(g[0], f.s0.x) * 2 + f.s0.y'],
];

describe('[SAFE-REORDER] loop reordering (§3.5.8), [SAFE-COMMUTES] with [EFF-REDUCE] per operator', () => {
  for (const [what, ok, bad] of reorderCases) {
    it(`${what}: accepted`, async () => {
      const t = prog(`${ALLOC}\n${ok}`);
      expect(await answer({ k: 'reorder', t, loop: loop(t, 'f.s0.y') })).toMatchObject({ k: 'proved' });
    });
    it(`${what}: refused with a witness`, async () => {
      const t = prog(`${ALLOC}\n${bad}`);
      const a = await answer({ k: 'reorder', t, loop: loop(t, 'f.s0.y') });
      expect(a.k).toBe('refuted');
      if (a.k === 'refuted') expect(Object.keys(a.witness)).toEqual(expect.arrayContaining(['f.s0.y', "f.s0.y'"]));
    });
  }

  it('reorder after a split is accepted (Exo tracker)', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.y in (0, n) do for f.s0.xo in (0, (m + 3) / 4) do for f.s0.xi in (0, 4) do let f.s0.x = f.s0.xo * 4 + f.s0.xi in if f.s0.x < m then f[f.s0.x, f.s0.y] <- f.s0.x`);
    expect(await verdict({ k: 'reorder', t, loop: loop(t, 'f.s0.y') })).toBe('proved');
    expect(await verdict({ k: 'reorder', t, loop: loop(t, 'f.s0.xo') })).toBe('proved');
  });

  it('a loop bound that would escape its loop is refused (Exo tracker)', async () => {
    // The inner loop's extent depends on the outer variable: after reordering it would be unbound.
    const t = prog(`${ALLOC}\nfor f.s0.y in (0, n) do for f.s0.x in (0, f.s0.y) do g[f.s0.x] <- g[f.s0.x] + 1`);
    expect(await verdict({ k: 'reorder', t, loop: loop(t, 'f.s0.y') })).not.toBe('proved');
  });
});

describe('[SAFE-FISSION] fission (§3.5.8); [EFF-TERNARY] [EFF-DECIDE] unknown on data', () => {
  it('independent statements: accepted', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do { g[f.s0.x] <- f.s0.x; f[f.s0.x, 0] <- g[f.s0.x] }`);
    expect(await verdict({ k: 'fission', t, loop: loop(t, 'f.s0.x'), at: 1 })).toBe('proved');
  });
  it('a later iteration of the first part reads what the second wrote: refused', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do { g[f.s0.x] <- f[f.s0.x - 1, 0]; f[f.s0.x, 0] <- g[f.s0.x] }`);
    expect(await verdict({ k: 'fission', t, loop: loop(t, 'f.s0.x'), at: 1 })).toBe('refuted');
  });
  it('value-dependent fission is unknown, not refuted (Exo tracker)', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do { f[g[f.s0.x], 0] <- 1; f[f.s0.x, 0] <- 2 }`);
    const a = await answer({ k: 'fission', t, loop: loop(t, 'f.s0.x'), at: 1 });
    expect(a).toMatchObject({ k: 'unknown' });
    if (a.k === 'unknown') expect(a.reason).toMatch(/depends on data/);
  });
  it('reductions by one operator in both parts: accepted', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do { g[0] <- g[0] + f.s0.x; g[0] <- g[0] + 1 }`);
    expect(await verdict({ k: 'fission', t, loop: loop(t, 'f.s0.x'), at: 1 })).toBe('proved');
  });
  it('a reduction and a read of its location: refused', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do { g[0] <- g[0] + f.s0.x; f[f.s0.x, 0] <- g[0] }`);
    expect(await verdict({ k: 'fission', t, loop: loop(t, 'f.s0.x'), at: 1 })).toBe('refuted');
  });
});

describe('[SAFE-FISSION] [SAFE-REMOVE] further accepted/refused pairs', () => {
  it('fission: a shifted read of an input that no part writes is accepted', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do { f[f.s0.x, 0] <- g[f.s0.x + 1]; f[f.s0.x, 1] <- g[f.s0.x] }`);
    expect(await verdict({ k: 'fission', t, loop: loop(t, 'f.s0.x'), at: 1 })).toBe('proved');
  });
  it('fission: a read one ahead of what the first part writes is refused', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do { g[f.s0.x] <- 1; f[f.s0.x, 0] <- g[f.s0.x + 1] }`);
    expect(await verdict({ k: 'fission', t, loop: loop(t, 'f.s0.x'), at: 1 })).toBe('refuted');
  });
  it('remove loop: a copy between two cells is idempotent and accepted', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, 4) do g[1] <- g[0] + 1`);
    expect(await verdict({ k: 'remove-loop', t, loop: loop(t, 'f.s0.x') })).toBe('proved');
  });
  it('remove loop: a doubling in place is refused', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, 4) do g[0] <- g[0] * 2`);
    expect(await verdict({ k: 'remove-loop', t, loop: loop(t, 'f.s0.x') })).toBe('refuted');
  });
});

describe('[SAFE-FUSE] fusion, with [EFF-EXTENT]', () => {
  it('fusing two nested loops visits every pair once, in order', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.y in (0, x.len) do for f.s0.x in (0, ?cpu.len(f.x)) do f[f.s0.x, f.s0.y] <- 1`);
    expect(await verdict({ k: 'fuse-exact', t, loop: loop(t, 'f.s0.y') })).toBe('proved');
  });
  it('two loops of negative extent: fused, they would run', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.y in (0, n) do for f.s0.x in (0, m) do f[f.s0.x, f.s0.y] <- 1`);
    const a = await answer({ k: 'fuse-exact', t, loop: loop(t, 'f.s0.y') });
    expect(a).toMatchObject({ k: 'refuted' });
    if (a.k === 'refuted') expect(Number(a.witness.n) < 0 && Number(a.witness.m) < 0).toBe(true);
  });
  it('an inner loop whose extent depends on the outer one cannot be fused', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.y in (0, n) do for f.s0.x in (0, f.s0.y) do f[f.s0.x, f.s0.y] <- 1`);
    expect(await verdict({ k: 'fuse-exact', t, loop: loop(t, 'f.s0.y') })).not.toBe('proved');
  });
});

describe('[SAFE-REMOVE] loop removal (§3.5.8), [SAFE-SHADOWS]', () => {
  it('an idempotent body in a loop that runs: accepted', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, 4) do g[0] <- n`);
    expect(await verdict({ k: 'remove-loop', t, loop: loop(t, 'f.s0.x') })).toBe('proved');
  });
  it('a loop that may run zero times: refused', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do g[0] <- m`);
    expect(await verdict({ k: 'remove-loop', t, loop: loop(t, 'f.s0.x') })).toBe('refuted');
  });
  it('an accumulating body: refused', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, 4) do g[0] <- g[0] + 1`);
    expect(await verdict({ k: 'remove-loop', t, loop: loop(t, 'f.s0.x') })).toBe('refuted');
  });
});

describe('[EFF-VALUE] two writes of one point conflict only when their values may differ', () => {
  // What a split with a shifted tail leaves: the last two outer iterations overlap on one point.
  const SHIFTED = 'for f.s0.y in (0, n) do for f.s0.xo in (0, 3) do for f.s0.xi in (0, 2) do let f.s0.x = min(f.s0.xo * 2, m - 2) + f.s0.xi in';
  it('a recomputed point of a pure stage: the reorder is proved', async () => {
    const t = prog(`${ALLOC}\n${SHIFTED} f[f.s0.x, f.s0.y] <- (f.s0.x * 3 + f.s0.y) % 7`);
    expect(await verdict({ k: 'reorder', t, loop: loop(t, 'f.s0.y') })).toBe('proved');
    expect(await verdict({ k: 'parallel', t, loop: loop(t, 'f.s0.xo') })).toBe('proved');
  });
  it('a recomputed point whose value reads a buffer nobody writes here: proved', async () => {
    const t = prog(`${ALLOC}\n${SHIFTED} f[f.s0.x, f.s0.y] <- g[f.s0.x] + f.s0.y`);
    expect(await verdict({ k: 'reorder', t, loop: loop(t, 'f.s0.y') })).toBe('proved');
  });
  it('a value that depends on the iteration, not the point: refuted with a witness', async () => {
    const t = prog(`${ALLOC}\n${SHIFTED} f[f.s0.x, f.s0.y] <- f.s0.xo`);
    const a = await answer({ k: 'parallel', t, loop: loop(t, 'f.s0.xo') });
    expect(a.k).toBe('refuted');
    if (a.k === 'refuted') expect(a.witness['f.s0.xo']).not.toBe(a.witness["f.s0.xo'"]);
  });
  it('a value read from a point the iterations write: unknown, with the reason', async () => {
    const t = prog(`${ALLOC}\n${SHIFTED} { g[f.s0.x] <- 1; f[f.s0.x, f.s0.y] <- g[f.s0.x] }`);
    const a = await answer({ k: 'parallel', t, loop: loop(t, 'f.s0.xo') });
    expect(a.k).toBe('unknown');
    if (a.k === 'unknown') expect(a.reason).toContain('g[…], if the compared statements modify it');
  });
});

describe('[SAFE-PARALLEL] parallel loops, [SAFE-PRIVATE] private buffers, [EFF-ALLOC] [EFF-COVER] [EFF-MEMBER]', () => {
  it('a pure loop may run in parallel', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do f[f.s0.x, 0] <- g[f.s0.x]`);
    expect(await verdict({ k: 'parallel', t, loop: loop(t, 'f.s0.x') })).toBe('proved');
  });
  it('a reduction loop may not (the executors report a race)', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do g[0] <- g[0] + f.s0.x`);
    expect(await verdict({ k: 'parallel', t, loop: loop(t, 'f.s0.x') })).toBe('refuted');
  });
  it('an in-place update of its own cell may run in parallel', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do g[f.s0.x] <- g[f.s0.x] * 2 + 1`);
    expect(await verdict({ k: 'parallel', t, loop: loop(t, 'f.s0.x') })).toBe('proved');
  });
  it('reading the cell the previous iteration wrote may not', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (1, n) do g[f.s0.x] <- g[f.s0.x - 1] + 1`);
    expect(await verdict({ k: 'parallel', t, loop: loop(t, 'f.s0.x') })).toBe('refuted');
  });
  it('a buffer allocated inside the iteration is private to it', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do { allocate h(x in (0, 1)); h[0] <- f.s0.x; f[f.s0.x, 0] <- h[0] }`);
    expect(await verdict({ k: 'parallel', t, loop: loop(t, 'f.s0.x') })).toBe('proved');
  });
  it('lifting an allocation out of a loop: a buffer written before it is read in each iteration', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do { g[0] <- f.s0.x; f[f.s0.x, 0] <- g[0] }`);
    expect(await verdict({ k: 'private', t, loop: loop(t, 'f.s0.x'), buf: 'g' })).toBe('proved');
  });
  it('lifting an allocation out of a loop: a value that flows to the next iteration is refused', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (0, n) do { f[f.s0.x, 0] <- g[0]; g[0] <- f.s0.x }`);
    expect(await verdict({ k: 'private', t, loop: loop(t, 'f.s0.x'), buf: 'g' })).toBe('refuted');
  });
});

describe('[SAFE-COMMUTES] and [SAFE-SHADOWS] (§3.5.7)', () => {
  it('statements on disjoint locations commute; a write and a read of one location do not', async () => {
    const t = prog(`${ALLOC}\ng[0] <- 1; g[1] <- 2; f[0, 0] <- g[0]`);
    expect(await verdict({ k: 'commutes', t, a: [2], b: [3] })).toBe('proved');
    expect(await verdict({ k: 'commutes', t, a: [2], b: [4] })).toBe('refuted');
  });
  it('a write is shadowed by a later write of the same location, not by one of another', async () => {
    const t = prog(`${ALLOC}\ng[0] <- 1; g[0] <- 2; g[1] <- 3`);
    expect(await verdict({ k: 'shadows', t, a: [2], b: [3] })).toBe('proved');
    expect(await verdict({ k: 'shadows', t, a: [2], b: [4] })).toBe('refuted');
  });
});

describe('[SAFE-SPLIT] split as a bijection of iteration spaces', () => {
  it('a guard split by a constant', async () => {
    const t = prog(`${ALLOC}\nfor f.s0.x in (x.min, x.len) do f[f.s0.x, 0] <- 1`);
    expect(await verdict({ k: 'split-exact', t, loop: loop(t, 'f.s0.x'), factor: parseExprText('3', 'tgt') })).toBe('proved');
  });
});

describe('[SAFE-UNMODELLED] what the analysis cannot state', () => {
  it('is unknown with its reason, never proved', async () => {
    expect(await answer({ k: 'unmodelled', why: 'a rewrite of another shape' })).toEqual({ k: 'unknown', reason: 'a rewrite of another shape' });
  });
});
