// The loop nest of a program as a tree ([REPORT-TREE]): its nodes, their identities, the text it
// prints, and that it lists exactly the loops of the program, in program order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { arbTgtProgram } from '../../src/fuzz/arbitraries/tgt.js';
import { printExpr } from '../../src/expr/print.js';
import { lower } from '../../src/lowering/lower.js';
import { algorithm, schedule } from '../../src/pipeline.js';
import { loopTree, printLoopTree, treeNodes } from '../../src/report/loop-tree.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import { readSchedule } from '../../src/schedule/halide-style.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { loopsOf } from '../../src/target-semantics/walk.js';
import { randomSchedule } from '../proofs/gen.js';
import { example } from '../support/files.js';

/** An example algorithm lowered and scheduled by schedule text. */
export function scheduledExample(alg: string, text: string): TgtProgram {
  const p = algorithm({ file: alg, text: example(alg) });
  const t0 = lower(p);
  return schedule(t0, readSchedule(text, 'test.sched', () => t0, builtinRegistry()), p);
}

/** The loops a tree lists, in its order, as `trav var (min, len)`. */
const treeLoops = (t: TgtProgram) => treeNodes(loopTree(t)).filter((n) => n.k === 'for').map((n) => `${n.trav} ${n.name} ${n.bounds}`);
/** The loops of the program itself (the walker every directive uses), in the same form. */
const programLoops = (t: TgtProgram) => loopsOf(t).map(({ stmt: s }) => `${s.trav} ${s.var} (${printExpr(s.min, 'tgt')}, ${printExpr(s.len, 'tgt')})`);

describe('[REPORT-TREE] the loop nest of a program', () => {
  it('has the loops, allocations, labels and stores of §2.2 tiled, nested as in the program', () => {
    const t = scheduledExample('sec22.alg', 'split f.x by 3\ntraverse f.xo parallel\ncompute-at g at f.xo\nstore-at g at f.xo');
    const tree = loopTree(t);
    expect(tree.roots.map((n) => n.key)).toEqual(['allocate f', 'label f']);
    const xo = tree.roots[1]!.children[0]!.children[0]!;
    expect(xo).toMatchObject({ k: 'for', name: 'f.s0.xo', trav: 'parallel', bounds: '(0, (?cpu.len(f.x) + 2) / 3)' });
    expect(xo.children.map((n) => n.key)).toEqual(['allocate g', 'label g', 'for f.s0.xi']);
    expect(xo.children[2]!.children).toEqual([{ k: 'store', name: 'f', key: 'store f', bounds: '[f.s0.x]', children: [] }]);
  });

  it('keeps the let a split makes aside: the old variable from the new ones', () => {
    const tree = loopTree(scheduledExample('sec22.alg', 'split f.x by 3'));
    expect(tree.derived['f.s0.x']).toEqual(expect.arrayContaining(['f.s0.xo', 'f.s0.xi']));
    expect(treeNodes(tree).some((n) => n.name === 'f.s0.x')).toBe(false);
  });

  it('names every traversal, serial ones too, and prints one node a line', () => {
    const t = scheduledExample('sec22.alg', 'split f.x by 4\nvectorize f.xi');
    const text = printLoopTree(loopTree(t));
    expect(text.split('\n')[0]).toBe('loop nest of f');
    expect(text).toContain('for serial f.s0.xo in (0, (?cpu.len(f.x) + 3) / 4)');
    expect(text).toContain('└─ for vectorized f.s0.xi in (0, 4)');
    expect(text).toContain('├─ allocate g(x in (?mem.min(g.x), ?mem.len(g.x)))');
  });

  it('gives a repeated name #2, #3 in program order', () => {
    const t = parseTgt('pipeline f(; x in (x.min, x.len)):\n{ allocate f(x in (0, 4)); f[0] <- 1; f[1] <- 2; if 1 then f[2] <- 3 else f[3] <- 4 }', 't.tgt');
    expect(treeNodes(loopTree(t)).map((n) => n.key)).toEqual(['allocate f', 'store f', 'store f#2', 'store f#3', 'store f#4']);
  });

  it('lists exactly the loops of a scheduled program, in program order (property)', () => {
    const cases = arbPipeline({ maxFuncs: 3, maxDims: 2, maxUpdates: 1, maxRVars: 1, exprDepth: 1 }).chain((p) =>
      fc.record({ p: fc.constant(p), picks: fc.array(fc.record({ d: fc.nat(), seed: fc.nat(0xffffff) }), { maxLength: 5 }) }));
    let scheduled = 0;
    fc.assert(
      fc.property(cases, ({ p, picks }) => {
        const t0 = lower(p);
        expect(treeLoops(t0)).toEqual(programLoops(t0));
        randomSchedule(t0, picks, (t) => (scheduled++, expect(treeLoops(t)).toEqual(programLoops(t))));
      }),
      { numRuns: 60, seed: 35 },
    );
    // the property saw scheduled programs, not only lowered ones
    expect(scheduled).toBeGreaterThan(30);
  });

  it('lists exactly the loops of any target program, whatever blocks, lets and ifs surround them (property)', () => {
    fc.assert(
      fc.property(arbTgtProgram(), (t) => {
        expect(treeLoops(t)).toEqual(programLoops(t));
        // every key is unique
        const keys = treeNodes(loopTree(t)).map((n) => n.key);
        expect(new Set(keys).size).toBe(keys.length);
      }),
      { numRuns: 200, seed: 35 },
    );
  });
});
