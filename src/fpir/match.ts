// Pattern matching for rewrite rules (spec/fpir.md, [FPIR-MATCH]). A rule's left side is FPIR
// whose variables are wildcards: `x_u16` matches any expression of type u16 (the same one at
// every occurrence), `c0_u16` only a constant of type u16. On the right side a constant wildcard
// may carry another type (`c0_u8`): the same value in that type, and the rule does not apply when
// the value does not fit (Pitchfork §4.3's bounds on symbolic constants).
import type { FExpr } from './ast.js';
import { printFpir } from './print.js';
import { inRange, typeEq } from './types.js';

export type Binding = Map<string, FExpr>;

export const isConstWildcard = (name: string): boolean => /^c[0-9]+_/.test(name);
/** A variable's name without its type suffix: `c0_u16` and `c0_u8` are one constant wildcard. */
export const baseName = (name: string): string => name.slice(0, name.lastIndexOf('_'));

/** Matches `p` against `e`, extending `b`; false leaves `b` in an unspecified state. */
// implements [FPIR-MATCH]
export function match(p: FExpr, e: FExpr, b: Binding): boolean {
  if (p.k === 'var') {
    if (!typeEq(p.type, e.type)) return false;
    if (isConstWildcard(p.name) && e.k !== 'const') return false;
    const prev = b.get(baseName(p.name));
    if (prev) return printFpir(prev) === printFpir(e);
    b.set(baseName(p.name), e);
    return true;
  }
  if (p.k !== e.k || !typeEq(p.type, e.type)) return false;
  switch (p.k) {
    case 'const':
      return p.value === (e as typeof p).value;
    case 'cast':
      return match(p.arg, (e as typeof p).arg, b);
    case 'prim':
      return p.op === (e as typeof p).op && p.args.every((a, i) => match(a, (e as typeof p).args[i]!, b));
    case 'select':
      return p.args.every((a, i) => match(a, (e as typeof p).args[i]!, b));
    case 'fp':
      return p.op === (e as typeof p).op && p.args.length === (e as typeof p).args.length && p.args.every((a, i) => match(a, (e as typeof p).args[i]!, b));
  }
}

/** The right side with the bound expressions put in; undefined when a constant does not fit. */
export function instantiate(r: FExpr, b: Binding): FExpr | undefined {
  switch (r.k) {
    case 'var': {
      const v = b.get(baseName(r.name));
      if (!v) return r;
      if (v.k === 'const' && !typeEq(v.type, r.type)) return inRange(v.value, r.type) ? { k: 'const', value: v.value, type: r.type } : undefined;
      return v;
    }
    case 'const':
      return r;
    case 'cast': {
      const a = instantiate(r.arg, b);
      return a && { ...r, arg: a };
    }
    default: {
      const args = r.args.map((a) => instantiate(a, b));
      if (args.some((a) => a === undefined)) return undefined;
      return { ...r, args: args as FExpr[] } as FExpr;
    }
  }
}
