// A Halide rule evaluated on concrete values with refsem's own operators (expr/ops.ts), so that
// every counterexample the solver proposes is replayed outside the solver before it is reported
// ([HR-VERDICT]). In a wrapping domain each result is then reduced into the type ([HR-WRAP]), with
// FPIR's two's complement `wrap`. Lanes are read as encode.ts reads them; lane counts are never wrapped.
import type { OpName } from '../../expr/ast.js';
import { INT_OPS } from '../../expr/ops.js';
import { type Int, normBig, toBig } from '../../expr/value.js';
import { type ScalarType, tmax, tmin, wrap } from '../../fpir/types.js';
import type { HExpr } from './ast.js';
import { isConstKey } from './encode.js';
import { TERM_WILDS } from './model.js';

export interface Point {
  /** constant wildcards, lane counts and `is_const` choices */
  readonly scalars: ReadonlyMap<string, bigint>;
  /** a term wildcard's value at a lane */
  readonly wildcard: (name: string, lane: bigint) => bigint;
}

const BIN: Readonly<Record<string, OpName>> = { '+': '+', '-': '-', '*': '*', '/': 'div', '%': 'mod', '<': '<', '>': '>', '==': '=', '&&': 'and', '||': 'or' };
const NEGATED: Readonly<Record<string, OpName>> = { '<=': '>', '>=': '<', '!=': '=' };

const apply = (o: OpName, args: readonly bigint[]): bigint => toBig(INT_OPS[o](...args.map((a): Int => normBig(a))));
const euclid = (o: 'div' | 'mod', a: bigint, b: bigint): bigint => apply(o, [a, b]);

/** The value of `e` at lane `l` of `lanes` lanes, in the wrapping type `t` when one is given. */
export function evalH(e: HExpr, p: Point, l = 0n, lanes = 1n, t?: ScalarType): bigint {
  const ev = (x: HExpr) => evalH(x, p, l, lanes, t);
  const fit = (v: bigint) => (t ? wrap(v, t) : v);
  switch (e.k) {
    case 'int':
      return fit(e.v);
    case 'bool':
      return e.v ? 1n : 0n;
    case 'id':
      if (TERM_WILDS.has(e.name)) return p.wildcard(e.name, l);
      return fit(p.scalars.get(e.name) ?? 0n);
    case 'un':
      return e.op === '!' ? apply('not', [ev(e.a)]) : fit(-ev(e.a));
    case 'bin': {
      const neg = NEGATED[e.op];
      const args = [ev(e.a), ev(e.b)];
      return neg ? apply('not', [apply(neg, args)]) : fit(apply(BIN[e.op]!, args));
    }
    case 'call': {
      const a = e.args;
      switch (e.f) {
        case 'min':
        case 'max':
        case 'select':
          return apply(e.f, a.map(ev));
        case 'fold':
          return ev(a[0]!);
        case 'broadcast': {
          const k = euclid('div', lanes, evalH(a[1]!, p));
          return evalH(a[0]!, p, euclid('mod', l, k), k, t);
        }
        case 'ramp': {
          const k = euclid('div', lanes, evalH(a[2]!, p));
          const i = euclid('mod', l, k);
          return fit(evalH(a[0]!, p, i, k, t) + evalH(a[1]!, p, i, k, t) * euclid('div', l, k));
        }
        case 'is_const':
          return p.scalars.get(isConstKey(a)) ?? 0n;
        case 'is_max_value':
          return t && ev(a[0]!) === tmax(t) ? 1n : 0n;
        case 'is_min_value':
          return t && ev(a[0]!) === tmin(t) ? 1n : 0n;
        default:
          return 0n;
      }
    }
    case 'cxx':
      return 0n;
  }
}
