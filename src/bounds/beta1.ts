// β1: a tighter bounds engine that meets the quality constraint (def. 2.5). It runs the same
// backward inference as β0 (beta0.ts) with four refinements, each of which only ever shrinks an
// interval β0 would compute, so β1 succeeds wherever β0 does and its completions are no wider:
//  [BETA1-SIMPLIFY]  expressions are simplified before interval evaluation, so correlated terms
//                    cancel: (x + 1) − x is the point 1, not [1 − len, 1 + len]; the proved
//                    rules of the simplifier (spec/simplify.md, `integers` domain) rewrite them
//                    first, and the ends of the completion after;
//  [BETA1-RANGE]     a func access has the range of values the func's stores can write, when
//                    that range is bounded (min/max/select/clamp definitions), which bounds
//                    data-dependent indexing;
//  [BETA1-GUARD]     inside `c ⇒ …` a variable compared with a bound is cut by the comparison, so
//                    a guarded split tail (φ_Guard) gives exact per-iteration bounds;
//  [BETA1-EMPTY]     a compute pair nothing requires anything of is the empty interval (0, 0).
import { type Expr, walkExpr } from '../expr/ast.js';
import { isError } from '../expr/value.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { visitStmts } from '../target-semantics/walk.js';
import { type InferResult, infer } from './beta0.js';
import { type Interval, type IntervalEnv, TOP, evalInterval, hull, isBounded, point } from '../expr/interval.js';
import type { Query } from './query.js';
import { simplify } from '../expr/symbolic.js';
import { printExpr } from '../expr/print.js';
import { BUILTIN_RULE_SET } from '../simplify/builtin-rules.js';
import type { RuleSet } from '../simplify/rule.js';
import { simplifyWith } from '../simplify/simplify.js';

/**
 * The interval of every integer a func's buffer can ever hold: the union over its stores of the
 * interval of the stored value with loop variables unknown. Accesses to other funcs use their
 * ranges (funcs are defined before use, lemma 2.5); a func reading itself is unbounded.
 */
export function funcValueRanges(t: TgtProgram): Map<string, Interval> {
  const stores = new Map<string, Expr[]>();
  visitStmts(t.body, (s) => {
    if (s.k === 'store') stores.set(s.func, [...(stores.get(s.func) ?? []), s.value]);
  });
  const params = new Set([...t.params, ...t.window.flatMap((w) => [w.min, w.len])]);
  const ranges = new Map<string, Interval>();
  const busy = new Set<string>();
  const rangeOf = (f: string): Interval => {
    const known = ranges.get(f);
    if (known) return known;
    if (busy.has(f)) return TOP;
    busy.add(f);
    const env: IntervalEnv = {
      variable: (name) => (params.has(name) ? point({ k: 'var', name }) : TOP),
      hole: () => TOP,
      access: (e) => rangeOf(e.func),
    };
    const vals = stores.get(f) ?? [];
    const r = vals.length === 0 ? TOP : vals.map((v) => evalInterval(simplify(v), env)).reduce(hull);
    busy.delete(f);
    ranges.set(f, r);
    return r;
  };
  for (const f of stores.keys()) rangeOf(f);
  return ranges;
}

/**
 * The simplifier's rewriting in the `integers` domain: interval ends and the index expressions
 * they come from only need to cover integer values (an error value as an index is out of bounds
 * whatever the bounds, def. 2.13). Memoized per run, since β1 reads the same expressions often.
 */
function rewriter(rules: RuleSet): (e: Expr) => Expr {
  const memo = new Map<Expr, Expr>();
  return (e) => {
    let r = memo.get(e);
    // An expression that writes an error constant is not in the domain the rules are proved for
    // (error-free integers), and its interval is read off it as written.
    if (!r) memo.set(e, (r = writesError(e) ? e : simplifyWith(e, rules, { domain: 'integers' })));
    return r;
  };
}

function writesError(e: Expr): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (x.k === 'const' && isError(x.value)) found = true;
  });
  return found;
}

/** β1; `rules: null` leaves out the simplifier's rules (the linear simplification alone, for comparison). */
export function beta1(t: TgtProgram, q: Query, trace?: (rule: string, text: string) => void, rules: RuleSet | null = BUILTIN_RULE_SET): InferResult {
  const ranges = funcValueRanges(t);
  return infer(t, q, {
    ...(trace ? { trace } : {}),
    simplifyFirst: true,
    ...(rules ? { rewrite: rewriter(rules) } : {}),
    accessRange: (e) => {
      const r = ranges.get(e.func);
      if (!r || !isBounded(r)) return undefined;
      trace?.('BETA1-RANGE', `${e.func} holds values in [${printExpr(r.lo!, 'tgt')}, ${printExpr(r.hi!, 'tgt')}]`);
      return r;
    },
    useGuards: true,
    emptyUndetermined: true,
  });
}
