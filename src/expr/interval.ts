// Symbolic interval arithmetic 𝓘 (fig. 2.10b, §2.7.2). An interval is a pair of inclusive ends
// [lo, hi] whose ends are expressions (in parameters and in-scope variables) or ±∞ (`null`);
// its (min, len) reading is (lo, hi − lo + 1). Soundness: for every environment and every choice
// of values for the variables inside their intervals, the value of e lies in 𝓘(e)
// (property-tested in test/expr/interval.test.ts).
import { type Expr, type Hole, exprEquals, op } from './ast.js';
import type { Int } from './value.js';
import { C, addE, constOf, divE, maxE, minE, mulE, simplifyFresh, subE } from './symbolic.js';

export interface Interval {
  /** inclusive lower end; null is −∞ */
  readonly lo: Expr | null;
  /** inclusive upper end; null is +∞ */
  readonly hi: Expr | null;
}

export const TOP: Interval = { lo: null, hi: null };
export const point = (e: Expr): Interval => ({ lo: e, hi: e });
export const constInterval = (lo: Int, hi: Int): Interval => ({ lo: C(lo), hi: C(hi) });
const BOOL = constInterval(0, 1);

export const isPoint = (i: Interval): boolean => i.lo !== null && i.hi !== null && exprEquals(i.lo, i.hi);
export const isBounded = (i: Interval): boolean => i.lo !== null && i.hi !== null;

/** (min, len) of an interval: min = lo, len = hi − lo + 1. */
export function minLen(i: Interval): { min: Expr | null; len: Expr | null } {
  return { min: i.lo, len: i.lo !== null && i.hi !== null ? addE(subE(i.hi, i.lo), C(1)) : null };
}

/** The interval of a loop `(min, len)` given the intervals of min and of min + len − 1. */
export function fromMinLen(min: Expr, len: Expr): { lo: Expr; hi: Expr } {
  return { lo: min, hi: subE(addE(min, len), C(1)) };
}

/** The smallest interval containing both (∪ of fig. 2.10b). */
export function hull(a: Interval, b: Interval): Interval {
  return {
    lo: a.lo === null || b.lo === null ? null : minE(a.lo, b.lo),
    hi: a.hi === null || b.hi === null ? null : maxE(a.hi, b.hi),
  };
}

/** The intersection (used only where a condition is known to hold). */
export function meet(a: Interval, b: Interval): Interval {
  return {
    lo: a.lo === null ? b.lo : b.lo === null ? a.lo : maxE(a.lo, b.lo),
    hi: a.hi === null ? b.hi : b.hi === null ? a.hi : minE(a.hi, b.hi),
  };
}

/** How the evaluator sees the leaves of an expression. */
export interface IntervalEnv {
  variable(name: string): Interval;
  hole(h: Hole): Interval;
  /** [I-ACCESS]: β0 gives [−∞, ∞]; β1 may know the func's value range */
  access(e: Extract<Expr, { k: 'access' }>, args: readonly Interval[]): Interval;
}

// Extended ends: an expression, or an infinity.
type Ext = Expr | '+inf' | '-inf';
const sign = (e: Expr): -1 | 0 | 1 | undefined => {
  const k = constOf(e);
  return k === undefined ? undefined : k > 0 ? 1 : k < 0 ? -1 : 0;
};
const flip = (x: '+inf' | '-inf'): '+inf' | '-inf' => (x === '+inf' ? '-inf' : '+inf');

/** Product of extended ends; undefined when an infinity meets a factor of unknown sign. */
function mulExt(a: Ext, b: Ext): Ext | undefined {
  if (typeof a !== 'string' && typeof b !== 'string') return mulE(a, b);
  if (typeof a === 'string' && typeof b === 'string') return a === b ? '+inf' : '-inf';
  const [inf, fin] = typeof a === 'string' ? [a, b as Expr] : [b as '+inf' | '-inf', a as Expr];
  const s = sign(fin);
  if (s === undefined) return undefined;
  return s === 0 ? C(0) : s > 0 ? inf : flip(inf);
}

