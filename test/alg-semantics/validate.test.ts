// Validity (defs. 2.7–2.10): each rule rejects its violation with a message naming the
// definition and pointing at the source; generated and example programs are valid.
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePipeline } from '../../src/alg-semantics/parse.js';
import { checkPipeline, validatePipeline } from '../../src/alg-semantics/validate.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { checkInput } from '../../src/alg-semantics/input.js';
import { userError } from '../support/errors.js';
import { example, examplesDir } from '../support/files.js';

const check = (src: string) => checkPipeline(parsePipeline(src, 'v.alg'));

describe('validatePipeline', () => {
  it.each([
    // [name, source, expected message fragment, line, col]
    ['syntactic separation: shifted self-access (def. 2.7)',
      'pipeline f() {\n  func f(x) {\n    x;\n    (x) <- f(x + 1);\n  }\n}', "update stage 1 of func 'f' breaks syntactic separation (def. 2.7) in dimension 1: pure variable 'x' occurs in the stage, so argument 1 of the access 'f(x + 1)' must be exactly 'x', not 'x + 1'", 4, 14],
    ['syntactic separation: mixed use (def. 2.7)',
      'pipeline f() {\n  func f(x) {\n    0;\n    rdom(r = (0, 3)) in (x) <- f(x) + f(r);\n  }\n}', "in dimension 1: pure variable 'x' occurs in the stage, so argument 1 of the access 'f(r)' must be exactly 'x', not 'r'", 4, 41],
    ['syntactic separation: update coordinate (def. 2.7)',
      'pipeline f() {\n  func f(x, y) {\n    0;\n    (x, y + 1) <- x;\n  }\n}', "coordinate 2 of the update must be exactly 'y', not 'y + 1'", 4, 9],
    ['rdom bounds are startup expressions (def. 2.9)',
      'pipeline f() {\n  func f(x) {\n    0;\n    rdom(r = (0, x)) in (r) <- 1;\n  }\n}', "uses 'x', which is not a parameter; rdom bounds must be startup expressions (def. 2.9)", 4, 18],
    ['rdom bounds have no func references (def. 2.9)',
      'pipeline f() {\n  func g(x) = 1;\n  func f(x) {\n    0;\n    rdom(r = (g(0), 2)) in (r) <- 1;\n  }\n}', "refers to func 'g', but rdom bounds must be startup expressions (def. 2.9)", 5, 15],
    ['unique func names (def. 2.10)', 'pipeline f() {\n  func f(x) = 1;\n  func f(x) = 2;\n}', "func 'f' is defined twice (def. 2.10", 3, 3],
    ['unique pure variables (def. 2.10)', 'pipeline f() {\n  func f(x, x) = 1;\n}', "pure variable 'x' of func 'f' is declared twice (def. 2.10)", 2, 3],
    ['unique reduction variables (def. 2.10)', 'pipeline f() {\n  func f(x) {\n    0;\n    rdom(r = (0, 1), r = (0, 2)) in (r) <- 1;\n  }\n}', "reduction variable 'r' is declared twice in update stage 1 of func 'f' (def. 2.10)", 4, 22],
    ['output func is last (def. 2.10)', 'pipeline f() {\n  func f(x) = 1;\n  func g(x) = f(x);\n}', "the output func 'f' must be the last func defined (def. 2.10), but 'g' follows it", 2, 3],
    ['output func exists (def. 2.10)', 'pipeline h() {\n  func f(x) = 1;\n}', "the output func 'h' named by the pipeline is not defined (def. 2.10)", 1, 1],
    ['define before use (def. 2.10)', 'pipeline f() {\n  func g(x) = f(x);\n  func f(x) = 1;\n}', "func 'f' is used in the pure stage of func 'g' before it is defined (def. 2.10)", 2, 15],
    ['pure first stage (def. 2.10)', 'pipeline f() {\n  func f(x) = f(x - 1);\n}', "the pure stage of func 'f' refers to 'f' itself (def. 2.10: the first stage must be pure)", 2, 15],
    ['access arity (def. 2.10)', 'pipeline f() {\n  func g(x, y) = 1;\n  func f(x) = g(x);\n}', "'g' has 2 dimensions but is accessed with 1 argument", 3, 15],
    ['update arity (def. 2.10)', 'pipeline f() {\n  func f(x) {\n    0;\n    (x, 1) <- 2;\n  }\n}', "update stage 1 of func 'f' assigns 2 coordinates, but 'f' has 1 dimension (def. 2.10: arity)", 4, 5],
    ['unknown variable', 'pipeline f() {\n  func f(x) = y;\n}', "unknown variable 'y' in the pure stage of func 'f'", 2, 15],
    ['unknown func', 'pipeline f() {\n  func f(x) = h(x);\n}', "unknown func 'h' in the pure stage of func 'f'", 2, 15],
    ['pure variable shadowing a parameter', 'pipeline f(x) {\n  func f(x) = x;\n}', "pure variable 'x' of func 'f' has the name of a parameter", 2, 3],
    ['reduction variable shadowing a pure variable', 'pipeline f() {\n  func f(x) {\n    0;\n    rdom(x = (0, 1)) in (0) <- 1;\n  }\n}', "reduction variable 'x' has the name of a pure variable of 'f'", 4, 10],
    ['error constants in rdom bounds', 'pipeline f() {\n  func f(x) {\n    0;\n    rdom(r = (0, err.rdom)) in (r) <- 1;\n  }\n}', 'is an error constant; rdom bounds must evaluate to integers', 4, 18],
  ])('%s', (_name, src, msg, line, col) => {
    const e = userError(() => validatePipeline(parsePipeline(src, 'v.alg')));
    expect(e.message).toContain(msg);
    expect(e.loc).toEqual({ file: 'v.alg', line, col });
  });

  it('accepts the separation examples the thesis allows (def. 2.7)', () => {
    expect(check('pipeline f() { func g(x) = x; func f(x) { 0; rdom(r = (0, 3)) in (x) <- f(x) + g(x) + g(r); } }')).toEqual([]);
    // A dimension whose variable does not occur is a reduction dimension and may be any expression.
    expect(check('pipeline f() { func f(x, y) { 0; rdom(r = (0, 3)) in (x, r) <- f(x, r - 1) + x; } }')).toEqual([]);
  });

  it('reports every violation, in source order', () => {
    const errs = check('pipeline f() {\n  func f(x) = y;\n  func f(x) = z;\n}');
    expect(errs.map((e) => e.message)).toEqual([
      "unknown variable 'y' in the pure stage of func 'f' [VALID-SCOPE]",
      "func 'f' is defined twice (def. 2.10: func names are unique) [VALID-NAMES]",
      "unknown variable 'z' in the pure stage of func 'f' [VALID-SCOPE]",
    ]);
  });

  it.each(readdirSync(examplesDir).filter((f) => f.endsWith('.alg')))('example %s is valid', (f) => {
    expect(() => loadPipeline(example(f), f)).not.toThrow();
  });

  it('generated inputs fit their pipelines', () => {
    fc.assert(fc.property(arbPipeline().chain((p) => fc.tuple(fc.constant(p), arbInput(p))), ([p, z]) => {
      expect(() => checkInput(p, z)).not.toThrow();
    }), { numRuns: 200, seed: 8 });
  });

  it('generated pipelines are valid', () => {
    fc.assert(fc.property(arbPipeline({ maxDims: 3, maxFuncs: 4 }), (p) => {
      expect(checkPipeline(p).map((e) => e.message)).toEqual([]);
    }), { numRuns: 500, seed: 7 });
  });
});
