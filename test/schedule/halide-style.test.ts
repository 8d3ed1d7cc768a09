// Halide-style schedules (spec/halide-schedules.md): the reader of `.halide` files, the translation
// into refsem directives, and the examples run end to end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Func, Pipeline } from '../../src/alg-semantics/ast.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { BUILTIN_ENGINES, completeProgram } from '../../src/bounds/engine.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { lower } from '../../src/lowering/lower.js';
import { applySchedule } from '../../src/schedule/apply.js';
import { parseHalideSchedule } from '../../src/schedule/halide-syntax.js';
import { halideSchedule } from '../../src/schedule/halide-style.js';
import { parseSchedule } from '../../src/schedule/parse.js';
import { printSchedule } from '../../src/schedule/print.js';
import { printTgt } from '../../src/target-semantics/print.js';
import { userError } from '../support/errors.js';
import { type Case, type Stats, checkCompleted } from './confluence-harness.js';
import { runCli } from '../support/cli.js';
import { example, examplesDir, scratch } from '../support/files.js';

const BLUR = example('blur.alg');
const HARRIS = example('harris.alg');
const SEC22_ALG = example('sec22.alg');
const SUM = `pipeline out() {
  func box(x) {
    0;
    rdom(r = (0, 3)) in (x) <- box(x) + x + r;
  }
  func out(x) = box(x) * 2;
}`;

/** The refsem schedule a .halide text becomes for an algorithm, one directive per line. */
function translated(alg: string, text: string): string[] {
  return printSchedule(halideSchedule(text, 'test.halide', lower(loadPipeline(alg, 'prog.alg')))).trim().split('\n');
}

/** The error a .halide text gives for an algorithm, rendered. */
const failure = (alg: string, text: string): string => userError(() => translated(alg, text)).render();

describe('[HALIDE-STYLE] reading .halide files', () => {
  it('reads chains of every supported call, with their stages and locations', () => {
    const chains = parseHalideSchedule([
      '# Python comment',
      'f.split(x, xo, xi, 8, hl.TailStrategy.GuardWithIf).tile(x, y, xo, yo, xi, yi, 4, n * 2 - 1)  // C++ comment',
      '  .fuse(xi, yi, t).reorder(xi, yo).parallel(yo).serial(t).vectorize(x, 8).unroll(y).compute_root().compute_inline()',
      '  .compute_at(g, x).compute_at(LoopLevel(g, x, 1)).store_root().store_at(g, y).bound(x, -4, 16).bound_extent(y, 8)',
      '  .align_bounds(x, 2, 1).update().split(r, ro, ri, 2, TailStrategy::Auto).update(1).unroll(r);',
      'g.compute_root() \\',
      '  .vectorize(x)',
    ].join('\n'), 'test.halide');
    expect(chains.map((c) => c.func)).toEqual(['f', 'g']);
    const f = chains[0]!;
    expect(f.calls.map((c) => c.name)).toEqual([
      'split', 'tile', 'fuse', 'reorder', 'parallel', 'serial', 'vectorize', 'unroll', 'compute_root', 'compute_inline', 'compute_at', 'compute_at',
      'store_root', 'store_at', 'bound', 'bound_extent', 'align_bounds', 'split', 'unroll',
    ]);
    expect(f.calls.map((c) => c.stage)).toEqual([...Array<number>(17).fill(0), 1, 2]);
    expect(f.calls[0]!.loc).toEqual({ file: 'test.halide', line: 2, col: 3 });
    expect(f.calls[0]!.text).toBe('split(x, xo, xi, 8, hl.TailStrategy.GuardWithIf)');
    expect(f.calls[0]!.args[4]).toMatchObject({ k: 'name', parts: ['hl', 'TailStrategy', 'GuardWithIf'] });
    expect(f.calls[1]!.args[7]).toMatchObject({ k: 'op', op: '-', args: [{ k: 'op', op: '*' }, { k: 'int', value: 1n }] });
    expect(f.calls[11]!.args[0]).toMatchObject({ k: 'call', parts: ['LoopLevel'] });
    expect(f.calls[14]!.args[1]).toMatchObject({ k: 'int', value: -4n });
    expect(f.calls[17]!.args[4]).toMatchObject({ k: 'name', parts: ['TailStrategy', 'Auto'] });
    expect(chains[1]!.calls.map((c) => [c.name, c.loc.line])).toEqual([['compute_root', 6], ['vectorize', 7]]);
  });
  it.each([
    ['f.split(x, xo, xi 8)', '1:19', "expected ',' or ')' after an argument of split(…), found '8'"],
    ['f.compute_root', '1:15', "expected '(' after compute_root, found the end of the file"],
    ['f;', '1:2', "expected a scheduling call after 'f', found ';'"],
    ['f.split(x, @)', '1:12', "unexpected character '@'"],
    ['f.update(x).vectorize(x)', '1:3', 'update takes the index of an update definition'],
    ['f.\n  (x)', '2:3', "expected the name of a scheduling call after ., found '('"],
    ['compute_root()', '1:13', "expected a scheduling call after 'compute_root', found '('"],
    // a float was read as 1 followed by a stray name 'e9'
    ['f.vectorize(x, 1e9)', '1:16', "'1e9' is a floating-point number; the arguments of schedule calls are integers"],
    ['f.split(x, xo, xi, 2.5)', '1:20', "'2.5' is a floating-point number"],
  ])('a malformed file is a located error: %s', (text, at, message) => {
    const e = userError(() => parseHalideSchedule(text, 'test.halide'));
    expect(e.render()).toContain(`test.halide:${at}: error: `);
    expect(e.message).toContain(message);
  });
});

