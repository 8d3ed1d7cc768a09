// Example tests for every directive's rewrite and every validity rule (spec/schedule.md).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reorderSwaps } from '../../src/schedule/reorder.js';
import { loopsOf } from '../../src/target-semantics/walk.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { printTgt } from '../../src/target-semantics/print.js';
import { isPure, pureVars } from '../../src/schedule/loops.js';
import { generateCall } from '../../src/schedule/apply.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import { traverse } from '../../src/schedule/traverse.js';
import { parallelOverlap, requireDisjointParallel } from '../../src/schedule/disjoint.js';
import type { DirectiveCtx } from '../../src/schedule/plugin.js';
import { seededRng } from '../../src/rng.js';
import { checkDominance } from '../../src/lowering/invariants.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';
import { CHAIN, GRID, REDUCE, SEC22, THREE, body, expectRejection, scheduled } from './helpers.js';

/** The pointwise func the round-tail race was found on (a race-free fuzz campaign). */
const ROUND_UNDER_SPLIT = `
pipeline f1() {
  func f0(x, y) = x + 3 * y;
  func f1(x, y) = f0(x, y) * 1 + f0(x, y);
}`;

const loopVars = (t: ReturnType<typeof scheduled>) => loopsOf(t).map((l) => l.stmt.var);

describe('specialize', () => {
  it('[SPECIALIZE] copies the func behind each condition, renaming loops and stage-tagged holes and references', () => {
    const t = scheduled(REDUCE, 'specialize f when n > 4, n == 0');
    const s = body(t);
    expect(s).toContain('label f:\n    if n > 4 then {');
    expect(loopVars(t)).toEqual(['g.s0.x', 'f.s0.k1.x', 'f.s1.k1.x', 'f.s1.k1.s', 'f.s1.k1.r', 'f.s0.k2.x', 'f.s1.k2.x', 'f.s1.k2.s', 'f.s1.k2.r', 'f.s0.x', 'f.s1.x', 'f.s1.s', 'f.s1.r']);
    // stage 0 is not final: its holes and the reads of it carry the specialization
    expect(s).toContain('?cpu.min(f.x@s0.k1)');
    expect(s).toContain('f@s0.k1[f.s1.k1.x]');
    expect(s).toContain('f@s0.k2[f.s1.k2.x]');
    // the final stage's hole is shared by every copy (def. 2.14)
    expect(s).not.toContain('?cpu.min(f.x@s1');
    expect(s.match(/\?cpu\.min\(f\.x\)/g)).toHaveLength(3);
  });
  it('a specialized program prints and parses back, final-stage stores keeping their specialization', () => {
    const t = scheduled(REDUCE, 'specialize f when n > 4, n == 0');
    const text = printTgt(t);
    expect(text).toContain('f@k2[f.s1.k2.x] <-');
    expect(printTgt(parseTgt(text, 'p.tgt'))).toBe(text);
  });
  it('[SPECIALIZE-ONCE] at most one specialize per func', () => {
    expectRejection(() => scheduled(REDUCE, 'specialize f when n > 4\nspecialize f when n > 2'), 'SPECIALIZE-ONCE', ["'f'", 'test.sched:1:1'], 2);
  });
  it('[SCHED-STARTUP] conditions are startup expressions', () => {
    expectRejection(() => scheduled(REDUCE, 'specialize f when f.s0.x > 4'), 'SCHED-STARTUP', ['f.s0.x', 'condition 1']);
    expectRejection(() => scheduled(REDUCE, 'specialize f when g[0] > 4'), 'SCHED-STARTUP', ["'g'"]);
    expectRejection(() => scheduled(REDUCE, 'specialize f when ?cpu.min(f.x) > 4'), 'SCHED-STARTUP', ['hole']);
  });
  it('window parameters count as startup', () => {
    expect(loopVars(scheduled(SEC22, 'specialize f when x.len > 3'))).toContain('f.s0.k1.x');
  });
  it('[SCHED-LOOP] the short loop name of a specialized func is ambiguous', () => {
    expectRejection(() => scheduled(REDUCE, 'specialize f when n > 4\nsplit f.x by 2'), 'SCHED-LOOP', ['ambiguous', 'f.s1.k1.x'], 2);
    expect(loopVars(scheduled(REDUCE, 'specialize f when n > 4\nsplit f.s1.k1.x by 2'))).toContain('f.s1.k1.xo');
  });
});