/** Euclidean quotient of extended ends by a finite divisor of known sign. */
function divExt(a: Ext, b: Expr, s: -1 | 1): Ext {
  if (typeof a === 'string') return s > 0 ? a : flip(a);
  return divE(a, b);
}

function fromCorners(cs: readonly (Ext | undefined)[]): Interval {
  if (cs.some((c) => c === undefined)) return TOP;
  let lo: Expr | null | undefined;
  let hi: Expr | null | undefined;
  for (const c of cs as Ext[]) {
    if (c === '-inf') lo = null;
    else if (c !== '+inf' && lo !== null) lo = lo === undefined ? c : minE(lo, c);
    if (c === '+inf') hi = null;
    else if (c !== '-inf' && hi !== null) hi = hi === undefined ? c : maxE(hi, c);
  }
  return { lo: lo ?? null, hi: hi ?? null };
}

const loExt = (i: Interval): Ext => i.lo ?? '-inf';
const hiExt = (i: Interval): Ext => i.hi ?? '+inf';

/** The sign of every point of an interval, when its ends show it. */
function intervalSign(i: Interval): -1 | 1 | undefined {
  if (i.lo !== null && (constOf(i.lo) ?? 0) >= 1) return 1;
  if (i.hi !== null && (constOf(i.hi) ?? 0) <= -1) return -1;
  return undefined;
}

/** [I-ADD] */
export function iAdd(a: Interval, b: Interval): Interval {
  return { lo: a.lo && b.lo && addE(a.lo, b.lo), hi: a.hi && b.hi && addE(a.hi, b.hi) };
}

/** [I-SUB] */
function iSub(a: Interval, b: Interval): Interval {
  return { lo: a.lo && b.hi && subE(a.lo, b.hi), hi: a.hi && b.lo && subE(a.hi, b.lo) };
}

/** [I-MUL]: the extremes of a bilinear function over a box lie at its corners. */
export function iMul(a: Interval, b: Interval): Interval {
  // A constant factor scales (and, when negative, flips) the other interval.
  for (const [k, o] of [[a, b], [b, a]] as const) {
    const c = isPoint(k) ? constOf(k.lo!) : undefined;
    if (c === undefined) continue;
    const scale = (x: Expr | null) => (x === null ? null : mulE(k.lo!, x));
    if (c === 0) return constInterval(0, 0);
    return c > 0 ? { lo: scale(o.lo), hi: scale(o.hi) } : { lo: scale(o.hi), hi: scale(o.lo) };
  }
  const as = [loExt(a), hiExt(a)];
  const bs = [loExt(b), hiExt(b)];
  return fromCorners(as.flatMap((x) => bs.map((y) => mulExt(x, y))));
}

/** max(−lo, hi): the largest magnitude in a bounded interval (≥ 0 when the interval is non-empty). */
const magnitude = (a: Interval): Expr | null => (a.lo === null || a.hi === null ? null : maxE(subE(C(0), a.lo), a.hi));

/**
 * [I-DIV] Euclidean division, x div 0 = 0 (§2.9). A divisor of known sign gives the corners
 * (the quotient is monotone in each argument on such a box). Otherwise |a div b| ≤ |a| for every
 * b, so the quotient lies in [−M, M] with M = max(−lo, hi): (min, len) = (−M, 2M + 1). Fig. 2.10b
 * prints the length as 2M − 1, which would miss the two largest quotients (e.g. 5 div 1 with
 * a ∈ [0, 5]); spec/bounds.md records the correction.
 */
function iDiv(a: Interval, b: Interval): Interval {
  if (isPoint(b) && constOf(b.lo!) === 0) return constInterval(0, 0);
  const s = intervalSign(b);
  if (s !== undefined && b.lo !== null && b.hi !== null) {
    return fromCorners([loExt(a), hiExt(a)].flatMap((x) => [divExt(x, b.lo!, s), divExt(x, b.hi!, s)]));
  }
  const m = magnitude(a);
  return m === null ? TOP : { lo: simplifyFresh(op('-', C(0), m)), hi: m };
}

