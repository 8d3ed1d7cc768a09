// The swizzle language: terms and folds, each gather's table, the parser's located errors and the
// printer's round trip (spec/swizzle.md).
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { evaluate, goalMismatch } from '../../src/swizzle/eval.js';
import { parseSwizzle } from '../../src/swizzle/parse.js';
import { printSwizzle, showArray } from '../../src/swizzle/print.js';
import { BOTTOM, Terms, ZERO } from '../../src/swizzle/term.js';

/** The last array of a program, shown. */
function last(src: string): string {
  const p = parseSwizzle(src, 't.swz');
  const vals = evaluate(p);
  const s = p.stmts[p.stmts.length - 1]!;
  return showArray(p.terms, vals[vals.length - 1]!, s.shape);
}

function errorOf(src: string): string {
  try {
    parseSwizzle(src, 't.swz');
  } catch (e) {
    if (e instanceof UserError) return e.render();
    throw e;
  }
  return 'no error';
}

describe('[SWZ-TERM] [SWZ-FOLD] terms and folds', () => {
  it('drops 0, folds nothing to 0, keeps a one-element fold a multiset, and does not merge nested folds', () => {
    const t = new Terms();
    const a = t.symbol('a');
    const b = t.symbol('b');
    expect(t.fold([a, ZERO, b])).toBe(t.fold([b, a]));
    expect(t.fold([ZERO, ZERO])).toBe(ZERO);
    expect(t.fold([])).toBe(ZERO);
    expect(t.fold([a])).not.toBe(a);
    expect(t.fold([t.fold([a, b]), a])).not.toBe(t.fold([a, b, a]));
    expect(t.show(t.fold([a, BOTTOM]))).toBe('{_, a}');
    expect(t.occurrences(a, t.fold([a, t.fold([a, b])]))).toBe(2);
  });
});

describe('[SWZ-GATHER] gathers', () => {
  it('reshape, transpose, stack and broadcast', () => {
    expect(last('x: [4] = iota(x, 4)\nm: [2, 2] = reshape(x)\nt: [2, 2] = transpose(m)\n')).toBe('[[x0, x2], [x1, x3]]');
    expect(last('x: [2] = [a, b]\ny: [2] = [c, d]\ns: [2, 2] = stack(x, y)\n')).toBe('[[a, c], [b, d]]');
    expect(last('x: [2] = [a, b]\nb: [3, 2] = broadcast(x)\n')).toBe('[[a, b], [a, b], [a, b]]');
    expect(last('x: [2] = [a, b]\nb: [2, 3] = broadcast{group=1}(x)\n')).toBe('[[a, a, a], [b, b, b]]');
    expect(last('x: [4] = iota(x, 4)\nm: [2] = reshape{from=2}(x)\n')).toBe('[x2, x3]');
    expect(last('x: [2] = [a, b]\nm: [3] = reshape(x)\n')).toBe('[a, b, _]');
  });

  it('[SWZ-LOAD] loads: column-major onto threads, wrapping or reading ⊥', () => {
    expect(last('x: [5] = iota(x, 5)\nl: [3, 2] = load_rep(x)\n')).toBe('[[x0, x3], [x1, x4], [x2, x0]]');
    expect(last('x: [5] = iota(x, 5)\nl: [3, 2] = load_trunc(x)\n')).toBe('[[x0, x3], [x1, x4], [x2, _]]');
    expect(last('x: [9] = iota(x, 9)\ng: [3, 3] = reshape(x)\nl: [2, 2, 2, 2] = load_grid_2d(g)\n')).toBe(
      '[[[[x0, x2], [x6, x8]], [[x1, _], [x7, _]]], [[[x3, x5], [_, _]], [[x4, _], [_, _]]]]',
    );
  });

  it('[SWZ-XFORM] [SWZ-ROT] fans and rotations inside groups', () => {
    // rotation by 1 in groups of 2 along the only dimension that moves
    expect(last('x: [4] = iota(x, 4)\nm: [4, 1] = reshape(x)\nr: [4, 1] = rot{main=0, second=1, out=0, group=2, shift=1}(m)\n')).toBe('[[x1], [x0], [x3], [x2]]');
    // fan cf=3 over 4 rows: i reads 3i mod 4 (gcd 1, so df = 4 and ⌊i/4⌋ = 0)
    expect(last('x: [4] = iota(x, 4)\nm: [4, 1] = reshape(x)\nr: [4, 1] = xform{main=0, second=1, out=0, cf=3}(m)\n')).toBe('[[x0], [x3], [x2], [x1]]');
    // cf=2 over 4: gcd 2, df = 2, so i reads 2i + ⌊i/2⌋ mod 4 — a transpose-like fan
    expect(last('x: [4] = iota(x, 4)\nm: [4, 1] = reshape(x)\nr: [4, 1] = xform{main=0, second=1, out=0, cf=2}(m)\n')).toBe('[[x0], [x2], [x1], [x3]]');
    // the rotation part: cr·k + ⌊k/dr⌋ added for column k
    expect(last('x: [4] = iota(x, 4)\nm: [2, 2] = reshape(x)\nr: [2, 2] = xform{main=0, second=1, out=0, cr=1, dr=2}(m)\n')).toBe('[[x0, x3], [x2, x1]]');
  });

  it('[SWZ-SELECT] conditionals', () => {
    // first_if: d1 < 0 + d0 → register 0 where the column is below the row
    expect(last('x: [4] = iota(x, 4)\nm: [2, 2] = reshape(x)\ns: [2, 2] = first_if{cond=[1, 0, 0, 1, 2]}(m)\n')).toBe('[[x1, x1], [x2, x3]]');
    expect(last('x: [4] = iota(x, 4)\nm: [2, 2] = reshape(x)\ns: [2, 2] = keep_if{cond=[0, 1, 0, 1, 0]}(m)\n')).toBe('[[x0, 0], [0, x3]]');
    expect(last('x: [4] = iota(x, 4)\nm: [2, 2] = reshape(x)\ns: [2, 2] = keep_none{restrict=[0, 1]}(m)\n')).toBe('[[x0, x1], [0, 0]]');
    expect(last('x: [4] = iota(x, 4)\nm: [2, 2] = reshape(x)\ns: [2, 3] = select{axis=1, cond=[1, 0, 0, 1, 2]}(m)\n')).toBe('[[x1, x1, x1], [x2, x3, x3]]');
  });

  it('[SWZ-HVX] valign, vshuffe, vshuffo and a move append one register', () => {
    const regs = 'r: [2, 4] = [[a0, a1, a2, a3], [b0, b1, b2, b3]]\n';
    expect(last(`${regs}o: [3, 4] = valign{a=0, b=1, s=1}(r)\n`)).toBe('[[a0, a1, a2, a3], [b0, b1, b2, b3], [b1, b2, b3, a0]]');
    expect(last(`${regs}o: [3, 4] = vshuffe{a=0, b=1}(r)\n`)).toBe('[[a0, a1, a2, a3], [b0, b1, b2, b3], [b0, a0, b2, a2]]');
    expect(last(`${regs}o: [3, 4] = vshuffo{a=0, b=1}(r)\n`)).toBe('[[a0, a1, a2, a3], [b0, b1, b2, b3], [b1, a1, b3, a3]]');
    expect(last(`${regs}o: [3, 4] = vmov{a=1}(r)\n`)).toBe('[[a0, a1, a2, a3], [b0, b1, b2, b3], [b0, b1, b2, b3]]');
  });

  it('[SWZ-LEVEL] a hole is a set of distinct functions; level 1 is smaller than level 3', () => {
    const n = (lvl: number) => {
      const p = parseSwizzle(`x: [32] = iota(x, 32)\nm: [8, 4] = reshape(x)\nh: [8, 4] = ?col_xforms{level=${lvl}}(m)\n`, 't');
      const r = p.stmts[2]!.rhs;
      return r.k === 'gather' ? r.choices : [];
    };
    expect(n(1).length).toBeLessThan(n(3).length);
    expect(new Set(n(3).map((g) => String(g.src))).size).toBe(n(3).length);
  });
});