describe('split', () => {
  it('[SPLIT] guard: outer and inner loop, the old variable let-bound, the tail guarded', () => {
    const t = scheduled(SEC22, 'split f.x into a, b by 3');
    expect(body(t)).toContain([
      'for f.s0.a in (0, (?cpu.len(f.x) + 2) / 3) do',
      '        for f.s0.b in (0, 3) do',
      '          let f.s0.x = ?cpu.min(f.x) + f.s0.a * 3 + f.s0.b in',
      '            if f.s0.x < ?cpu.min(f.x) + ?cpu.len(f.x) then if 1 then f[f.s0.x] <- g[f.s0.x] + g[f.s0.x + 1]',
    ].join('\n'));
  });
  it('[SPLIT] shift moves the last tile inwards; round computes past the end', () => {
    expect(body(scheduled(SEC22, 'split f.x by 4 tail shift'))).toContain(
      'let f.s0.x = min(?cpu.min(f.x) + f.s0.xo * 4, ?cpu.min(f.x) + ?cpu.len(f.x) - 4) + f.s0.xi in\n            if 1 then');
    expect(body(scheduled(SEC22, 'split f.x by 4 tail round'))).toContain('let f.s0.x = ?cpu.min(f.x) + f.s0.xo * 4 + f.s0.xi in\n            if 1 then');
  });
  it('[SPLIT] a non-constant factor is asserted positive in front of the loop', () => {
    const s = body(scheduled(GRID, 'split f.x by n'));
    expect(s).toContain('assert n > 0;\n');
    expect(s).toContain('for f.s0.xo in (0, (?cpu.len(f.x) + (n - 1)) / n) do');
  });
  it('new loops are pure iff the split loop is (def. 2.16)', () => {
    const t = scheduled(REDUCE, 'split f.s1.x by 2\nsplit f.s1.r by 2\nsplit f.s1.xo by 2');
    for (const v of ['f.s1.xo', 'f.s1.xi', 'f.s1.xoo', 'f.s1.xoi', 'f.s0.x']) expect(isPure(t, v), v).toBe(true);
    for (const v of ['f.s1.ro', 'f.s1.ri', 'f.s1.s']) expect(isPure(t, v), v).toBe(false);
    expect([...pureVars(t)]).not.toContain('f.s1.r');
  });
  it('[SPLIT-TAIL] shift and round only on funcs without update stages', () => {
    expectRejection(() => scheduled(REDUCE, 'split f.s0.x by 2 tail shift'), 'SPLIT-TAIL', ["'f'", '2 stages', 'f.s0.x']);
    expectRejection(() => scheduled(REDUCE, 'split f.x by 2 tail round'), 'SPLIT-TAIL', ["'f'"]);
  });
  it('[SPLIT-FACTOR] a constant factor must be positive', () => {
    expectRejection(() => scheduled(SEC22, 'split f.x by 0'), 'SPLIT-FACTOR', ['positive', '0']);
    expectRejection(() => scheduled(SEC22, 'split f.x by 1 - 3'), 'SPLIT-FACTOR', ['-2']);
  });
  it('[SPLIT-NAMES] exactly two new names', () => {
    expectRejection(() => scheduled(SEC22, 'split f.x into a, b, c by 2'), 'SPLIT-NAMES', ['not 3']);
  });
  it('[SCHED-FRESH] new names must be fresh and not dimensions', () => {
    expectRejection(() => scheduled(SEC22, 'split f.x into a, a by 2'), 'SCHED-FRESH', ['f.s0.a']);
    expectRejection(() => scheduled(SEC22, 'split f.x by 2\nsplit f.xi into xo, q by 2'), 'SCHED-FRESH', ['f.s0.xo'], 2);
    expectRejection(() => scheduled(SEC22, 'split f.x into x, q by 2'), 'SCHED-FRESH', ['dimension', "'x'"]);
    expectRejection(() => scheduled(GRID, 'split f.x into y, q by 2'), 'SCHED-FRESH', ['dimension', "'y'"]);
  });
  it('[SCHED-STARTUP] the factor is a startup expression', () => {
    expectRejection(() => scheduled(GRID, 'split f.x by f.s0.y'), 'SCHED-STARTUP', ['f.s0.y', 'split factor']);
  });
  it('[SCHED-LOOP] / [SCHED-FUNC] unknown loops and funcs', () => {
    expectRejection(() => scheduled(SEC22, 'split f.z by 2'), 'SCHED-LOOP', ['f.s0.z', 'f.s0.x']);
    expectRejection(() => scheduled(SEC22, 'split f.s1.x by 2'), 'SCHED-LOOP', ['f.s1.x']);
    expectRejection(() => scheduled(SEC22, 'split q.x by 2'), 'SCHED-FUNC', ["'q'", 'g, f']);
  });
});

