// What of Halide's rule language the checker models (spec/simplify.md [HR-MODEL]), and the
// rewriting of a rule into that part: C++ names that stand for the matched node's operands (`a`,
// `b`, `true_value`, …) become those operands, markers without a value (`likely`) disappear, and
// everything else that is not modelled is named by construct so that reports can count it.
import { type HExpr, type HRule, isConstWild, walkH } from './ast.js';
import { DOMAIN_NAMES, type DomainName, wrappingType } from './domain.js';

/** The term wildcards of Halide's IRMatch (`Wild<0>` … `Wild<5>`). */
export const TERM_WILDS = new Set(['x', 'y', 'z', 'w', 'u', 'v']);

/** C++ integers a visitor binds before matching (a vector's lane counts); modelled as positive constants. */
export const LANE_PARAMS = new Set(['lanes', 'arg_lanes']);

/** Calls the model gives a meaning (model.ts and encode.ts). */
const MODELLED_CALLS = new Set([
  'min', 'max', 'select', 'fold', 'broadcast', 'ramp', 'likely', 'likely_if_innermost', 'IRMatcher::likely', 'IRMatcher::likely_if_innermost',
  'neg', 'is_const', 'is_float', 'overflows', 'can_prove', 'is_max_value', 'is_min_value',
]);

/** The C++ names of the matched node's operands, per operand position ([HR-MODEL]). */
const OPERAND_NAMES: readonly (readonly string[])[] = [['a', 'condition', 'value', 'base'], ['b', 'true_value', 'stride'], ['false_value']];

export interface Modelled {
  readonly lhs: HExpr;
  readonly rhs: HExpr;
  readonly pred?: HExpr;
  /** the domains the rule is claimed in, from its guards ([HR-WRAP]); `halide` alone when absent */
  readonly domains?: readonly DomainName[];
}

/**
 * The domains a rule is claimed in ([HR-WRAP]): a rule is tried on every type its guards let
 * through. `no_overflow(t)` (and its `_int`, `_scalar_int` forms) admits only the wide signed
 * types, the domain `halide`; `!no_overflow(t)` only the wrapping types; `t.is_int()` no unsigned
 * type; `!t.is_uint()` likewise; `t.is_uint()` only unsigned ones; `t.is_bool()` only booleans,
 * which the domain `halide` checks as 0 and 1.
 */
