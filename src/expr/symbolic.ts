// Building and simplifying the symbolic expressions that interval ends are made of. Every rewrite
// here preserves the value of the expression under the exact semantics of src/expr/ops.ts for
// every environment (property-tested in test/expr/interval.test.ts), so simplifying an interval
// end never changes which points it admits.
import { type Expr, exprEquals, holeKey, op, refKey } from './ast.js';
import { INT_OPS, add, mul, sub } from './ops.js';
import { type Int, isError, isInt } from './value.js';

export const C = (v: Int): Expr => ({ k: 'const', value: v });
export const constOf = (e: Expr): Int | undefined => (e.k === 'const' && isInt(e.value) ? e.value : undefined);

/** A linear form Σ cᵢ·atomᵢ + c over atoms that are not sums or constant multiples. */
interface Linear {
  readonly terms: Map<string, { atom: Expr; coef: Int }>;
  c: Int;
}

// Expressions are immutable, so their keys, linear forms and simplified forms are memoized on the
// expression objects themselves (in one record under a private symbol, invisible to printing and
// comparison): interval ends are rebuilt from the same subterms over and over, and a WeakMap costs
// the garbage collector far more than the work it saves (measured: β0 twice as slow). Defining
// the hidden property is itself slow, so it is done once per expression, and never on the
// throwaway nodes the interval builders simplify (see `simplifyNode`).
const MEMO = Symbol('memo');
interface Memo {
  key?: string;
  linear?: Linear;
  simple?: Expr;
}

/** The memo record of e, non-enumerable so that deep equality and cloning never see it. */
function memo(e: Expr): Memo {
  const known = (e as unknown as { [MEMO]?: Memo })[MEMO];
  if (known) return known;
  const m: Memo = {};
  if (Object.isExtensible(e)) Object.defineProperty(e, MEMO, { value: m, writable: false, configurable: true, enumerable: false });
  return m;
}

/**
 * Keys of atoms: equal keys exactly for equal expressions (up to locations, as equal printed
 * text). Each node's key is interned from its own symbol and its arguments' keys, so a key costs
 * O(arity) per node instead of printing the whole subterm at every level (quadratic in the depth
 * of an interval end). The table is cleared when it grows large; a new generation prefix keeps a
 * key made before from meeting a different expression's key made after.
 */
const MAX_INTERNED = 1 << 20;
let interned = new Map<string, string>();
let generation = 0;
function keyOf(e: Expr): string {
  const m = memo(e);
  if (m.key !== undefined) return m.key;
  let raw: string;
  switch (e.k) {
    case 'const':
      raw = `c${isError(e.value) ? e.value.err : e.value.toString()}`;
      break;
    case 'var':
      raw = `v${e.name}`;
      break;
    case 'hole':
      raw = `h${holeKey(e.hole)}`;
      break;
    case 'access':
      raw = `a${e.func}${refKey(e.ref)}(${e.args.map(keyOf).join(',')})`;
      break;
    case 'op':
      raw = `o${e.op}(${e.args.map(keyOf).join(',')})`;
      break;
  }
  if (interned.size >= MAX_INTERNED) {
    interned = new Map();
    generation++;
  }
  let k = interned.get(raw);
  if (k === undefined) interned.set(raw, (k = `#${generation}.${interned.size}`));
  m.key = k;
  return k;
}

function addTerm(l: Linear, atom: Expr, coef: Int): void {
  const key = keyOf(atom);
  const t = l.terms.get(key);
  if (t) t.coef = add(t.coef, coef);
  else l.terms.set(key, { atom, coef });
}

function scaleInto(dst: Linear, src: Linear, k: Int): void {
  for (const t of src.terms.values()) addTerm(dst, t.atom, mul(t.coef, k));
  dst.c = add(dst.c, mul(src.c, k));
}

/** The linear form of e; cached, so callers must not modify it. */
function linear(e: Expr): Linear {
  const m = memo(e);
  return (m.linear ??= linearOf(e));
}