describe('fuse', () => {
  it('[FUSE] two nested pure loops become one over the product', () => {
    const t = scheduled(GRID, 'fuse f.y into yx');
    expect(body(t)).toContain([
      'for f.s0.yx in (0, ?cpu.len(f.y) * ?cpu.len(f.x)) do',
      '        let f.s0.y = ?cpu.min(f.y) + f.s0.yx / ?cpu.len(f.x) in',
      '          let f.s0.x = ?cpu.min(f.x) + f.s0.yx % ?cpu.len(f.x) in',
    ].join('\n'));
    expect(isPure(t, 'f.s0.yx')).toBe(true);
  });
  it('[FUSE] two reduction loops fuse into a reduction loop', () => {
    const t = scheduled(REDUCE, 'fuse f.s1.s into sr');
    expect(isPure(t, 'f.s1.sr')).toBe(false);
  });
  it('[FUSE-KIND] a pure loop does not fuse with a reduction loop', () => {
    expectRejection(() => scheduled(REDUCE, 'fuse f.s1.x into xs'), 'FUSE-KIND', ['f.s1.x', 'f.s1.s']);
  });
  it('[FUSE-NESTED] the named loop must have a loop immediately inside', () => {
    expectRejection(() => scheduled(GRID, 'fuse f.x into q'), 'FUSE-NESTED', ['f.s0.x']);
  });
  it('[FUSE-BOUNDS] the inner bounds may not depend on the outer loop', () => {
    const tgt = `pipeline f(; x in (x.min, x.len), y in (y.min, y.len)): {
      allocate f(x in (?mem.min(f.x), ?mem.len(f.x)), y in (?mem.min(f.y), ?mem.len(f.y)));
      label f: label f.s0: for f.s0.x in (?cpu.min(f.x), ?cpu.len(f.x)) do for f.s0.y in (f.s0.x, 2) do f[f.s0.x, f.s0.y] <- 1 }`;
    expectRejection(() => scheduled(tgt, 'fuse f.s0.x into q'), 'FUSE-BOUNDS', ['f.s0.y', 'f.s0.x']);
  });
});

describe('swap', () => {
  it('[SWAP] exchanges two nested loops, each keeping its traversal', () => {
    const t = scheduled(GRID, 'traverse f.y parallel\nswap f.y');
    expect(body(t)).toContain('for f.s0.x in (?cpu.min(f.x), ?cpu.len(f.x)) do\n        for parallel f.s0.y in (?cpu.min(f.y), ?cpu.len(f.y)) do');
  });
  it('[SWAP] looks through the lets and guards of earlier splits', () => {
    const t = scheduled(GRID, 'split f.x by 2\nsplit f.y by 3\nswap f.yi');
    expect(loopVars(t).slice(-4)).toEqual(['f.s0.yo', 'f.s0.xo', 'f.s0.yi', 'f.s0.xi']);
  });
  it('[SWAP] a pure loop may cross a reduction loop', () => {
    expect(loopVars(scheduled(REDUCE, 'swap f.s1.x')).slice(-3)).toEqual(['f.s1.s', 'f.s1.x', 'f.s1.r']);
  });
  it('[SWAP-REDUCTION] two reduction loops never swap', () => {
    expectRejection(() => scheduled(REDUCE, 'swap f.s1.s'), 'SWAP-REDUCTION', ['f.s1.s', 'f.s1.r']);
  });
  it('[SWAP-NESTED] needs an immediately nested loop', () => {
    expectRejection(() => scheduled(SEC22, 'swap f.x'), 'SWAP-NESTED', ['f.s0.x']);
  });
  it('[SWAP-BOUNDS] a loop never moves above one its bounds depend on', () => {
    const tgt = `pipeline f(; x in (x.min, x.len)): {
      allocate f(x in (?mem.min(f.x), ?mem.len(f.x)));
      label f: label f.s0: for f.s0.x in (?cpu.min(f.x), ?cpu.len(f.x)) do for f.s0.y in (0, f.s0.x) do f[f.s0.x] <- f.s0.y }`;
    expectRejection(() => scheduled(tgt, 'swap f.s0.x'), 'SWAP-BOUNDS', ['f.s0.y', 'f.s0.x']);
  });
});