export function domainsOf(guards: readonly string[]): DomainName[] {
  let ds = [...DOMAIN_NAMES];
  const keep = (f: (d: DomainName) => boolean) => void (ds = ds.filter(f));
  const unsigned = (d: DomainName) => wrappingType(d)?.signed === false;
  for (const g of guards) {
    if (/^no_overflow(_int|_scalar_int)?\(/.test(g) || /is_bool\(\)$/.test(g)) keep((d) => d === 'halide');
    else if (/^!no_overflow\(/.test(g)) keep((d) => d !== 'halide');
    else if (/is_int\(\)$/.test(g) && !g.startsWith('!')) keep((d) => !unsigned(d));
    else if (/^!.*is_uint\(\)$/.test(g)) keep((d) => !unsigned(d));
    else if (/is_uint\(\)$/.test(g)) keep(unsigned);
  }
  return ds;
}

export type ModelResult = { readonly ok: true; readonly rule: Modelled } | { readonly ok: false; readonly constructs: readonly string[] };

function lhsOperands(lhs: HExpr): readonly HExpr[] {
  if (lhs.k === 'bin') return [lhs.a, lhs.b];
  if (lhs.k === 'un') return [lhs.a];
  if (lhs.k === 'call') return lhs.args;
  return [];
}

// implements [HR-MODEL]
/** The rule in the modelled language, or the constructs that keep it out. */
export function modelRule(r: Pick<HRule, 'lhs' | 'rhs' | 'pred'> & { readonly guards?: readonly string[] }): ModelResult {
  let operands: readonly HExpr[] = [];
  const missing = new Set<string>();
  const rewrite = (e: HExpr, side: 'lhs' | 'rhs' | 'pred'): HExpr => {
    switch (e.k) {
      case 'int':
      case 'bool':
        return e;
      case 'cxx':
        missing.add('C++ expression');
        return e;
      case 'id': {
        if (TERM_WILDS.has(e.name) || isConstWild(e.name) || LANE_PARAMS.has(e.name)) return e;
        const pos = OPERAND_NAMES.findIndex((ns) => ns.includes(e.name));
        if (side !== 'lhs' && pos >= 0 && operands[pos]) return operands[pos]!;
        missing.add(`C++ name ${e.name}`);
        return e;
      }
      case 'un':
        return { ...e, a: rewrite(e.a, side) };
      case 'bin':
        return { ...e, a: rewrite(e.a, side), b: rewrite(e.b, side) };
      case 'call': {
        if (!MODELLED_CALLS.has(e.f)) {
          missing.add(e.f);
          return e;
        }
        // A branch hint has the value of its operand.
        if (/likely/.test(e.f)) return e.args.length === 1 ? rewrite(e.args[0]!, side) : (missing.add(e.f), e);
        // `neg(x)` matches the simplified negation of the boolean x (`a <= b` for `b < a`): its value is !x.
        if (e.f === 'neg' && e.args.length === 1) return { k: 'un', op: '!', a: rewrite(e.args[0]!, side) };
        // `can_prove(e, this)`: the simplifier's own prover; the rule fires only when e holds.
        if (e.f === 'can_prove') return rewrite(e.args[0]!, side);
        return { ...e, args: e.args.map((a) => rewrite(a, side)) };
      }
    }
  };
  const lhs = rewrite(r.lhs, 'lhs');
  // The operand names stand for the matched node's operands, read in the modelled left-hand side.
  operands = lhsOperands(lhs);
  const rhs = rewrite(r.rhs, 'rhs');
  let pred = r.pred ? rewrite(r.pred, 'pred') : undefined;
  for (const g of r.guards ?? []) {
    // A rule for floats only is not a claim about integers; a non-zero denominator is an
    // assumption about the matched node. The types a guard admits are read by domainsOf.
    if (/^[a-z_>.()-]*is_float\(\)$/.test(g) && !g.startsWith('!')) missing.add('guard: floats only');
    else if (g === 'denominator_non_zero' && operands[1]) {
      const nz: HExpr = { k: 'bin', op: '!=', a: operands[1], b: { k: 'int', v: 0n } };
      pred = pred ? { k: 'bin', op: '&&', a: pred, b: nz } : nz;
    }
  }
  if (missing.size > 0) return { ok: false, constructs: [...missing].sort() };
  return { ok: true, rule: { lhs, rhs, ...(pred ? { pred } : {}), domains: domainsOf(r.guards ?? []) } };
}

/** Does an expression use vectors (broadcast or ramp)? */
export function isVector(e: HExpr): boolean {
  let v = false;
  walkH(e, (x) => void (x.k === 'call' && (x.f === 'broadcast' || x.f === 'ramp') && (v = true)));
  return v;
}

export type HType = 'int' | 'bool';

/**
 * The type of every wildcard ([HR-MODEL]): Halide's booleans are a type of their own (one-bit
 * unsigned integers); a wildcard that is an operand of `&&`, `||`, `!` or a select's condition, or is
 * unified with one through `==`, a select's branches or the two sides of a rule, is boolean. The
 * rest are integers. Integer literals take the type their place needs.
 */
export function wildcardTypes(r: Modelled): Map<string, HType> {
  const parent = new Map<string, string>();
  const find = (a: string): string => {
    const p = parent.get(a);
    if (p === undefined || p === a) return a;
    const root = find(p);
    parent.set(a, root);
    return root;
  };
  const union = (a: string, b: string) => void parent.set(find(a), find(b));
  const BOOL = '#bool';
  const INT = '#int';
  let fresh = 0;
  /** The type variable of a node, with its operands constrained. */
  const tv = (e: HExpr): string => {
    switch (e.k) {
      case 'int':
        return `#lit${fresh++}`;
      case 'bool':
        return BOOL;
      case 'id':
        return LANE_PARAMS.has(e.name) ? INT : `w:${e.name}`;
      case 'cxx':
        return `#lit${fresh++}`;
      case 'un':
        if (e.op === '!') {
          union(tv(e.a), BOOL);
          return BOOL;
        }
        return tv(e.a);
      case 'bin': {
        const a = tv(e.a);
        const b = tv(e.b);
        if (e.op === '&&' || e.op === '||') {
          union(a, BOOL);
          union(b, BOOL);
          return BOOL;
        }
        union(a, b);
        if (['<', '<=', '>', '>=', '==', '!='].includes(e.op)) return BOOL;
        return a;
      }
      case 'call': {
        const ts = e.args.map(tv);
        switch (e.f) {
          case 'select':
            union(ts[0]!, BOOL);
            union(ts[1]!, ts[2]!);
            return ts[1]!;
          case 'min':
          case 'max':
            union(ts[0]!, ts[1]!);
            return ts[0]!;
          case 'fold':
            return ts[0]!;
          case 'broadcast':
            for (const t of ts.slice(1)) union(t, INT);
            return ts[0]!;
          case 'ramp':
            for (const t of ts) union(t, INT);
            return INT;
          default:
            return BOOL;
        }
      }
    }
  };
  union(tv(r.lhs), tv(r.rhs));
  if (r.pred) union(tv(r.pred), BOOL);
  // Booleans and integers unified means the rule mixes them (a literal used as both, say): then
  // no wildcard is restricted to 0 and 1, which only widens what is checked.
  const mixed = find(BOOL) === find(INT);
  const out = new Map<string, HType>();
  for (const e of [r.lhs, r.rhs, ...(r.pred ? [r.pred] : [])]) {
    walkH(e, (x) => {
      if (x.k === 'id' && !LANE_PARAMS.has(x.name)) out.set(x.name, !mixed && find(`w:${x.name}`) === find(BOOL) ? 'bool' : 'int');
    });
  }
  return out;
}