describe('[HALIDE-STYLE] errors about a split factor', () => {
  it('a negative factor is echoed as written, and the hint says nothing of tails (it echoed "by 0 - 4" with a ShiftInwards hint)', () => {
    const e = userError(() => translated(BLUR, 'blur_y.split(x, xo, xi, -4);'));
    expect(e.message).toContain('split blur_y.s0.x into xo, xi by -4 tail shift: [SPLIT-FACTOR] the split factor must be positive, not -4');
    expect(e.hint).not.toMatch(/TailStrategy/);
    expect(translated(BLUR, 'blur_y.split(x, xo, xi, 4 - 2 * 1);')[0]).toContain('by 4 - 2 * 1');
  });
});

describe('[HALIDE-STYLE-CALLS] what each call becomes', () => {
  it('tile is two splits and a reorder; Halide lists reorder innermost first, refsem outermost first', () => {
    expect(translated(BLUR, 'blur_y.tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy.GuardWithIf).reorder(xo, xi, yi, yo);')).toEqual([
      'split blur_y.s0.x into xo, xi by 8 tail guard',
      'split blur_y.s0.y into yo, yi by 4 tail guard',
      'reorder blur_y.s0.yo, blur_y.s0.xo, blur_y.s0.yi, blur_y.s0.xi',
      'reorder blur_y.s0.yo, blur_y.s0.yi, blur_y.s0.xi, blur_y.s0.xo',
      'inline blur_x',
      'inline input',
    ]);
  });
  it('a reused name (the short tile, vectorize with a factor) gets a fresh refsem name that later calls follow', () => {
    expect(translated(BLUR, 'blur_y.tile(x, y, xi, yi, 4, 4, TailStrategy.RoundUp).vectorize(x, 2).parallel(y, 2, TailStrategy.GuardWithIf)')).toEqual([
      'split blur_y.s0.x into x1, xi by 4 tail round',
      'split blur_y.s0.y into y1, yi by 4 tail round',
      'reorder blur_y.s0.y1, blur_y.s0.x1, blur_y.s0.yi, blur_y.s0.xi',
      'split blur_y.s0.x1 into x2, x_v by 2 tail shift',
      'vectorize blur_y.s0.x_v',
      'split blur_y.s0.y1 into y2, y_p by 2 tail guard',
      'traverse blur_y.s0.y2 parallel',
      'inline blur_x',
      'inline input',
    ]);
  });
  it('fuse, serial, unroll on an update stage, and the bounds calls with parameters', () => {
    expect(translated(SUM, [
      'out.split(x, xo, xi, 4, TailStrategy.GuardWithIf).fuse(xi, xo, t).serial(t).bound(x, 0, 16);',
      'box.compute_root().update(0).unroll(r);',
    ].join('\n'))).toEqual([
      'split out.s0.x into xo, xi by 4 tail guard',
      'fuse out.s0.xo into t',
      'traverse out.s0.t serial',
      'unroll box.s1.r',
      'bound out.x min 0 len 16',
    ]);
    expect(translated(SUM, 'out.align_bounds(x, 4, 1);').at(-1)).toBe('align-bounds out.x modulus 4 remainder 1');
    const withParam = SUM.replace('pipeline out()', 'pipeline out(n)');
    expect(translated(withParam, 'out.bound_extent(x, (n + 2) * 4);').at(-1)).toBe('bound-extent out.x len (n + 2) * 4');
    expect(failure(SUM, 'out.split(x, xo, xi, 4).fuse(xo, xi, t);')).toContain('the loop immediately inside xi (there is none)');
  });
  it('compute, store and bounds calls schedule the whole func, and update indices must exist', () => {
    expect(failure(SUM, 'box.update(0).compute_root();')).toContain('compute_root schedules the whole func, not an update stage');
    expect(failure(BLUR, 'blur_x.compute_root().update(0).vectorize(x);')).toContain("'blur_x' has no update 0; it has 0 update definitions");
    expect(failure(BLUR, 'blurx.compute_root();')).toMatch(/test\.halide:1:1: error: there is no func 'blurx'/);
    expect(failure(BLUR, 'blur_y.split(x, xo.a, xi, 2);')).toContain('the outer loop\'s name as a plain name');
    expect(failure(BLUR, 'blur_y.split(x, xo, xi);')).toContain('expected 4 or 5 arguments, not 3');
  });
});