describe('reorder', () => {
  it('[REORDER] permutes a nest by swaps, outermost first', () => {
    const t = scheduled(GRID, 'split f.x by 2\nsplit f.y by 2\nreorder f.yo, f.xo, f.yi, f.xi');
    expect(loopVars(t).slice(-4)).toEqual(['f.s0.yo', 'f.s0.xo', 'f.s0.yi', 'f.s0.xi']);
    const u = scheduled(GRID, 'reorder f.x, f.y');
    expect(loopVars(u).slice(-2)).toEqual(['f.s0.x', 'f.s0.y']);
  });
  it('[REORDER] unlisted loops keep their places', () => {
    const t = scheduled(GRID, 'split f.x by 2\nreorder f.xi, f.y');
    expect(loopVars(t).slice(-3)).toEqual(['f.s0.xi', 'f.s0.xo', 'f.s0.y']);
  });
  it('the swaps it computes put any listed subset in the listed order, others staying put', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { minLength: 2, maxLength: 8 }).chain((chain) =>
      fc.tuple(fc.constant(chain.map(String)), fc.shuffledSubarray(chain.map(String), { minLength: 2 }))), ([chain, listed]) => {
      const cur = [...chain];
      for (const outer of reorderSwaps(chain, listed)) {
        const i = cur.indexOf(outer);
        [cur[i], cur[i + 1]] = [cur[i + 1]!, cur[i]!];
      }
      expect(cur.filter((v) => listed.includes(v))).toEqual(listed);
      chain.forEach((v, i) => {
        if (!listed.includes(v)) expect(cur[i]).toBe(v);
      });
    }), { numRuns: 200, seed: 3 });
  });
  it('[REORDER-NEST] loops of one nest only; each swap is checked', () => {
    expectRejection(() => scheduled(GRID, 'reorder f.x, g.x'), 'REORDER-NEST', ['g.s0.x']);
    expectRejection(() => scheduled(GRID, 'reorder f.x, f.x'), 'REORDER-NEST', ['twice']);
    expectRejection(() => scheduled(REDUCE, 'reorder f.s1.r, f.s1.s'), 'SWAP-REDUCTION', ["step 'swap f.s1.s'"]);
  });
});

