// Hand-written completions (lemma 2.12 tests, `refsem lower --fill`).
import { describe, expect, it } from 'vitest';
import { holeKey } from '../../src/expr/ast.js';
import { printExpr } from '../../src/expr/print.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { fillByHand, parseCompletion } from '../../src/lowering/handfill.js';
import { lower } from '../../src/lowering/lower.js';
import { holesOf } from '../../src/target-semantics/holes.js';
import { userError } from '../support/errors.js';

const t = lower(loadPipeline('pipeline f() { func g(x) = x * x; func f(x) = g(x) + g(x + 1); }', 'sec22.alg'));
const full = {
  '?mem.min(g.x)': 'x.min', '?mem.len(g.x)': 'x.len + 1', '?cpu.min(g.x)': 'x.min', '?cpu.len(g.x)': 'x.len + 1',
  '?mem.min(f.x)': 'x.min', '?mem.len(f.x)': 'x.len', '?cpu.min(f.x)': 'x.min', '?cpu.len(f.x)': 'x.len',
};

describe('fillByHand', () => {
  it('parses holes and expressions and fills every hole', () => {
    const g = parseCompletion(t, full);
    expect([...g.keys()].sort()).toEqual(holesOf(t).map(holeKey).sort());
    expect(printExpr(g.get('?cpu.len(g.x)')!, 'tgt')).toBe('x.len + 1');
    expect(holesOf(fillByHand(t, full))).toEqual([]);
  });

  it('refuses a key that is not a hole, an unknown hole, a hole in a value, and a missing hole', () => {
    expect(userError(() => fillByHand(t, { ...full, 'x.min': '0' })).message).toBe("'x.min' is not a hole");
    expect(userError(() => fillByHand(t, { ...full, '?cpu.min(h.x)': '0' })).message).toBe('hole ?cpu.min(h.x) does not occur in the program');
    expect(userError(() => fillByHand(t, { ...full, '?cpu.min(f.x)': '?mem.min(f.x)' })).message).toContain('contains the hole ?mem.min(f.x)');
    const { ['?cpu.len(f.x)']: _drop, ...partial } = full;
    expect(userError(() => fillByHand(t, partial)).message).toBe('completion leaves holes unfilled: ?cpu.len(f.x)');
  });

  it('reports a syntax error in an expression with its position', () => {
    const e = userError(() => fillByHand(t, { ...full, '?cpu.len(f.x)': 'x.len +' }, 'b.json'));
    expect(e.render()).toMatch(/^b\.json:1:8: error: expected an expression/);
  });
});