describe('[HALIDE-STYLE-TAIL] Halide\'s automatic tail strategy', () => {
  it('shift in a pure definition, round for a pure variable of an update, guard for a reduction variable', () => {
    const sched = 'out.split(x, xo, xi, 4);\nbox.compute_root().update(0).split(x, xo, xi, 2).split(r, ro, ri, 2);';
    const t = lower(loadPipeline(SUM, 'prog.alg'));
    // round and shift on a func with updates are refused by refsem ([SPLIT-TAIL]); the choice is still Halide's
    expect(userError(() => halideSchedule(sched, 'test.halide', t)).render()).toMatch(/Halide's TailStrategy::Auto made split\(x, xo, xi, 2\) \(test\.halide:2:\d+\) RoundUp/);
    expect(translated(SUM, 'out.split(x, xo, xi, 4);\nbox.compute_root().update(0).split(r, ro, ri, 2);')).toEqual([
      'split out.s0.x into xo, xi by 4 tail shift',
      'split box.s1.r into ro, ri by 2 tail guard',
    ]);
  });
});

describe('[HALIDE-STYLE-PHASES] phases, consumers first', () => {
  it('sorts the calls of the Harris schedule into phases, inlines before placing, places consumers before producers', () => {
    const lines = translated(HARRIS, example('harris.halide'));
    const phaseOf = (l: string) => ['split', 'reorder', 'vectorize', 'traverse', 'unroll'].includes(l.split(' ')[0]!) ? 0 : l.startsWith('inline') ? 1 : l.startsWith('compute-at') ? 2 : 3;
    expect(lines.map(phaseOf)).toEqual([...lines.map(phaseOf)].sort());
    expect(lines.filter((l) => l.startsWith('inline'))).toEqual(['inline ixy', 'inline iyy', 'inline ixx', 'inline clamped', 'inline input']);
    expect(lines.filter((l) => l.startsWith('compute-at')).map((l) => l.split(' ')[1])).toEqual(['sxy', 'syy', 'sxx', 'iy', 'ix']);
    // Halide stores a func where it is computed unless told otherwise
    expect(lines.filter((l) => l.startsWith('store-at'))).toEqual(lines.filter((l) => l.startsWith('compute-at')).map((l) => l.replace('compute-at', 'store-at')));
  });
  it('the last compute call counts; store_root keeps the allocation at the top', () => {
    expect(translated(BLUR, 'blur_x.compute_at(blur_y, y).compute_root();')).toEqual(['inline input']);
    expect(translated(BLUR, 'blur_x.compute_at(blur_y, y).store_root();')).toEqual(['inline input', 'compute-at blur_x at blur_y.s0.y']);
    expect(translated(BLUR, 'blur_y.split(y, yo, yi, 4);\nblur_x.compute_at(blur_y, yi).store_at(blur_y, yo);')).toEqual([
      'split blur_y.s0.y into yo, yi by 4 tail shift', 'inline input', 'compute-at blur_x at blur_y.s0.yi', 'store-at blur_x at blur_y.s0.yo',
    ]);
  });
});

describe('[HALIDE-STYLE-LEVEL] the stage a compute_at names', () => {
  const BOX = `pipeline box() {\n  func inp(x) = x * 2;\n  func box(x) {\n    0;\n    rdom(r = (0, 3)) in (x) <- box(x) + inp(x + r);\n  }\n}`;
  it('the stage of the consumer that reads the func, or the one LoopLevel names; lemma 2.5 holds per stage', () => {
    expect(translated(BOX, 'inp.compute_at(box, x);')).toEqual(['compute-at inp at box.s1.x', 'store-at inp at box.s1.x']);
    expect(failure(BOX, 'inp.compute_at(LoopLevel(box, x, 0));')).toContain('compute-at inp at box.s0.x: [COMPUTE-AT-DOMINANCE]');
  });
});

describe('[HALIDE-STYLE-LEVEL] Var::innermost() and Var::outermost()', () => {
  it('the innermost loop of the consumer\'s stage; the loop around the consumer\'s computation, or the top level', () => {
    const split = 'blur_y.split(y, yo, yi, 4, TailStrategy.GuardWithIf);\n';
    expect(translated(BLUR, `${split}blur_x.compute_at(blur_y, Var::innermost());`).slice(2)).toEqual(['compute-at blur_x at blur_y.s0.x', 'store-at blur_x at blur_y.s0.x']);
    expect(translated(BLUR, `${split}blur_x.compute_at(blur_y, yo);\ninput.compute_at(blur_x, hl.Var.outermost());`).slice(1)).toEqual([
      'compute-at blur_x at blur_y.s0.yo', 'compute-at input at blur_y.s0.yo', 'store-at blur_x at blur_y.s0.yo', 'store-at input at blur_y.s0.yo',
    ]);
    expect(translated(BLUR, 'blur_x.compute_at(blur_y, Var::outermost());')).toEqual(['inline input']);
  });
});

describe('[HALIDE-STYLE-DEFAULT] what Halide fills in', () => {
  it('inlines unscheduled funcs without updates, never the output; computes one with updates at the innermost loop around its reads', () => {
    expect(translated(SEC22_ALG, 'f.compute_root();')).toEqual(['inline g']);
    expect(translated(SUM, 'out.split(x, xo, xi, 4);')).toEqual(['split out.s0.x into xo, xi by 4 tail shift', 'compute-at box at out.s0.xi', 'store-at box at out.s0.xi']);
    expect(translated(SUM, '')).toEqual(['compute-at box at out.s0.x', 'store-at box at out.s0.x']);
  });
  it('a func with updates read by one stage of a multi-stage consumer is computed inside that stage, as Halide does', () => {
    const two = `pipeline c() {\n  func s(x) {\n    0;\n    rdom(r = (0, 2)) in (x) <- s(x) + r;\n  }\n  func c(x) {\n    0;\n    rdom(q = (0, 2)) in (x) <- c(x) + s(x + q);\n  }\n}`;
    expect(translated(two, '')).toEqual(['compute-at s at c.s1.q', 'store-at s at c.s1.q']);
    expect(translated(two, 's.compute_root();')).toEqual(['']);
  });
  it('refuses a placement in the loops of a func Halide inlines', () => {
    const chain = 'pipeline h() {\n  func g(x) = x * 3;\n  func f(x) = g(x) + 1;\n  func h(x) = f(x) * f(x + 1);\n}';
    expect(failure(chain, 'g.compute_at(f, x);')).toContain("test.halide:1:3: error: compute_at(f, x): 'f' is inlined, so it has no loop x to put 'g' in");
    expect(translated(chain, 'g.compute_at(f, x);\nf.compute_root();')).toEqual(['compute-at g at f.s0.x', 'store-at g at f.s0.x']);
  });
  it('refuses loop calls on a func Halide would inline', () => {
    expect(failure(BLUR, 'blur_x.vectorize(x, 4);')).toContain("test.halide:1:8: error: vectorize(x, 4): [HALIDE-STYLE-DEFAULT] 'blur_x' has no compute_root() or compute_at()");
  });
});

describe('[HALIDE-STYLE-UNSUPPORTED] calls refsem does not translate', () => {
  it.each([
    ['blur_y.specialize(n);', 'a refsem .sched file with `specialize FUNC when COND`'],
    ['blur_y.atomic();', 'refsem runs a reduction in parallel only where its iterations are disjoint'],
    ['blur_y.compute_rot();', 'did you mean compute_root(…)?'],
    ['blur_y.frobnicate();', 'the supported calls are split, tile'],
  ])('%s', (text, hint) => {
    const e = failure(BLUR, text);
    expect(e).toContain('test.halide:1:8: error: ');
    expect(e).toContain('[HALIDE-STYLE-UNSUPPORTED]');
    expect(e).toContain(hint);
  });
});

describe('[HALIDE-STYLE-IGNORED] calls that change no value', () => {
  const plain = 'blur_x.compute_root();\nblur_y.parallel(y);';
  it.each([
    ['memoize()', 'memoize'], ['reorder_storage(y, x)', 'reorder_storage'], ['prefetch(input, y, y, 2)', 'prefetch'], ['async()', 'async'],
    ['hoist_storage(blur_y, y)', 'hoist_storage'], ['gpu_tile(x, y, xo, yo, xi, yi, 8, 8)', 'gpu_tile'], ['trace_stores()', 'trace_stores'],
    ['set_estimate(x, 0, 8)', 'set_estimate'], ['store_in(MemoryType.Stack)', 'store_in'], ['fold_storage(y, 4)', 'fold_storage'],
  ])('blur_x.%s is skipped with a note naming it and the reason, and the rest translated', (call) => {
    const t0 = lower(loadPipeline(BLUR, 'blur.alg'));
    const s = halideSchedule(`blur_x.compute_root().${call};\nblur_y.parallel(y);`, 'test.halide', t0);
    expect(printSchedule(s)).toBe(printSchedule(halideSchedule(plain, 'test.halide', t0)));
    expect(s.notes).toHaveLength(1);
    expect(s.notes![0]).toMatch(new RegExp(`^test\\.halide:1:23: note: ${call.replace(/[()]/g, '\\$&')}: \\[HALIDE-STYLE-IGNORED\\] ignored, it changes no value: \\S`));
  });
  it('the note is printed by the commands that read the schedule, and the values are checked', async () => {
    const { file } = scratch('refsem-ignored-');
    const alg = file('blur.alg', BLUR);
    const sched = file('m.halide', 'blur_x.compute_root().memoize();\nblur_y.parallel(y);\n');
    const r = await runCli(['exec', alg, '--schedule', sched, '--window', '0+4,0+3', '--compare']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[VERDICT-EQUAL]');
    const p = await runCli(['schedule', alg, '--schedule', sched, '--print']);
    expect(p.stderr).toContain('m.halide:1:23: note: memoize(): [HALIDE-STYLE-IGNORED]');
  });
});

describe('[HALIDE-STYLE-COMPUTE-WITH] compute_with of funcs that do not read each other', () => {
  const ALG = 'pipeline h() {\n  func f(x) = x * 2;\n  func g(x) = x + 1;\n  func k(x) = f(x + 1) + 1;\n  func m(x) = k(x) * 3;\n  func h(x) = f(x) + g(x) + m(x);\n}';
  const plain = 'f.compute_root();\ng.compute_root();\nm.compute_root();';
  it.each(['g.compute_with(f, x)', 'g.compute_with(LoopLevel(f, x, 0))', 'g.compute_with(f, x, LoopAlignStrategy.AlignStart)', 'f.compute_with(g, x)'])('%s: skipped with a note, the rest translated', (call) => {
    const t0 = lower(loadPipeline(ALG, 'prog.alg'));
    const s = halideSchedule(`${plain}\n${call};`, 'test.halide', t0);
    expect(printSchedule(s)).toBe(printSchedule(halideSchedule(plain, 'test.halide', t0)));
    expect(s.notes).toHaveLength(1);
    expect(s.notes![0]).toMatch(/^test\.halide:4:3: note: compute_with\(.*\): \[HALIDE-STYLE-COMPUTE-WITH\] ignored, it changes no value: neither '[fg]' nor '[fg]' reads the other/);
  });
  it.each([
    ['k.compute_with(f, x);', "'k' reads 'f'"],
    ['f.compute_with(k, x);', "'k' reads 'f'"],
    ['m.compute_with(f, x);', "'m' reads 'f' (m → k → f)"],
    ['h.compute_with(g, x);', "'h' reads 'g'"],
    ['f.update(0).compute_with(f, x);', "the stages of 'f' depend on each other"],
    ['g.compute_with(nope, x);', "there is no func 'nope'"],
  ])('%s: refused naming the dependency', (text, what) => {
    const e = failure(ALG, text);
    expect(e).toContain('test.halide:1:');
    expect(e).toContain(what);
  });
});

describe('[HALIDE-STYLE-RFACTOR] rfactor of an associative, commutative reduction', () => {
  /** A reduction over a 3 × 4 rdom combining f(x) with an operand by `update`. */
  const red = (update: string) => `pipeline f() {\n  func f(x) {\n    x;\n    rdom(r = (0, 3), s = (0, 4)) in (x) <- ${update};\n  }\n}`;
  const SUM2 = red('f(x) + r * 10 + s');
  it.each(['f(x) + r * s', 'f(x) * (r + s)', 'min(f(x), r - s)', 'max(r * x, f(x))', 'f(x) + s if r < x'])('%s: accepted with a note, the update checked as written', (update) => {
    const t0 = lower(loadPipeline(red(update), 'prog.alg'));
    for (const rv of ['r', 's']) {
      const s = halideSchedule(`f.update(0).rfactor(${rv}, u).compute_root().update(0).parallel(u);\nf.update(0).split(x, xo, xi, 2, TailStrategy.GuardWithIf);`, 'test.halide', t0);
      expect(printSchedule(s)).toBe(printSchedule(halideSchedule('f.update(0).split(x, xo, xi, 2, TailStrategy.GuardWithIf);', 'test.halide', t0)));
      expect(s.notes).toHaveLength(3);
      expect(s.notes![0]).toMatch(/^test\.halide:1:13: note: rfactor\(\w, u\): \[HALIDE-STYLE-RFACTOR\] accepted: .* reduces by (\+|\*|min|max), associative and commutative/);
      expect(s.notes![0]).toContain(rv === 's' ? 'keeps the order of its operands' : 'reorders its operands');
      expect(s.notes![2]).toMatch(/^test\.halide:1:52: note: parallel\(u\): \[HALIDE-STYLE-RFACTOR\] schedules the intermediate func of rfactor\(\w, u\) \(test\.halide:1:13\).*not checked by refsem/);
    }
  });
  it.each([
    ['f(x) - r', 'subtraction is neither associative nor commutative', 'f(…) + (0 - e)'],
    ['f(x) / (r + 1)', 'division is neither associative nor commutative', 'drop rfactor'],
    ['f(x) && r < 2', 'its identity 1 is an identity only on 0 and 1', 'drop rfactor'],
    ['f(x) || r < 2', 'its identity 0 is an identity only on 0 and 1', 'drop rfactor'],
    ['f(x) % 5 + r', 'it is not a reduction f(p) ⊕ e of the point p it writes', 'drop rfactor'],
    ['f(x) + r if f(x) < 3', 'reads f at a point other than the one it reduces (or in its predicate)', 'drop rfactor'],
  ])('%s: refused, naming the hazard', (update, hazard, hint) => {
    const e = failure(red(update), 'f.update(0).rfactor(s, u);');
    expect(e).toContain('test.halide:1:13: error: rfactor(s, u): [HALIDE-STYLE-RFACTOR] ');
    expect(e).toContain(hazard);
    expect(e).toContain(hint);
  });
  it.each([
    ['f(s + 1) + r', 'it is not a reduction f(p) ⊕ e of the point p it writes'],
    ['f(s) + f(r) + r', 'reads f at a point other than the one it reduces'],
    ['r + (f(s) + f(r))', 'reads f at a point other than the one it reduces'],
  ])('(s) <- %s: refused, the update reads another point of f', (update, hazard) => {
    const e = failure(red(update).replace('in (x)', 'in (s)'), 'f.update(0).rfactor(s, u);');
    expect(e).toContain('test.halide:1:13: error: rfactor(s, u): [HALIDE-STYLE-RFACTOR] ');
    expect(e).toContain(hazard);
  });
  it.each([
    ['f.rfactor(s, u);', '1:3', "this call is on f's pure definition"],
    ['f.update(0).rfactor(x, u);', '1:13', 'f.s1.x is not a reduction loop of f.s1'],
    ['f.update(0).rfactor(s, r);', '1:13', "the new variable 'r' already names a loop of f.s1"],
    ['f.update(0).rfactor(s, u);\nf.update(0).rfactor(s, v);', '2:13', 'f.s1 is already factored by rfactor(s, u) (test.halide:1:13)'],
    ['f.update(0).rfactor(s, u);\nf.update(0).unroll(r);', '2:13', 'r belongs to the intermediate func of rfactor(s, u)'],
    ['f.update(0).rfactor(s, u).bound(u, 0, 4);', '1:27', 'bound on the intermediate func of rfactor(s, u)'],
  ])('%s: a located error', (text, at, what) => {
    const e = failure(SUM2, text);
    expect(e).toContain(`test.halide:${at}: error: `);
    expect(e).toContain('[HALIDE-STYLE-RFACTOR]');
    expect(e).toContain(what);
  });
  it.each([
    ['f.update(0).rfactor({{s, u}});', 'keeps the order of its operands'],
    ['f.update(0).rfactor([(r, u)]);', 'reorders its operands'],
    ['f.update(0).rfactor({{s, u}, {r, v}});', 'keeps the order of its operands'],
    ['f.update(0).rfactor([(r, u), (s, v)]);', 'keeps the order of its operands'],
  ])('the list form %s: accepted with a note, the update checked as written (it was not read)', (text, order) => {
    const t0 = lower(loadPipeline(SUM2, 'prog.alg'));
    const s = halideSchedule(`${text}\nf.update(0).split(x, xo, xi, 2, TailStrategy.GuardWithIf);`, 'test.halide', t0);
    expect(printSchedule(s)).toBe(printSchedule(halideSchedule('f.update(0).split(x, xo, xi, 2, TailStrategy.GuardWithIf);', 'test.halide', t0)));
    expect(s.notes![0]).toMatch(/^test\.halide:1:13: note: rfactor\(.*\): \[HALIDE-STYLE-RFACTOR\] accepted: .* reduces by \+/);
    expect(s.notes![0]).toContain(order);
  });
  it.each([
    ['f.update(0).rfactor({{s, u}, {s, v}});', 'f.s1.s is factored twice'],
    ['f.update(0).rfactor({{s, u}, {r, u}});', "the new variable 'u' already names a loop of f.s1 or another pair of the list"],
    ['f.update(0).rfactor({{s, u}, {x, v}});', 'f.s1.x is not a reduction loop of f.s1'],
    ['f.update(0).rfactor({s, u});', 'each item of the list is a pair {r, u}'],
    ['f.update(0).rfactor({});', 'the list of pairs to factor is empty'],
    ['f.update(0).rfactor({{s, u}});\nf.update(0).unroll(r);', 'r belongs to the intermediate func of rfactor({{s, u}})'],
  ])('the list form %s: a located error naming the problem', (text, what) => {
    const e = failure(SUM2, text);
    expect(e).toContain('[HALIDE-STYLE-RFACTOR]');
    expect(e).toContain(what);
  });
  it('loops named after a split of the factored variable can be factored', () => {
    const t0 = lower(loadPipeline(SUM2, 'prog.alg'));
    const s = halideSchedule('f.update(0).split(s, so, si, 2).rfactor(so, u);\nf.update(0).unroll(so);', 'test.halide', t0);
    expect(printSchedule(s).trim().split('\n')).toEqual(['split f.s1.s into so, si by 2 tail guard', 'unroll f.s1.so']);
    expect(failure(SUM2, 'f.update(0).split(s, so, si, 2).rfactor(so, u);\nf.update(0).unroll(si);')).toContain('si belongs to the intermediate func');
  });
});

describe('Halide-style schedules of generated pipelines (lemmas 2.13–2.17)', () => {
  /** A Halide-style schedule over p: each func left to Halide's default, at the root, or inside a later func's loop. */
  const arbHalideText = (p: Pipeline) => {
    const out = p.funcs.find((f) => f.name === p.output)!;
    return fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 4 }), fc.array(fc.tuple(fc.nat(2), fc.nat(7), fc.nat(3)), { minLength: p.funcs.length, maxLength: p.funcs.length }))
      .map(([split, k, picks]) => {
        const loopName = (g: Func, v: string) => (g === out && split && v === 'x' ? 'xo' : v);
        const lines = split ? [`${out.name}.split(x, xo, xi, ${k}, TailStrategy.GuardWithIf);`] : [];
        p.funcs.forEach((f, i) => {
          const [how, which, dim] = picks[i]!;
          const later = p.funcs.slice(i + 1);
          if (f === out || how === 0) return;
          if (how === 1 || later.length === 0) lines.push(`${f.name}.compute_root();`);
          else {
            const g = later[which % later.length]!;
            lines.push(`${f.name}.compute_at(${g.name}, ${loopName(g, g.vars[dim % g.vars.length]!)});`);
          }
        });
        return lines.join('\n');
      });
  };
  it('every translation refsem accepts keeps the values of the algorithm, for β0 and β1', () => {
    let translated = 0;
    const stats: Stats = { runs: 0, focused: 0, equal: 0 };
    fc.assert(
      fc.property(
        arbPipeline({ minFuncs: 2, maxFuncs: 4, maxDims: 2, maxUpdates: 1, maxRVars: 1, dataDependent: false }).chain((p) =>
          fc.tuple(fc.constant(p), arbHalideText(p), fc.array(arbInput(p, { maxWindowLen: 4, paramRange: [-1, 4] }), { minLength: 1, maxLength: 2 }))),
        ([p, text, inputs]) => {
          let t;
          try {
            const t0 = lower(p);
            t = applySchedule(t0, halideSchedule(text, 'gen.halide', t0), { check: true, pipeline: p });
          } catch (e) {
            // refsem may refuse what Halide would run (its stricter rules); never with anything but a located error
            expect(userError(() => { throw e; }).loc?.file).toBe('gen.halide');
            return;
          }
          translated++;
          const c: Case = { p, choices: [], inputs, seed: 0 };
          for (const engine of [BUILTIN_ENGINES.beta0!, BUILTIN_ENGINES.beta1!]) {
            const bad = checkCompleted(c, completeProgram(t, engine), stats);
            if (bad) throw new Error(`${engine.name}: ${bad}\nschedule:\n${text}`);
          }
        },
      ),
      { numRuns: 60, seed: 20261125, endOnFailure: true },
    );
    expect(translated, 'schedules refsem accepted').toBeGreaterThanOrEqual(30);
    expect(stats.equal, 'verdicts comparing real values').toBeGreaterThanOrEqual(30);
  }, 120_000);
  it('[HALIDE-STYLE-PHASES] every order of the placement lines gives the same program, or the same error', () => {
    let same = 0;
    fc.assert(
      fc.property(
        arbPipeline({ minFuncs: 2, maxFuncs: 4, maxDims: 2, maxUpdates: 1, maxRVars: 1, dataDependent: false }).chain((p) =>
          arbHalideText(p).chain((text) => {
            const lines = text.split('\n');
            return fc.tuple(fc.constant(p), fc.constant(text), fc.shuffledSubarray(lines, { minLength: lines.length, maxLength: lines.length }));
          })),
        ([p, text, permuted]) => {
          const t0 = lower(p);
          const outcome = (s: string) => {
            try {
              return printTgt(applySchedule(t0, halideSchedule(s, 'gen.halide', t0), { check: true, pipeline: p }));
            } catch (e) {
              // the same refusal, at the line the moved call now has
              return userError(() => { throw e; }).render().replace(/^gen\.halide:\d+:\d+: /, '');
            }
          };
          expect(outcome(permuted.join('\n')), `written order:\n${text}\npermuted:\n${permuted.join('\n')}`).toBe(outcome(text));
          same++;
        },
      ),
      { numRuns: 40, seed: 20261128, endOnFailure: true },
    );
    expect(same).toBe(40);
  }, 120_000);
});