describe('traverse, vectorize, unroll', () => {
  it('[TRAVERSE] sets the traversal of a pure loop', () => {
    expect(body(scheduled(GRID, 'traverse f.y parallel'))).toContain('for parallel f.s0.y in');
    expect(body(scheduled(GRID, 'traverse f.y parallel\ntraverse f.y serial'))).not.toContain('parallel');
  });
  // The overlap the injectivity argument finds for a parallel loop of t (undefined: disjoint).
  const overlapOf = (t: ReturnType<typeof scheduled>, loop: string) => parallelOverlap(t, loopsOf(t).find((l) => l.stmt.var === loop)!);
  it('[TRAVERSE-DISJOINT] a parallel loop over the overlapping tiles of a shift split: found, and accepted for a pure stage', () => {
    const why = ['f.s0.xo', 'min(', 'tail shift'];
    const found = (sched: string, loop: string, names: readonly string[]) => {
      const o = overlapOf(scheduled(SEC22, sched), loop);
      for (const n of names) expect(o?.why).toContain(n.replace('f.s0.xo', ''));
    };
    found('split f.x by 4 tail shift\ntraverse f.s0.xo parallel', 'f.s0.xo', why);
    found('traverse f.x parallel\nsplit f.x by 4 tail shift', 'f.s0.xo', why);
    // The inner loop of a shift split moved outside the outer one meets itself across tiles.
    found('split f.x by 4 tail shift\nswap f.s0.xo\ntraverse f.s0.xi parallel', 'f.s0.xi', ['tail shift']);
    // Loops made from the outer loop keep the overlap: split again, or fused with its neighbour.
    expect(overlapOf(scheduled(SEC22, 'split f.x by 4 tail shift\nsplit f.xo by 2\ntraverse f.s0.xoo parallel'), 'f.s0.xoo')).toBeDefined();
    expect(overlapOf(scheduled(GRID, 'split f.x by 4 tail shift\nfuse f.y into yx\ntraverse f.s0.yx parallel'), 'f.s0.yx')).toBeDefined();
    // A shift tail longer than the loop it splits starts below it, in the previous outer iteration;
    // one no longer than that loop stays inside it.
    const nested = (e: number) => `split f.x into xo, xi by 3 tail round\nsplit f.xi into xio, xii by ${e} tail shift\ntraverse f.s0.xo parallel`;
    expect(overlapOf(scheduled(SEC22, nested(5)), 'f.s0.xo')?.why).toContain('f.s0.xi can leave (0, 3)');
    expect(overlapOf(scheduled(SEC22, nested(2)), 'f.s0.xo')).toBeUndefined();
    // The inner loop of a shift split, and the outer loops of guard and round splits, are disjoint.
    expect(overlapOf(scheduled(SEC22, 'split f.x by 4 tail shift\ntraverse f.s0.xi parallel'), 'f.s0.xi')).toBeUndefined();
    for (const tail of ['guard', 'round']) expect(overlapOf(scheduled(SEC22, `split f.x by 4 tail ${tail}\ntraverse f.s0.xo parallel`), 'f.s0.xo')).toBeUndefined();
  });
  it('[TRAVERSE-DISJOINT] an overlap in a stage that may read its own func is refused', () => {
    // No built-in directive puts a tail on an update; a plug-in's could. The update below reads f
    // at the points two iterations of its parallel loop write.
    const src = `pipeline f(; x in (x.min, x.len)): {
  allocate f(x in (x.min, x.len + 4));
  label f: {
    label f.s0: for f.s0.x in (x.min, x.len + 4) do f@s0[f.s0.x] <- f.s0.x;
    label f.s1: for f.s1.xo in (0, (x.len + 3) / 4) do for f.s1.xi in (0, 4) do
      let f.s1.x = min(x.min + f.s1.xo * 4, x.min + x.len - 4) + f.s1.xi in f@s1[f.s1.x] <- f@s0[f.s1.x] + 1
  }
}`;
    const before = parseTgt(src, 'upd.tgt');
    const after = parseTgt(src.replace('for f.s1.xo', 'for parallel f.s1.xo'), 'upd.tgt');
    const ctx = { reject: (rule: string, message: string) => { throw new Error(`[${rule}] ${message}`); } } as unknown as DirectiveCtx;
    expect(() => requireDisjointParallel(before, after, ctx)).toThrow(/\[TRAVERSE-DISJOINT\] distinct iterations of parallel loop f\.s1\.xo .*tail shift/);
    expect(() => requireDisjointParallel(before, before, ctx)).not.toThrow();
    // The traverse directive itself makes the check: the same loop made parallel by a schedule is refused.
    expectRejection(() => scheduled(src, 'traverse f.s1.xo parallel'), 'TRAVERSE-DISJOINT', ['f.s1.xo', 'tail shift', 'hint: split with tail guard, or run f.s1.xo serially']);
    expect(loopsOf(scheduled(src, 'traverse f.s1.xi parallel')).find((l) => l.stmt.var === 'f.s1.xi')?.stmt.trav).toBe('parallel');
  });
  describe('[TRAVERSE-DISJOINT] a round tail under a split overlaps once a parallel loop is moved outside the split', () => {
    // A round tail splitting the inner loop of an earlier split overshoots into the next outer
    // iteration; harmless while that outer loop runs around the parallel one, an overlap once inside.
    const SPLITS = 'split f1.s0.x into xo, xi by 1 tail guard\nsplit f1.s0.xi into xio, xii by 5 tail round\nfuse f1.s0.xio into xioxii';
    const why = 'f1.s0.xi can leave (0, 1) (it is split with tail round or shift), so f1.s0.x = ?cpu.min(f1.x) + f1.s0.xo * 1 + f1.s0.xi takes one value in two iterations of f1.s0.xo';
    it.each([
      ['traverse, then swap', `${SPLITS}\ntraverse f1.s0.xioxii parallel\nswap f1.s0.xo`, 'f1.s0.xioxii'],
      ['swap, then traverse', `${SPLITS}\nswap f1.s0.xo\ntraverse f1.s0.xioxii parallel`, 'f1.s0.xioxii'],
      ['reorder', `${SPLITS}\ntraverse f1.s0.xioxii parallel\nreorder f1.s0.xioxii, f1.s0.xo`, 'f1.s0.xioxii'],
      ['the round split last', 'split f1.s0.x into xo, xi by 1 tail guard\ntraverse f1.s0.xo parallel\nsplit f1.s0.xi into xio, xii by 5 tail round', 'f1.s0.xo'],
    ])('%s: found, accepted, and the run reports its equal writes', async (_, sched, loop) => {
      const t = scheduled(ROUND_UNDER_SPLIT, sched);
      if (loop === 'f1.s0.xioxii') expect(overlapOf(t, loop)?.why).toBe(why);
      else expect(overlapOf(t, loop)?.why).toContain('f1.s0.xi can leave (0, 1)');
      const { file } = scratch('refsem-round-');
      const r = await runCli(['exec', file('f1.alg', ROUND_UNDER_SPLIT), '--schedule', file('s.sched', sched), '--window', '0+2,0+1', '--compare']);
      expect(r.stdout + r.stderr).toContain('[VERDICT-EQUAL]');
      expect(r.code).toBe(0);
    });
    it('the same loops with the parallel loop inside the split still run, race-free', async () => {
      const { file } = scratch('refsem-round-');
      const alg = file('f1.alg', ROUND_UNDER_SPLIT);
      const serial = file('serial.sched', `${SPLITS}\ntraverse f1.s0.xioxii parallel\n`);
      const r = await runCli(['exec', alg, '--schedule', serial, '--window', '0+2,0+1', '--compare']);
      expect(r.stdout + r.stderr).toContain('[VERDICT-EQUAL]');
      expect(r.code).toBe(0);
    });
    it('a round tail that fits the loop it splits overshoots nothing, and may go outward', () => {
      // split by 8, then the inner loop by 4: the two inner tiles cover (0, 8) exactly.
      const t = scheduled(ROUND_UNDER_SPLIT, 'split f1.s0.x into xo, xi by 8\nsplit f1.s0.xi into xio, xii by 4 tail round\nfuse f1.s0.xio into xioxii\ntraverse f1.s0.xioxii parallel\nswap f1.s0.xo');
      expect(body(t)).toContain('for parallel f1.s0.xioxii');
      expect(overlapOf(t, 'f1.s0.xioxii')).toBeUndefined();
    });
    it('the inner loop of a split fused with a loop of symbolic extent stays in range: the outer loop may run in parallel', () => {
      // f.s0.yi = f.s0.yix / ?cpu.len(f.x) with f.s0.yix in (0, 5 · ?cpu.len(f.x)): yi stays in (0, 5).
      const t = scheduled(GRID, 'split f.y by 5\nfuse f.yi into yix\ntraverse f.s0.yo parallel');
      expect(body(t)).toContain('for parallel f.s0.yo');
      expect(overlapOf(t, 'f.s0.yo')).toBeUndefined();
    });
  });
  it('[TRAVERSE] proposes a parallel loop over the overlapping tiles of a pure stage', () => {
    const t = scheduled(SEC22, 'split f.x by 4 tail shift');
    const registry = builtinRegistry();
    const proposals = new Set<string>();
    for (let seed = 0; seed < 200; seed++) {
      const args = generateCall(traverse, t, seededRng(seed), registry)?.args as { loop: string; order: string } | undefined;
      if (args?.order === 'parallel') proposals.add(args.loop);
    }
    expect(proposals).toContain('f.s0.xi');
    expect(proposals).toContain('f.s0.xo');
  });
  it('[TRAVERSE-PURE] parallel only on pure loops', () => {
    expectRejection(() => scheduled(REDUCE, 'traverse f.s1.r parallel'), 'TRAVERSE-PURE', ['f.s1.r']);
    expectRejection(() => scheduled(REDUCE, 'split f.s1.r by 2\ntraverse f.s1.ro parallel'), 'TRAVERSE-PURE', ['f.s1.ro'], 2);
  });
  it('[VECTORIZE] / [UNROLL] mark a loop with a constant extent', () => {
    expect(body(scheduled(SEC22, 'split f.x by 4\nvectorize f.xi'))).toContain('for vectorize f.s0.xi in (0, 4)');
    expect(body(scheduled(REDUCE, 'unroll f.s1.r'))).toContain('for unroll f.s1.r in (0, 3)');
    expect(body(scheduled(SEC22, 'vectorize f.x\nbound f.x min 0 len 8'))).toContain('for vectorize f.s0.x');
  });
  it('[VECTORIZE-EXTENT] / [UNROLL-EXTENT] extents that are not constant', () => {
    expectRejection(() => scheduled(REDUCE, 'vectorize f.s1.s'), 'VECTORIZE-EXTENT', ['f.s1.s', 'n']);
    expectRejection(() => scheduled(SEC22, 'unroll f.x'), 'UNROLL-EXTENT', ['f.s0.x', 'after bounds inference']);
    expectRejection(() => scheduled(SEC22, 'vectorize f.x\nbound f.x min 0 len x.len'), 'VECTORIZE-EXTENT', ['f.s0.x']);
    // a later split of a vectorized loop leaves a vectorized outer loop, constant only if the holes are
    expectRejection(() => scheduled(SEC22, 'vectorize f.x\nsplit f.x by 2'), 'VECTORIZE-EXTENT', ['f.s0.xo']);
    expect(body(scheduled(SEC22, 'vectorize f.x\nsplit f.x by 2\nbound-extent f.x len 8'))).toContain('for vectorize f.s0.xo');
  });
});

