// Proving rules with Z3 (spec/simplify.md [SIMP-PROVE]), as the TRS paper verifies Halide's (its §3.1):
// assert the predicate and that the two sides differ, and ask for a model. Unlike the paper, a
// divisor is never assumed non-zero (x div 0 = x mod 0 = 0, thesis §2.9, is modelled), and a rule of the
// `values` domain is checked on error values too: each side is a pair (error rank, integer), with
// rank 0 for integers, 1 for ε_rdom and 2 for ε_mem, and an operator yields the greatest rank of
// its arguments (def. 2.6). Every refutation is replayed with the evaluator before it is
// reported; an unknown or a timeout is reported as such, never as a proof.
import type { Expr } from '../expr/ast.js';
import { evalExpr } from '../expr/eval.js';
import { type BoolE, type Ctx, type IntE, intOp, withZ3 } from '../expr/smt.js';
import { E_MEM, E_RDOM, type Value, isError, normBig, valueToJson } from '../expr/value.js';
import { type Rule, isConstWildcard, showRule, wildcardNames } from './rule.js';

export type RuleVerdict =
  | { readonly status: 'proved'; readonly ms: number }
  /** values as in JSON (docs/architecture.md): integers, or "err:rdom" and "err:mem" */
  | { readonly status: 'refuted'; readonly ms: number; readonly counterexample: Readonly<Record<string, number | string>>; readonly lhs: number | string; readonly rhs: number | string }
  | { readonly status: 'unknown'; readonly ms: number; readonly reason: string };

/** A value as Z3 sees it: its error rank (0 for an integer) and, for an integer, the integer. */
interface Sym {
  readonly rank: IntE;
  readonly v: IntE;
}

const RANK: readonly Value[] = [0, E_RDOM, E_MEM];

function encoder(c: Ctx, vars: ReadonlyMap<string, Sym>): (e: Expr) => Sym {
  const zero = c.Int.val(0);
  const ex = (e: Expr): Sym => {
    switch (e.k) {
      case 'const':
        return isError(e.value) ? { rank: c.Int.val(e.value.rank), v: zero } : { rank: zero, v: c.Int.val(e.value) };
      case 'var':
        return vars.get(e.name)!;
      case 'op': {
        const args = e.args.map(ex);
        const rank = args.map((a) => a.rank).reduce((a, b) => c.If(a.ge(b), a, b) as IntE);
        return { rank, v: c.If(rank.eq(zero), intOp(c, e.op, args.map((a) => a.v)), zero) as IntE };
      }
      default:
        throw new Error(`internal: a rule pattern holds a ${e.k}`);
    }
  };
  return ex;
}

/**
 * A counterexample that does not depend on the solver's history, so that reports are the same on
 * every run: inside the smallest box |v| ≤ 4^k that holds one, each wildcard in turn takes the
 * first possible of integer, ε_rdom, ε_mem, and then of 0, −1, 1, −2, 2, … Undefined when a call
 * is undecided; the solver's own model is reported then.
 */
async function smallestModel(c: Ctx, facts: readonly BoolE[], vars: readonly Sym[], timeoutMs: number) {
  const s = new c.Solver();
  s.set('timeout', timeoutMs);
  s.add(...facts);
  const box = (b: number) => c.And(...vars.map((x) => c.And(x.v.ge(-b), x.v.le(b))));
  let b = 1;
  while ((await s.check(box(b))) !== 'sat') {
    if (b >= 1 << 20) return undefined;
    b *= 4;
  }
  s.add(box(b));
  /** Fixes `e` to the first candidate the facts allow. */
  const fix = async (e: IntE, candidates: readonly number[]): Promise<boolean> => {
    for (const k of candidates) {
      const answer = await s.check(e.eq(k));
      if (answer === 'unknown') return false;
      if (answer === 'sat') {
        s.add(e.eq(k));
        return true;
      }
    }
    return false;
  };
  const values = [0, ...Array.from({ length: b }, (_, i) => [-(i + 1), i + 1]).flat()];
  for (const x of vars) if (!(await fix(x.rank, [0, 1, 2])) || !(await fix(x.v, values))) return undefined;
  return (await s.check()) === 'sat' ? s.model() : undefined;
}

// implements [SIMP-PROVE]
export function proveRule(r: Rule, timeoutMs = 10_000): Promise<RuleVerdict> {
  return withZ3(async (c) => {
    const t0 = performance.now();
    const ms = () => Math.round((performance.now() - t0) * 100) / 100;
    const zero = c.Int.val(0);
    const vars = new Map<string, Sym>();
    const domainFacts: BoolE[] = [];
    const solver = new c.Solver();
    solver.set('timeout', timeoutMs);
    for (const name of wildcardNames(r.lhs)) {
      const v = c.Int.const(`v.${name}`);
      // Constant wildcards match integer literals only; term wildcards may be errors in `values`.
      if (isConstWildcard(name) || r.domain === 'integers') {
        vars.set(name, { rank: zero, v });
        continue;
      }
      const rank = c.Int.const(`rank.${name}`);
      domainFacts.push(rank.ge(0), rank.le(2), c.Implies(rank.neq(zero), v.eq(zero)));
      vars.set(name, { rank, v });
    }
    const ex = encoder(c, vars);
    const l = ex(r.lhs);
    const rr = ex(r.rhs);
    const facts: BoolE[] = [...domainFacts, c.Or(l.rank.neq(rr.rank), l.v.neq(rr.v))];
    if (r.pred) facts.push(ex(r.pred).v.neq(zero));
    solver.add(...facts);
    const answer = await solver.check();
    if (answer === 'unsat') return { status: 'proved', ms: ms() } as const;
    if (answer === 'unknown') return { status: 'unknown', ms: ms(), reason: `the solver answered unknown (${solver.reasonUnknown?.() ?? 'no reason given'})` } as const;
    const model = (await smallestModel(c, facts, [...vars.values()], timeoutMs)) ?? solver.model();
    const int = (e: IntE): bigint => {
      const v = model.eval(e, true);
      if (!c.isIntVal(v)) throw new Error(`internal: Z3 gave no integer: ${v.toString()}`);
      return v.value();
    };
    const env = new Map<string, Value>();
    for (const [name, s] of vars) {
      const rank = Number(int(s.rank));
      env.set(name, rank === 0 ? normBig(int(s.v)) : RANK[rank]!);
    }
    // The model is checked with the evaluator: a refutation is reported only when it replays.
    const lv = evalExpr(r.lhs, env);
    const rv = evalExpr(r.rhs, env);
    const predHolds = r.pred === undefined || evalExpr(r.pred, env) !== 0;
    if (!predHolds || lv === rv) return { status: 'unknown', ms: ms(), reason: "the solver's counterexample does not replay with the evaluator" } as const;
    const counterexample = Object.fromEntries([...env].map(([k, v]) => [k, valueToJson(v)]));
    return { status: 'refuted', ms: ms(), counterexample, lhs: valueToJson(lv), rhs: valueToJson(rv) } as const;
  });
}

export interface RuleReport {
  readonly name: string;
  readonly domain: Rule['domain'];
  readonly rule: string;
  readonly verdict: RuleVerdict;
}

/** Proves every rule, one after another (the solver is not re-entrant). */
export async function proveRules(rules: readonly Rule[], timeoutMs?: number): Promise<RuleReport[]> {
  const reports: RuleReport[] = [];
  for (const r of rules) reports.push({ name: r.name, domain: r.domain, rule: showRule(r), verdict: await proveRule(r, timeoutMs) });
  return reports;
}
