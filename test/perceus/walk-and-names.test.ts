// The λ1 walk every pass is written with, and the one supply of fresh names.
import { describe, expect, it } from 'vitest';
import { NameSupply } from '../../src/perceus/names.js';
import { type Expr, children, erase, foldExpr, mapChildren } from '../../src/perceus/syntax.js';
import { loadProgram } from '../../src/perceus/scope.js';
import { example } from '../support/files.js';

const v = (name: string): Expr => ({ k: 'var', name });

describe('mapChildren, children and foldExpr', () => {
  const e: Expr = {
    k: 'val',
    name: 'y',
    bound: { k: 'prim', op: '+', args: [v('x'), { k: 'lit', value: 1 }] },
    body: { k: 'if', cond: v('y'), then: { k: 'dup', name: 'x', body: v('x') }, else: { k: 'lit', value: 0 } },
  };

  it('children lists the direct sub-expressions in evaluation order', () => {
    expect(children(e).map((c) => c.k)).toEqual(['prim', 'if']);
    expect(children((e as Extract<Expr, { k: 'val' }>).body).map((c) => c.k)).toEqual(['var', 'dup', 'lit']);
  });

  it('mapChildren with the identity rebuilds an equal node', () => {
    expect(mapChildren(e, (c) => c)).toEqual(e);
  });

  it('foldExpr visits every node once, parents first', () => {
    expect(foldExpr(e, [] as string[], (acc, n) => [...acc, n.k])).toEqual(['val', 'prim', 'var', 'lit', 'if', 'var', 'dup', 'var', 'lit']);
  });

  it('a pass written with mapChildren (erasure) removes every instruction of the annotated map', () => {
    const p = loadProgram(example('perceus/map.lam'), 'map.lam');
    const withRc: Expr = { k: 'dup', name: 'xs', body: { k: 'drop', name: 'xs', body: p.funs[0]!.body } };
    const count = (x: Expr) => foldExpr(x, 0, (n, y) => n + (y.k === 'dup' || y.k === 'drop' ? 1 : 0));
    expect(count(withRc)).toBe(2);
    expect(count(erase(withRc))).toBe(0);
  });
});

describe('NameSupply', () => {
  it('keeps a free source name, renames a taken one with a prime and a number', () => {
    const s = new NameSupply(['x']);
    expect(s.fresh('y')).toBe('y');
    expect(s.fresh('x')).toBe("x'1");
    expect(s.fresh('y')).toBe("y'2");
    expect(s.fresh("x'7")).toBe("x'3");
  });

  it('numbers names with a prefix, skipping taken ones, from one counter', () => {
    const s = new NameSupply(['ru2']);
    expect([s.numbered('ru'), s.numbered('ru'), s.numbered('%')]).toEqual(['ru1', 'ru3', '%4']);
  });

  it('two supplies with the same taken names give the same names (no state outside the supply)', () => {
    const run = () => {
      const s = new NameSupply(['a']);
      return [s.fresh('a'), s.numbered('t'), s.fresh('b')];
    };
    expect(run()).toEqual(run());
  });
});