describe('[SWZ-SYNTAX] [SWZ-ARRAY] [SWZ-PROGRAM] parser and printer', () => {
  it('prints text that parses back to the same program', () => {
    const src = 'x: [6] = iota(x, 6)\nm: [3, 2] = reshape(x)\nk: [3, 2] = keep_if{cond=[0, 1, 1, -1, 3]}(m)\ns: [3] = fold k\ngoal s = [{x0, x1}, {x2}, {x4, x5}]\n';
    const p = parseSwizzle(src, 't');
    const q = parseSwizzle(printSwizzle(p), 't2');
    expect(printSwizzle(q)).toBe(printSwizzle(p));
    expect(evaluate(q).map(String)).toEqual(evaluate(p).map(String));
  });

  it.each([
    ['x: [2] = [a]\n', 't.swz:1:10: error: row has 1 entries, the shape [2] wants 2 in dimension 0'],
    ['x: [2] = [a, b]\ny: [2] = id(z)\n', "t.swz:2:13: error: unknown array 'z'"],
    ['x: [0] = [a]\n', 't.swz:1:4: error: dimension 0 must be at least 1'],
    ['x: [2, 2] = iota(x, 4)\ny: [3] = fold x\n', 't.swz:2:15: error: fold of [2, 2] gives [2], not [3]'],
    ['x: [2] = [a, b]\ny: [2] = ?nope(x)\n', "t.swz:2:11: error: unknown set of gathers '?nope'"],
    ['x: [2] = [a, b]\ny: [2] = xform{main=0, second=0, out=0, group=3}(x)\n', 't.swz:2:10: error: group=3 does not divide the main dimension (2)'],
    ['x: [2] = [a, b]\ny: [2] = id(x)\ngoal x = [a, b]\n', "t.swz:3:1: error: the goal must name the last array, 'y'"],
    ['x: [2] = [a, b]\ngoal x = trove\n', 't.swz:2:10: error: goal trove is 2-dimensional, but the array is [2]'],
    ['x: [2] = [a, 7]\n', 't.swz:1:14: error: number 7 is not a term'],
    ['x: [300, 300] = iota(x, 90000)\n', 't.swz:1:4: error: array [300, 300] has more than 65536 cells'],
  ])('a located error for %j', (src, want) => {
    expect(errorOf(src).split('\n')[0]).toBe(want);
  });
});

describe('[SWZ-EVAL] [SWZ-GOAL] goals', () => {
  it('a hand-written Trove solution meets the trove goal; a wrong one names the first differing cell', () => {
    const sketch = 'x: [6] = iota(x, 6)\nl: [2, 3] = load_rep(x)\nt: [3, 2] = transpose(l)\nr: [2, 3] = reshape(t)\ngoal r = trove\n';
    const p = parseSwizzle(sketch, 't');
    expect(goalMismatch(p, evaluate(p))).toBe(-1);
    const q = parseSwizzle(sketch.replace('transpose(l)', 'reshape(l)'), 't');
    expect(goalMismatch(q, evaluate(q))).toBe(1);
  });
});
