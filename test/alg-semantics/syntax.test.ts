// Parser and printer (spec/syntax.md): structure, error locations, and the round trip.
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stripPipelineLocs } from '../../src/alg-semantics/ast.js';
import { parsePipeline } from '../../src/alg-semantics/parse.js';
import { printPipeline } from '../../src/alg-semantics/print.js';
import { arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { userError } from '../support/errors.js';
import { example, examplesDir } from '../support/files.js';

describe('parsePipeline', () => {
  it('reads pure and update stages, rdoms and predicates', () => {
    const p = parsePipeline(`pipeline f(w) {
  func g(x) = x * x;
  func f(x) {
    g(x) + g(x + 1);
    rdom(r = (0, w), s = (-1, 2)) in (x) <- f(x) + g(r) if r < 2;
    (x) <- f(x) * 2;
  }
}`, 't.alg');
    expect(p.output).toBe('f');
    expect(p.params).toEqual(['w']);
    expect(p.funcs.map((f) => f.name)).toEqual(['g', 'f']);
    const f = p.funcs[1]!;
    expect(f.stages).toHaveLength(3);
    expect(f.stages[0]!.pure).toBe(true);
    expect(f.stages[1]!.rdom.map((r) => r.name)).toEqual(['r', 's']);
    expect(f.stages[1]!.pred).toMatchObject({ k: 'op', op: '<' });
    expect(f.stages[2]!.rdom).toEqual([]);
    expect(f.stages[2]!.pred).toMatchObject({ k: 'const', value: 1 });
    expect(f.stages[1]!.loc).toEqual({ file: 't.alg', line: 5, col: 5 });
  });

  it('reads zero-dimensional funcs and pipelines without parameters', () => {
    const p = parsePipeline('pipeline c() { func c() { 1; () <- c() + 1; } }', 'c.alg');
    expect(p.funcs[0]!.vars).toEqual([]);
    expect(p.funcs[0]!.stages[1]!.lhs).toEqual([]);
  });

  it.each([
    ['pipeline f() { func f(x) = x }', 1, 30, "expected ';'"],
    ['pipeline f() {\n  func f(x) { (x) <- 1; }\n}', 2, 19, 'first stage of a func must be pure'],
    ['pipeline f() { func f(x) = x; ', 1, 31, "expected '}'"],
    ['pipeline f() { func if(x) = x; }', 1, 21, "'if' is a keyword"],
    ['pipeline f() { func f(x) { x; rdom(r = 0) in (r) <- 1; } }', 1, 40, "expected '('"],
    ['pipeline f() { func f(x) = x; } extra', 1, 33, 'expected the end of the program'],
    ['func f(x) = x;', 1, 1, "expected 'pipeline'"],
    ['pipeline f() { func f(x) = x $ 1; }', 1, 30, "unexpected character '$'"],
  ])('reports %j at %i:%i', (src, line, col, msg) => {
    const e = userError(() => parsePipeline(src, 'bad.alg'));
    expect(e.loc).toEqual({ file: 'bad.alg', line, col });
    expect(e.message).toContain(msg);
  });
});

describe('printPipeline', () => {
  const files = readdirSync(examplesDir).filter((f) => f.endsWith('.alg'));
  it.each(files)('prints %s so that it parses back to the same tree', (f) => {
    const p = parsePipeline(example(f), f);
    const again = parsePipeline(printPipeline(p), 'printed.alg');
    expect(stripPipelineLocs(again)).toEqual(stripPipelineLocs(p));
  });

  it('is idempotent on its own output', () => {
    const once = printPipeline(parsePipeline(example('prefix_sum.alg'), 'p.alg'));
    expect(printPipeline(parsePipeline(once, 'q.alg'))).toBe(once);
  });

  it('round-trips generated pipelines (parse ∘ print = id up to locations)', () => {
    fc.assert(
      fc.property(arbPipeline({ maxDims: 3, exprDepth: 3 }), (p) => {
        expect(stripPipelineLocs(parsePipeline(printPipeline(p), 'gen.alg'))).toEqual(stripPipelineLocs(p));
      }),
      { numRuns: 300, seed: 22 },
    );
  });
});
