// [SYNTAX-DEPTH] (spec/syntax.md): sources nest at most MAX_NESTING levels, counted by the shared
// token cursor; deeper input is refused at the token that opens the first level too many.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NESTING, parseExprText } from '../../src/expr/parse.js';
import { parseStmtText } from '../../src/target-semantics/parse.js';
import { parseProgram } from '../../src/perceus/parse.js';
import { userError } from '../support/errors.js';

/** A way of wrapping an expression E, and the depth of the wrapped tree from the depth d of E's. */
type Wrapper = { prefix: string; suffix: string; depth: (d: number) => number };
const paren: Wrapper = { prefix: '(', suffix: ')', depth: (d) => d + 1 };
const not: Wrapper = { prefix: '!(', suffix: ')', depth: (d) => d + 2 };
const call: Wrapper = { prefix: 'min(', suffix: ', 0)', depth: (d) => d + 1 };
/** `x + x + … + (E)` with k operators: `((x + x) + …) + (E)`, k operators above the first x. */
const chain = (k: number): Wrapper => ({ prefix: `${'x + '.repeat(k)}(`, suffix: ')', depth: (d) => (k === 0 ? d + 1 : Math.max(k, d + 2)) });

/** The text of the wrappers around `x`, outermost first, and the depth of its tree. */
function build(ws: readonly Wrapper[]): { text: string; depth: number } {
  const text = ws.map((w) => w.prefix).join('') + 'x' + [...ws].reverse().map((w) => w.suffix).join('');
  return { text, depth: ws.reduceRight((d, w) => w.depth(d), 0) };
}

const wrapper = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(paren, not, call) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 300 }).map(chain) },
);

describe('[SYNTAX-DEPTH] nesting depth', () => {
  it('an expression parses exactly when its tree (brackets counted) is at most MAX_NESTING deep', () => {
    const seen = { within: 0, beyond: 0 };
    fc.assert(
      fc.property(fc.array(wrapper, { maxLength: 300, size: 'max' }), (ws) => {
        const { text, depth } = build(ws);
        if (depth <= MAX_NESTING) {
          seen.within++;
          expect(() => parseExprText(text, 'alg')).not.toThrow();
          return;
        }
        seen.beyond++;
        const e = userError(() => parseExprText(text, 'alg'));
        expect(e.message).toBe(`nesting deeper than ${MAX_NESTING} levels [SYNTAX-DEPTH]`);
        expect(e.loc?.line).toBe(1);
        expect(e.loc!.col).toBeLessThanOrEqual(text.length);
        expect(e.hint).toMatch(/split .* at most 256 levels/);
      }),
      { numRuns: 200, seed: 4242 },
    );
    // Both sides of the limit were tried.
    expect(seen.within).toBeGreaterThan(20);
    expect(seen.beyond).toBeGreaterThan(20);
  });

  it('the limit is 256, at the boundary, for parentheses, prefix operators and sums', () => {
    expect(MAX_NESTING).toBe(256);
    const parens = (n: number) => `${'('.repeat(n)}1${')'.repeat(n)}`;
    expect(() => parseExprText(parens(256), 'tgt')).not.toThrow();
    expect(userError(() => parseExprText(parens(257), 'tgt')).loc).toEqual({ file: '<expr>', line: 1, col: 257 });
    expect(() => parseExprText(`${'-'.repeat(256)}x`, 'alg')).not.toThrow();
    expect(userError(() => parseExprText(`${'-'.repeat(257)}x`, 'alg')).loc?.col).toBe(258); // the x, at level 257
    // A sum of n terms is a tree of n - 1 operators: refused at the 257th operator.
    expect(() => parseExprText(Array(257).fill('x').join(' + '), 'alg')).not.toThrow();
    expect(userError(() => parseExprText(Array(50000).fill('x').join(' + '), 'alg')).loc?.col).toBe(4 * 256 + 3);
    // A chain nested in the first operand of another is as deep as both together.
    const sum = (n: number, first: string) => [first, ...Array(n).fill('x')].join(' + ');
    expect(() => parseExprText(sum(127, `(${sum(127, 'x')})`), 'alg')).not.toThrow();
    expect(userError(() => parseExprText(sum(128, `(${sum(128, 'x')})`), 'alg')).loc?.col).toBe(2 + 4 * 128 + 1 + 4 * 127 + 2);
  });

  it('sibling arguments are counted from the same level: levels close when their part ends', () => {
    // Two deep but legal arguments in a row: the second is counted from the same level as the first.
    const deep = `${'('.repeat(255)}x${')'.repeat(255)}`;
    expect(() => parseExprText(`min(${deep}, ${deep})`, 'alg')).not.toThrow();
  });

  it('target programs: each statement inside another is one level', () => {
    const ifs = (n: number) => `${'if 1 then '.repeat(n)}nop`;
    expect(() => parseStmtText(ifs(255))).not.toThrow();
    const e = userError(() => parseStmtText(ifs(256)));
    expect(e.message).toContain('[SYNTAX-DEPTH]');
    expect(e.loc).toEqual({ file: '<stmt>', line: 1, col: 10 * 256 + 1 });
  });

  it('λ1 programs: each expression inside another is one level, chains of bindings included', () => {
    const vals = (n: number) => `fun main() = ${'val x = 1; '.repeat(n)}x`;
    expect(() => parseProgram(vals(255), 'p.lam')).not.toThrow();
    const e = userError(() => parseProgram(vals(256), 'p.lam'));
    expect(e.message).toContain('[SYNTAX-DEPTH]');
    expect(e.loc).toEqual({ file: 'p.lam', line: 1, col: 14 + 11 * 255 + 8 });
    // Applications chain like operators: the body (level 1), one level per application, one
    // for the argument.
    const apps = (n: number) => `fun main() = f${'(1)'.repeat(n)}`;
    expect(() => parseProgram(apps(254), 'p.lam')).not.toThrow();
    expect(userError(() => parseProgram(apps(300), 'p.lam')).loc).toEqual({ file: 'p.lam', line: 1, col: 14 + 1 + 3 * 254 });
  });
});