describe('[HALIDE-STYLE-CYCLE] placement cycles', () => {
  const CHAIN = `pipeline out() {\n  func f(x, y) = x + y;\n  func g(x, y) = f(x, y) * 2;\n  func h(x, y) = g(x, y) + 1;\n  func out(x, y) = h(x, y) + h(x + 1, y);\n}`;
  it('chains through several funcs and store_at are translated in any written order', () => {
    const lines = ['h.compute_at(out, y);', 'f.store_at(h, y).compute_at(g, x);', 'g.compute_at(h, y);'];
    const want = ['compute-at h at out.s0.y', 'compute-at g at h.s0.y', 'compute-at f at g.s0.x', 'store-at h at out.s0.y', 'store-at g at h.s0.y', 'store-at f at h.s0.y'];
    for (const order of [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]) {
      expect(translated(CHAIN, order.map((i) => lines[i]).join('\n'))).toEqual(want);
    }
  });
  it.each([
    ['f.compute_at(g, x);\ng.compute_at(f, y);', 'test.halide:2:3', 'placement cycle g → f → g'],
    ['f.compute_at(g, x);\ng.compute_at(h, y);\nh.compute_at(f, y);', 'test.halide:3:3', 'placement cycle h → f → g → h'],
    ['f.compute_at(f, x);', 'test.halide:1:3', 'placement cycle f → f'],
    ['f.store_at(h, y).compute_at(g, x);\nh.compute_at(f, y);\ng.compute_root();', 'test.halide:2:3', 'placement cycle h → f → h: h.compute_at(f, y) (line 2), f.store_at(h, y) (line 1)'],
  ])('%s is an error naming the cycle', (text, at, cycle) => {
    const e = failure(CHAIN, text);
    expect(e).toContain(`${at}: error: `);
    expect(e).toContain('[HALIDE-STYLE-CYCLE]');
    expect(e).toContain(cycle);
  });
});