describe('compute-at', () => {
  it('[COMPUTE-AT] moves the func statement first into the loop (fig. 2.2)', () => {
    const t = scheduled(SEC22, 'split f.x by 3\ncompute-at g at f.xo');
    expect(body(t)).toContain('for f.s0.xo in (0, (?cpu.len(f.x) + 2) / 3) do {\n        label g:');
  });
  it('[COMPUTE-AT-DOMINANCE] names the consumer left outside', () => {
    expectRejection(() => scheduled(THREE, 'compute-at g at f.x'), 'COMPUTE-AT-DOMINANCE', ["consumer 'h'", "'g'", 'f.s0.x']);
  });
  it('[COMPUTE-AT-DOMINANCE] a producer computed inside the one stage that reads it (lemma 2.5 per stage)', async () => {
    const BOX = 'pipeline box() {\n  func inp(x) = x * 2;\n  func box(x) {\n    0;\n    rdom(r = (0, 3)) in (x) <- box(x) + inp(x + r);\n  }\n}';
    for (const loop of ['box.s1.x', 'box.s1.r']) {
      const t = scheduled(BOX, `compute-at inp at ${loop}`);
      expect(checkDominance(t, loadPipeline(BOX, 'box.alg'))).toEqual([]);
      const { file } = scratch('refsem-stage-');
      const r = await runCli(['exec', file('box.alg', BOX), '--schedule', file('s.sched', `compute-at inp at ${loop}\n`), '--window', '-2+6', '--compare']);
      expect(r.stdout).toContain('[VERDICT-EQUAL]');
    }
    // inside the stage that does not read it, the producer would come after the stage that does
    expectRejection(() => scheduled(BOX, 'compute-at inp at box.s0.x'), 'COMPUTE-AT-DOMINANCE', ["consumer 'box'", 'outside loop box.s0.x']);
    // a stage reading it on both sides of the loop: still refused
    const BOTH = 'pipeline box() {\n  func inp(x) = x * 2;\n  func box(x) {\n    inp(x);\n    rdom(r = (0, 3)) in (x) <- box(x) + inp(x + r);\n  }\n}';
    expectRejection(() => scheduled(BOTH, 'compute-at inp at box.s1.x'), 'COMPUTE-AT-DOMINANCE', ["consumer 'box'", "'inp'"]);
  });
  it('[COMPUTE-AT-DOMINANCE] every specialization of the consumer must see the producer', () => {
    expectRejection(() => scheduled(SEC22, 'specialize f when x.len > 3\ncompute-at g at f.s0.k1.x'), 'COMPUTE-AT-DOMINANCE', ["consumer 'f'", 'f.s0.k1.x'], 2);
  });
  it('[SCHED-FUNC] a hand-written program must label the func it moves', () => {
    const tgt = `pipeline f(; x in (x.min, x.len)): {
      allocate g(x in (0, 9)); for g.s0.x in (0, 9) do g[g.s0.x] <- 1;
      allocate f(x in (x.min, x.len)); label f: label f.s0: for f.s0.x in (x.min, x.len) do f[f.s0.x] <- g[f.s0.x] }`;
    expectRejection(() => scheduled(tgt, 'compute-at g at f.x'), 'SCHED-FUNC', ["'label g: …'"]);
  });
  it('[COMPUTE-AT-OWN] not inside its own loops', () => {
    expectRejection(() => scheduled(THREE, 'compute-at g at g.x'), 'COMPUTE-AT-OWN', ['g.s0.x', "'g'"]);
  });
  it('[COMPUTE-AT-OUTPUT] the output stays at the top level', () => {
    expectRejection(() => scheduled(THREE, 'compute-at h at g.x'), 'COMPUTE-AT-OUTPUT', ["'h'"]);
  });
  it('[COMPUTE-AT-PARALLEL] a func computed in a parallel loop must be stored in it', () => {
    expectRejection(() => scheduled(SEC22, 'split f.x by 3\ntraverse f.xo parallel\ncompute-at g at f.xo'), 'COMPUTE-AT-PARALLEL', ["'g'", 'f.s0.xo', 'store-at g at f.s0.xo'], 3);
    expect(body(scheduled(SEC22, 'split f.x by 3\ntraverse f.xo parallel\ncompute-at g at f.xo\nstore-at g at f.xo'))).toContain('allocate g');
  });
  it('a func moves together with the funcs computed inside it', () => {
    const t = scheduled(CHAIN, 'compute-at g at f.x\ncompute-at f at h.x\nstore-at g at f.x');
    expect(body(t)).toMatch(/for h\.s0\.x[^]*label f:[^]*label g:/);
  });
});