/**
 * [I-MOD] Euclidean remainder, x mod 0 = 0: 0 ≤ a mod b ≤ |b| − 1 for b ≠ 0, so the result lies in
 * [0, max(M_b − 1, 0)] with M_b = max(−lo_b, hi_b).
 */
function iMod(b: Interval): Interval {
  const m = magnitude(b);
  if (m === null) return { lo: C(0), hi: null };
  return { lo: C(0), hi: maxE(subE(m, C(1)), C(0)) };
}

/** [I-MINMAX] both are monotone in each argument. */
function iMinMax(o: 'min' | 'max', a: Interval, b: Interval): Interval {
  const f = o === 'min' ? minE : maxE;
  if (o === 'min') {
    return { lo: a.lo && b.lo && f(a.lo, b.lo), hi: a.hi === null ? b.hi : b.hi === null ? a.hi : f(a.hi, b.hi) };
  }
  return { lo: a.lo === null ? b.lo : b.lo === null ? a.lo : f(a.lo, b.lo), hi: a.hi && b.hi && f(a.hi, b.hi) };
}

/** [I-SELECT] either branch may be chosen, unless the condition is a known constant. */
function iSelect(c: Interval, t: Interval, f: Interval): Interval {
  if (isPoint(c)) {
    const k = constOf(c.lo!);
    if (k !== undefined) return k !== 0 ? t : f;
  }
  return hull(t, f);
}

/**
 * 𝓘(e, Γ): the interval rules, one per expression form. `memo` (optional) holds the intervals of
 * subexpressions already evaluated in the same Γ, by identity: a caller that asks for every
 * subexpression of a tree then evaluates each node once instead of once per enclosing node.
 */
export function evalInterval(e: Expr, env: IntervalEnv, memo?: Map<Expr, Interval>): Interval {
  if (memo === undefined || (e.k !== 'op' && e.k !== 'access')) return intervalOf(e, env, memo);
  let i = memo.get(e);
  if (i === undefined) memo.set(e, (i = intervalOf(e, env, memo)));
  return i;
}

function intervalOf(e: Expr, env: IntervalEnv, memo: Map<Expr, Interval> | undefined): Interval {
  switch (e.k) {
    case 'const': // [I-CONST]
      return constOf(e) === undefined ? TOP : point(e);
    case 'var': // [I-VAR]
      return env.variable(e.name);
    case 'hole': // [I-HOLE]
      return env.hole(e.hole);
    case 'access':
      return env.access(e, e.args.map((a) => evalInterval(a, env, memo)));
    case 'op': {
      const args = e.args.map((a) => evalInterval(a, env, memo));
      // Points stay exact: the operator applied to the points is itself a point.
      if (args.every(isPoint)) return point(simplifyFresh({ k: 'op', op: e.op, args: args.map((a) => a.lo!) }));
      const [a, b, c] = args as [Interval, Interval, Interval];
      switch (e.op) {
        case '+':
          return iAdd(a, b);
        case '-':
          return iSub(a, b);
        case '*':
          return iMul(a, b);
        case 'div':
          return iDiv(a, b);
        case 'mod':
          return iMod(b);
        case 'min':
        case 'max':
          return iMinMax(e.op, a, b);
        case 'select':
          return iSelect(a, b, c);
        case '<': case '>': case '=': case 'and': case 'or': case 'not': // [I-CMP] [I-LOGIC]
          return BOOL;
      }
    }
  }
}

/** Rule IDs of spec/bounds.md implemented in this module. */
export const INTERVAL_RULES = [
  'I-CONST', 'I-VAR', 'I-HOLE', 'I-ACCESS', 'I-ADD', 'I-SUB', 'I-MUL', 'I-DIV', 'I-MOD', 'I-MINMAX', 'I-SELECT', 'I-CMP',
] as const;