describe('bad .halide input is always a located error', () => {
  it('every truncation and every one-token deletion of the Harris schedule is read or refused with a location', () => {
    const text = example('harris.halide');
    const t0 = lower(loadPipeline(HARRIS, 'harris.alg'));
    const cuts = Array.from({ length: 40 }, (_, k) => Math.floor((k * text.length) / 40));
    const variants = [...cuts.map((n) => text.slice(0, n)), ...cuts.map((n) => text.slice(0, n) + text.slice(n).replace(/^[\s\S]\w*/, ''))];
    for (const v of variants) {
      try {
        halideSchedule(v, 'cut.halide', t0);
      } catch (e) {
        expect(userError(() => { throw e; }).loc?.file, v).toBe('cut.halide');
      }
    }
  });
});

describe('.halide files on the command line', () => {
  const window = ['--window', '-2+19,1+18'];
  it('harris.halide runs through exec --compare, with both engines, comparing real values', async () => {
    for (const engine of ['beta0', 'beta1']) {
      const r = await runCli(['exec', `${examplesDir}/harris.alg`, '--schedule', `${examplesDir}/harris.halide`, ...window, '--compare', '--engine', engine, '--json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('"verdict":"equal"');
    }
  }, 60_000);
  it('blur.halide too', async () => {
    const r = await runCli(['exec', `${examplesDir}/blur.alg`, '--schedule', `${examplesDir}/blur.halide`, ...window, '--compare']);
    expect(r.stdout).toContain('[VERDICT-EQUAL] equal');
  });
  it('the --print output is a .sched file giving the same program', async () => {
    const { file } = scratch('refsem-halide-style-');
    for (const [alg, halide] of [['harris.alg', 'harris.halide'], ['blur.alg', 'blur.halide']] as const) {
      const printed = await runCli(['schedule', `${examplesDir}/${alg}`, '--schedule', `${examplesDir}/${halide}`, '--print']);
      expect(printed.code).toBe(0);
      const p = loadPipeline(example(alg), alg);
      const viaHalide = applySchedule(lower(p), halideSchedule(example(halide), halide, lower(p)), { check: true, pipeline: p });
      const viaSched = applySchedule(lower(p), parseSchedule(printed.stdout, 'printed.sched'), { check: true, pipeline: p });
      expect(printTgt(viaSched)).toBe(printTgt(viaHalide));
      const again = await runCli(['schedule', `${examplesDir}/${alg}`, '--schedule', file('printed.sched', printed.stdout)]);
      expect(again.stdout).toBe(printTgt(viaHalide));
    }
  }, 60_000);
  it('a malformed .halide file is a located error with exit 2, never a stack trace', async () => {
    const { file } = scratch('refsem-halide-style-');
    const r = await runCli(['exec', `${examplesDir}/blur.alg`, '--schedule', file('bad.halide', 'blur_x.compute_at(blur_y, y)\nblur_y.split(x, xo, xi 8)\n'), ...window]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.halide:2:24: error: expected ',' or '\)' after an argument of split/);
    expect(r.stderr).not.toContain('    at ');
  });
});

describe("Halide tutorials' schedule idioms run and are checked", () => {
  it.each([
    'blur_y.split(y, yo, yi, 4).parallel(yo);',
    'blur_y.tile(x, y, xo, yo, xi, yi, 4, 4).fuse(xo, yo, t).parallel(t);',
    'blur_y.split(x, xo, xi, 3).vectorize(xi).unroll(xo, 2);',
    'blur_y.parallel(y).vectorize(x, 4);\nblur_x.compute_at(blur_y, y).vectorize(x, 4);',
    'blur_y.tile(x, y, xo, yo, xi, yi, 8, 8).parallel(yo).vectorize(xi, 4);\nblur_x.compute_at(blur_y, xo).vectorize(x, 4);',
    'blur_y.split(y, yo, yi, 4).parallel(yo);\nblur_x.store_at(blur_y, yo).compute_at(blur_y, yi);',
  ])('%s', async (sched) => {
    const { file } = scratch('refsem-idioms-');
    const r = await runCli(['exec', file('blur.alg', BLUR), '--schedule', file('s.halide', sched), '--window', '0+13,0+11', '--compare']);
    expect(r.stdout).toContain('[VERDICT-EQUAL]');
  });
});