describe('store-at', () => {
  it('[STORE-AT] moves the allocation first into the loop', () => {
    const t = scheduled(SEC22, 'split f.x by 3\ncompute-at g at f.xo\nstore-at g at f.xo');
    expect(body(t)).toContain('for f.s0.xo in (0, (?cpu.len(f.x) + 2) / 3) do {\n        allocate g(');
  });
  it('[STORE-AT-DOMINANCE] the allocation must dominate the computation and every consumer', () => {
    expectRejection(() => scheduled(SEC22, 'split f.x by 3\ncompute-at g at f.xo\nstore-at g at f.xi'), 'STORE-AT-DOMINANCE', ["'g'", 'f.s0.xi'], 3);
    expectRejection(() => scheduled(THREE, 'compute-at f at h.x\nstore-at g at h.x'), 'STORE-AT-DOMINANCE', ['label g', 'h.s0.x'], 2);
  });
  it('[STORE-AT-OWN] not inside its own computation', () => {
    expectRejection(() => scheduled(SEC22, 'store-at g at g.x'), 'STORE-AT-OWN', ['g.s0.x']);
  });
  it('[STORE-AT-ONCE] a second store-at of the same func is refused, naming the first', () => {
    expectRejection(() => scheduled(SEC22, 'split f.x by 3\ncompute-at g at f.xo\nstore-at g at f.xo\nstore-at g at f.xo'), 'STORE-AT-ONCE', ["'g'", 'f.xo', 'line 3'], 4);
  });
});

