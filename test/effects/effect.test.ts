// Effects of target programs (spec/effects.md): lifting, effects per construct, derived sets.
import { describe, expect, it } from 'vitest';
import { EMPTY_SCOPE, lift, liftHole, stmtEffect } from '../../src/effects/effect.js';
import { allocated, derivedSets } from '../../src/effects/locset.js';
import { showEffect, showEffExpr, showLocSet } from '../../src/effects/print.js';
import { parseExprText } from '../../src/expr/parse.js';
import { parseTgt } from '../../src/target-semantics/parse.js';

const body = (text: string) => parseTgt(`pipeline f(n; x in (x.min, x.len)):\n{\n${text}\n}`, 'case.tgt').body;
const eff = (text: string) => stmtEffect(body(text), EMPTY_SCOPE);

describe('[EFF-LIFT] lifting', () => {
  it('a buffer read lifts to ⊥, a let to its value', () => {
    expect(showEffExpr(lift(parseExprText('g[0] + 1', 'tgt'), EMPTY_SCOPE))).toBe('⊥ + 1');
    expect(showEffect(eff('allocate g(x in (0, 9)); let y = n * 2 in g[y] <- 1')).join('\n')).toContain('Write(g[n * 2], 1)');
  });
});

describe('[EFF-HOLE] holes', () => {
  it('a hole depends on the enclosing loops of other funcs only', () => {
    const h = { kind: 'cpu', end: 'min', func: 'g', dim: 'x' } as const;
    expect(showEffExpr(liftHole(h, { lets: new Map(), loops: ['f.s0.xo', 'g.s0.y'] }))).toBe('?cpu.min(g.x)@(f.s0.xo)');
  });
});

describe('[EFF-EXPR] [EFF-STMT] [EFF-REDUCE] effects per construct', () => {
  it('reads of the index and the value come before the write', () => {
    expect(showEffect(eff('allocate g(x in (0, 9)); g[g[0]] <- g[1]'))).toEqual(['Alloc(g)', 'Read(g[0])', 'Read(g[1])', 'Write(g[⊥], g[1])']);
  });
  it('f[i] <- f[i] + e and e ⊕ f[i] are reductions; a subtraction is not', () => {
    expect(showEffect(eff('g[0] <- g[0] + n'))).toEqual(['Reduce(+, g[0])']);
    expect(showEffect(eff('g[0] <- max(n, g[0])'))).toEqual(['Reduce(max, g[0])']);
    expect(showEffect(eff('g[0] <- g[0] - n'))).toEqual(['Read(g[0])', 'Write(g[0], g[0] - n)']);
  });
  it('an if gives two guards; an assertion only reads', () => {
    expect(showEffect(eff('if n < 2 then g[0] <- 1 else g[1] <- 2'))).toEqual(['Guard(n < 2):', '  Write(g[0], 1)', 'Guard(!(n < 2)):', '  Write(g[1], 2)']);
    expect(showEffect(eff('assert g[0] > 0'))).toEqual(['Read(g[0])']);
  });
});

describe('[EFF-ALLOC] [EFF-SETS] derived sets', () => {
  it('a read after a write of the same point is not in Rd; an allocated buffer leaves the later sets', () => {
    const a = eff('g[0] <- 1; h[0] <- g[0]; allocate k(x in (0, 1)); k[0] <- 1');
    expect([...allocated(a)]).toEqual(['k']);
    const s = derivedSets(a);
    expect(showLocSet(s.Wr)).toBe('{g[0]} ∪ {h[0]}');
    expect(showLocSet(s.Rd)).toBe('({g[0]}) − ({g[0]})');
  });
  it('R+ leaves out what is also written', () => {
    expect(showLocSet(derivedSets(eff('g[0] <- g[0] + 1; g[0] <- 5')).RPlus)).toBe('({g[0]}) − ({g[0]})');
  });
});
