// A Halide rule evaluated on concrete values with refsem's own operators (expr/ops.ts), so that
// every counterexample the solver proposes is replayed outside the solver before it is reported
// ([HR-VERDICT]). Lanes are read as encode.ts reads them.
import type { OpName } from '../../expr/ast.js';
import { INT_OPS } from '../../expr/ops.js';
import { type Int, normBig, toBig } from '../../expr/value.js';
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

/** The value of `e` at lane `l` of `lanes` lanes. */
export function evalH(e: HExpr, p: Point, l = 0n, lanes = 1n): bigint {
  const ev = (x: HExpr) => evalH(x, p, l, lanes);
  switch (e.k) {
    case 'int':
      return e.v;
    case 'bool':
      return e.v ? 1n : 0n;
    case 'id':
      if (TERM_WILDS.has(e.name)) return p.wildcard(e.name, l);
      return p.scalars.get(e.name) ?? 0n;
    case 'un':
      return e.op === '!' ? apply('not', [ev(e.a)]) : -ev(e.a);
    case 'bin': {
      const neg = NEGATED[e.op];
      const args = [ev(e.a), ev(e.b)];
      return neg ? apply('not', [apply(neg, args)]) : apply(BIN[e.op]!, args);
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
          return evalH(a[0]!, p, euclid('mod', l, k), k);
        }
        case 'ramp': {
          const k = euclid('div', lanes, evalH(a[2]!, p));
          const i = euclid('mod', l, k);
          return evalH(a[0]!, p, i, k) + evalH(a[1]!, p, i, k) * euclid('div', l, k);
        }
        case 'is_const':
          return p.scalars.get(isConstKey(a)) ?? 0n;
        default:
          return 0n;
      }
    }
    case 'cxx':
      return 0n;
  }
}