describe('bounds phase', () => {
  it('[BOUND] / [BOUND-EXTENT] / [ALIGN-BOUNDS] record hints and leave the loops alone', () => {
    const t = scheduled(GRID, 'bound f.x min 0 len 8\nbound-extent g.y len n + 2\nalign-bounds g.x modulus 4');
    expect(t.hints?.map((h) => h.k)).toEqual(['bound', 'bound-extent', 'align-bounds']);
    // only an assertion that the non-constant extent is not negative is added (lemma 2.17)
    expect(body(t)).toBe(body(scheduled(GRID, '')).replace('{\n', '{\n  assert !(n + 2 < 0);\n'));
  });
  it('[BOUNDS-DIM] / [HINT-STAGES] pure dimensions some stage loops over; the final stage\'s, or else the earlier stages\'', async () => {
    expectRejection(() => scheduled(GRID, 'bound f.z min 0 len 8'), 'BOUNDS-DIM', ["'z'", 'x, y']);
    const hist = `pipeline f() { func f(x, b) { 0; rdom(r = (0, 3)) in (x, r) <- f(x, r) + 1; } }`;
    expect(scheduled(hist, 'bound f.b min 0 len 3').hints).toMatchObject([{ k: 'bound', func: 'f', dim: 'b' }]);
    const { file } = scratch('refsem-hint-stages-');
    const alg = file('hist.alg', hist);
    for (const [sched, window, verdict] of [
      ['bound f.b min 0 len 3', '0+2,0+3', '[VERDICT-EQUAL]'], ['bound f.b min 0 len 3', '0+2,0+4', '[VERDICT-ASSERTION]'],
      ['bound-extent f.b len 5', '0+2,0+4', '[VERDICT-EQUAL]'], ['align-bounds f.b modulus 4', '1+2,1+3', '[VERDICT-EQUAL]'],
    ] as const) {
      for (const engine of ['beta0', 'beta1']) {
        const r = await runCli(['exec', alg, '--schedule', file('s.sched', `${sched}\n`), '--window', window, '--engine', engine, '--compare']);
        expect(r.stdout, `${sched} on ${window} (${engine})`).toContain(verdict);
      }
    }
  });
  it('[BOUNDS-ONCE] one bounds directive per func dimension', () => {
    expectRejection(() => scheduled(GRID, 'bound f.x min 0 len 8\nbound-extent f.x len 4'), 'BOUNDS-ONCE', ['f.x', 'bound'], 2);
  });
  it('extents and moduli: startup, non-negative, positive', () => {
    expectRejection(() => scheduled(GRID, 'bound f.x min 0 len -1'), 'BOUND-LEN', ['-1']);
    expectRejection(() => scheduled(GRID, 'bound-extent f.x len 0 - 4'), 'BOUND-EXTENT-LEN', ['0 - 4']);
    expectRejection(() => scheduled(GRID, 'align-bounds f.x modulus 0'), 'ALIGN-BOUNDS-MODULUS', ['modulus']);
    expectRejection(() => scheduled(GRID, 'bound f.x min f.s0.x len 2'), 'SCHED-STARTUP', ['f.s0.x']);
  });
});

describe('phases', () => {
  it('[SCHED-PHASE] out-of-order schedules are rejected, naming both directives', () => {
    expectRejection(() => scheduled(SEC22, 'compute-at g at f.x\nsplit f.x by 2'), 'SCHED-PHASE', ['split f.x by 2', 'compute-at g at f.x', 'test.sched:1:1'], 2);
    expectRejection(() => scheduled(SEC22, 'bound f.x min 0 len 4\nspecialize f when 1'), 'SCHED-PHASE', ['specialization'], 2);
  });
});