function linearOf(e: Expr): Linear {
  const l: Linear = { terms: new Map(), c: 0 };
  if (e.k === 'const' && isInt(e.value)) {
    l.c = e.value;
    return l;
  }
  if (e.k === 'op' && (e.op === '+' || e.op === '-')) {
    scaleInto(l, linear(e.args[0]!), 1);
    scaleInto(l, linear(e.args[1]!), e.op === '+' ? 1 : -1);
    return l;
  }
  if (e.k === 'op' && e.op === '*') {
    const a = linear(e.args[0]!);
    const b = linear(e.args[1]!);
    if (a.terms.size === 0) scaleInto(l, b, a.c);
    else if (b.terms.size === 0) scaleInto(l, a, b.c);
    else addTerm(l, op('*', rebuild(a), rebuild(b)), 1);
    return l;
  }
  const atom = simplifyAtom(e);
  const k = constOf(atom);
  if (k !== undefined) l.c = k;
  else addTerm(l, atom, 1);
  return l;
}

function rebuild(l: Linear): Expr {
  let out: Expr | undefined;
  for (const { atom, coef } of l.terms.values()) {
    if (coef === 0) continue;
    const neg = coef < 0;
    const mag = neg ? sub(0, coef) : coef;
    const term = mag === 1 ? atom : op('*', C(mag), atom);
    out = out === undefined ? (neg ? op('-', C(0), term) : term) : op(neg ? '-' : '+', out, term);
  }
  if (out === undefined) return C(l.c);
  const whole = l.c === 0 ? out : l.c < 0 ? op('-', out, C(sub(0, l.c))) : op('+', out, C(l.c));
  // Reading the sum back gives l again (up to terms with coefficient 0, which it drops): remember
  // l, so that the sum is not walked term by term when it becomes an operand.
  if (whole.k === 'op' && ![...l.terms.values()].some((t) => t.coef === 0)) memo(whole).linear ??= l;
  return whole;
}

/** The constant difference a − b, when the linear forms differ by a constant. */
export function constDiff(a: Expr, b: Expr): Int | undefined {
  const la = linear(a);
  const lb = linear(b);
  const same = (x: Linear, y: Linear): boolean => {
    for (const [k, t] of x.terms) if (t.coef !== 0 && y.terms.get(k)?.coef !== t.coef) return false;
    return true;
  };
  return same(la, lb) && same(lb, la) ? sub(la.c, lb.c) : undefined;
}

function simplifyAtom(e: Expr): Expr {
  if (e.k !== 'op') return e.k === 'access' ? { ...e, args: e.args.map(simplify) } : e;
  const args = e.args.map(simplify);
  const ks = args.map(constOf);
  if (ks.every((k) => k !== undefined)) return C(INT_OPS[e.op](...(ks as Int[])));
  switch (e.op) {
    case 'min':
    case 'max':
      return minMaxChain(e.op, args);
    case 'select':
      if (ks[0] !== undefined) return ks[0] !== 0 ? args[1]! : args[2]!;
      if (exprEquals(args[1]!, args[2]!)) return args[1]!;
      break;
    case 'div':
      if (ks[1] === 1) return args[0]!;
      if (ks[1] === 0) return C(0);
      break;
    case 'mod':
      if (ks[1] === 1 || ks[1] === -1 || ks[1] === 0) return C(0);
      break;
    default:
      break;
  }
  return { k: 'op', op: e.op, args };
}

/**
 * min/max of a flattened chain: an operand that another operand dominates by a constant is
 * dropped (min(a, a + 1) = a), and so is a repeated one.
 */
function minMaxChain(o: 'min' | 'max', args: readonly Expr[]): Expr {
  const flat: Expr[] = [];
  const collect = (x: Expr): void => {
    if (x.k === 'op' && x.op === o) x.args.forEach(collect);
    else flat.push(x);
  };
  args.forEach(collect);
  // Absorption: in min(…, max(a, …), …, b, …) the max is at least b when some a ≥ b, so it never
  // decides the minimum (dually for max).
  const dual = o === 'min' ? 'max' : 'min';
  const atLeast = (a: Expr, b: Expr): boolean => {
    const d = constDiff(a, b);
    return d !== undefined && (o === 'min' ? d >= 0 : d <= 0);
  };
  const absorbed = (x: Expr): boolean =>
    x.k === 'op' && x.op === dual && flat.some((y) => y !== x && x.args.some((a) => atLeast(a, y)));
  const kept: Expr[] = [];
  for (const x of flat.filter((f) => !absorbed(f))) {
    let dominated = false;
    for (let i = 0; i < kept.length; i++) {
      const d = constDiff(x, kept[i]!);
      if (d === undefined) continue;
      // x − kept[i] = d: for min keep the smaller, for max the larger.
      if ((o === 'min' && d >= 0) || (o === 'max' && d <= 0)) dominated = true;
      else kept.splice(i--, 1);
      if (dominated) break;
    }
    if (!dominated) kept.push(x);
  }
  return kept.reduce((a, b) => op(o, a, b));
}

