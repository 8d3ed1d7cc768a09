// Expression syntax: printing parses back to the same tree, and no input makes the lexer or
// parser throw anything but a located UserError.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { exprEquals, stripExprLocs } from '../../src/expr/ast.js';
import { parseExprText } from '../../src/expr/parse.js';
import { printExpr } from '../../src/expr/print.js';
import { arbExpr } from '../../src/fuzz/arbitraries/expr.js';
import { evalExpr } from '../../src/expr/eval.js';

const funcs = new Map([['f', 1], ['g', 2]]);

describe('expression syntax', () => {
  it.each(['alg', 'tgt'] as const)('parse(print(e)) = e in %s mode', (mode) => {
    fc.assert(
      fc.property(arbExpr({ vars: ['x', 'y', 'p'], funcs, errors: true, depth: 5 }), (e) => {
        const text = printExpr(e, mode);
        const back = parseExprText(text, mode);
        expect(exprEquals(back, e), `${text}`).toBe(true);
        expect(stripExprLocs(back)).toEqual(stripExprLocs(e));
      }),
      { numRuns: 3000 },
    );
  });

  it('sugar means what spec/expr.md says', () => {
    const env = (x: number) => new Map([['x', x], ['y', 2]]);
    for (let x = -3; x <= 3; x++) {
      const ev = (s: string) => evalExpr(parseExprText(s, 'alg'), env(x));
      expect(ev('x <= y')).toBe(x <= 2 ? 1 : 0);
      expect(ev('x >= y')).toBe(x >= 2 ? 1 : 0);
      expect(ev('x != y')).toBe(x !== 2 ? 1 : 0);
      expect(ev('-x')).toBe(-x === 0 ? 0 : -x);
    }
  });

  it('precedence: * binds tighter than +, comparisons tighter than &&', () => {
    expect(printExpr(parseExprText('1 + 2 * 3', 'alg'), 'alg')).toBe('1 + 2 * 3');
    expect(evalExpr(parseExprText('1 + 2 * 3', 'alg'), new Map())).toBe(7);
    expect(evalExpr(parseExprText('1 < 2 && 3 > 4 || 1', 'alg'), new Map())).toBe(1);
    expect(evalExpr(parseExprText('10 - 3 - 2', 'alg'), new Map())).toBe(5);
    expect(evalExpr(parseExprText('(10 - 3) * -2', 'alg'), new Map())).toBe(-14);
  });

  it('errors carry file:line:col', () => {
    try {
      parseExprText('1 +\n  * 2', 'alg', 'e.txt');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      expect((e as UserError).render()).toMatch(/^e\.txt:2:3: error: expected an expression/);
    }
  });

  it('random and mutated inputs end in a tree or a located UserError', () => {
    const alphabet = fc.constantFrom(...'xyf()[]+-*/%<>=!&|?@,.0123456789 \n\tselctminax_#;'.split(''));
    const mutated = fc
      .tuple(arbExpr({ vars: ['x'], funcs, depth: 3 }), fc.nat(), fc.string({ unit: alphabet, maxLength: 3 }))
      .map(([e, at, junk]) => {
        const t = printExpr(e, 'tgt');
        const i = at % (t.length + 1);
        return t.slice(0, i) + junk + t.slice(i + 1);
      });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: alphabet, maxLength: 30 }), fc.string({ maxLength: 20 }), mutated), (src) => {
        for (const mode of ['alg', 'tgt'] as const) {
          try {
            parseExprText(src, mode);
          } catch (e) {
            expect(e).toBeInstanceOf(UserError);
            expect((e as UserError).loc).toBeDefined();
          }
        }
      }),
      { numRuns: 10000 },
    );
  });
});