/**
 * A syntactic proof that a ≤ b for all values of the variables, given that the variables in
 * `nonneg` are non-negative (window lengths, def. 2.1).
 */
export function provablyLe(a: Expr, b: Expr, nonneg: ReadonlySet<string>): boolean {
  const d = simplify(op('-', b, a));
  if (nonNegative(d, nonneg)) return true;
  // b = max(…) + c or min(…) + c (and dually for a): reason about the operands.
  type MinMax = { op: 'min' | 'max'; args: readonly Expr[]; c: Int };
  const split = (e: Expr): MinMax | undefined => {
    const l = linear(e);
    const ts = [...l.terms.values()].filter((t) => t.coef !== 0);
    const x = ts.length === 1 && ts[0]!.coef === 1 ? ts[0]!.atom : undefined;
    return x?.k === 'op' && (x.op === 'min' || x.op === 'max') ? { op: x.op, args: x.args, c: l.c } : undefined;
  };
  const sb = split(b);
  if (sb) {
    const a2 = simplify(op('-', a, C(sb.c)));
    return sb.op === 'max' ? sb.args.some((x) => provablyLe(a2, x, nonneg)) : sb.args.every((x) => provablyLe(a2, x, nonneg));
  }
  const sa = split(a);
  if (sa) {
    const b2 = simplify(op('-', b, C(sa.c)));
    return sa.op === 'min' ? sa.args.some((x) => provablyLe(x, b2, nonneg)) : sa.args.every((x) => provablyLe(x, b2, nonneg));
  }
  return false;
}

/** A syntactic proof that e ≥ 0 when the variables in `nonneg` are. */
export function nonNegative(e: Expr, nonneg: ReadonlySet<string>): boolean {
  const k = constOf(e);
  if (k !== undefined) return k >= 0;
  if (e.k === 'var') return nonneg.has(e.name);
  if (e.k !== 'op') return false;
  const nn = (x: Expr) => nonNegative(x, nonneg);
  switch (e.op) {
    case '+': case '*': case 'div': case 'min':
      return e.args.every(nn);
    case 'max':
      return e.args.some(nn);
    case 'mod': case '<': case '>': case '=': case 'and': case 'or': case 'not':
      return true;
    default:
      return false;
  }
}

/** Value-preserving normalization: constant folding, linear sums, decidable min/max/select. */
export function simplify(e: Expr): Expr {
  if (e.k === 'const' || e.k === 'var' || e.k === 'hole') return e;
  const m = memo(e);
  return (m.simple ??= simplifyFresh(e));
}

/**
 * `simplify` of a node that was just built and that nothing else refers to (the interval
 * builders' operands are kept, the node joining them is not): nothing is memoized on the node
 * itself, only on its simplified form.
 */
export function simplifyFresh(e: Expr): Expr {
  if (e.k === 'const' || e.k === 'var' || e.k === 'hole') return e;
  // An operator on integer constants folds on the spot (what the linear route below would reach
  // too, through simplifyAtom), without building a linear form.
  if (e.k === 'op' && e.args.every((a) => a.k === 'const' && isInt(a.value))) return C(INT_OPS[e.op](...e.args.map((a) => constOf(a)!)));
  const s = rebuild(linearOf(e));
  // The simplified form is its own simplification; constants and variables need no memo.
  if (s.k === 'op' || s.k === 'access') memo(s).simple ??= s;
  return s;
}

// Builders used by the interval rules: they fold constants on the spot so that the ends of
// intervals stay small while they are being computed.
export const addE = (a: Expr, b: Expr): Expr => simplifyFresh(op('+', a, b));
export const subE = (a: Expr, b: Expr): Expr => simplifyFresh(op('-', a, b));
export const mulE = (a: Expr, b: Expr): Expr => simplifyFresh(op('*', a, b));
export const minE = (a: Expr, b: Expr): Expr => (exprEquals(a, b) ? a : simplifyFresh(op('min', a, b)));
export const maxE = (a: Expr, b: Expr): Expr => (exprEquals(a, b) ? a : simplifyFresh(op('max', a, b)));
export const divE = (a: Expr, b: Expr): Expr => simplifyFresh(op('div', a, b));
