// Synthesizing rules, as the TRS paper does (its §4): left-hand sides are proposed from
// expressions the simplifier leaves alone, and a right-hand side is found by a counterexample-
// guided loop. Candidates are enumerated smallest first from the left-hand side's wildcards,
// a few constants and the operators; only those below the left-hand side in the reduction order
// are considered; a candidate must agree with the left-hand side on every test environment found
// so far, and is then given to Z3: a proof ends the search, a counterexample joins the tests.
import { type Expr, type OpName, OP_ARITY, exprEquals, walkExpr } from '../expr/ast.js';
import { evalExpr } from '../expr/eval.js';
import { parseExprText } from '../expr/parse.js';
import { printExpr } from '../expr/print.js';
import { showH } from './halide/ast.js';
import { constantGrid, holds, predicateCandidates } from './halide/predicate.js';
import { E_MEM, E_RDOM, type Value, int, valueFromJson } from '../expr/value.js';
import { seededRng } from '../rng.js';
import { ruleDecreases } from './order.js';
import { proveRule } from './prove-z3.js';
import { type Domain, type Rule, groupOf, isConstWildcard, wildcards } from './rule.js';

/** Operators right-hand sides are built from (select and the logical ones add little here). */
const RHS_OPS: readonly OpName[] = ['+', '-', '*', 'div', 'mod', 'min', 'max'];

// implements [SIMP-SYNTH]
export interface SynthesisResult {
  readonly rule?: Rule;
  /** candidates that survived the tests and were given to Z3 */
  readonly proofs: number;
  /** counterexamples Z3 returned, each a new test */
  readonly counterexamples: number;
}

/** Right-hand side candidates with at most `maxOps` operators, smallest first. */
function candidates(leaves: readonly Expr[], maxOps: number): Expr[][] {
  const bySize: Expr[][] = [leaves.slice()];
  for (let n = 1; n <= maxOps; n++) {
    const out: Expr[] = [];
    for (const o of RHS_OPS) {
      if (OP_ARITY[o] !== 2) continue;
      for (let a = 0; a < n; a++) {
        for (const x of bySize[a]!) for (const y of bySize[n - 1 - a]!) out.push({ k: 'op', op: o, args: [x, y] });
      }
    }
    bySize.push(out);
  }
  return bySize;
}

/** Leaves of right-hand sides: the wildcards, 0 and 1, and the integer constants of the left-hand side. */
function leavesOf(lhs: Expr): Expr[] {
  const { terms, consts } = wildcards(lhs);
  const literals = new Set<Value>([0, 1]);
  walkExpr(lhs, (x) => void (x.k === 'const' && typeof x.value !== 'object' && literals.add(x.value)));
  return [...[...terms, ...consts].map((v): Expr => ({ k: 'var', name: v })), ...[...literals].map((value): Expr => ({ k: 'const', value }))];
}

/** Test environments: random small values for every wildcard, error values for term wildcards in `values`. */
function initialTests(lhs: Expr, domain: Domain, n: number): Map<string, Value>[] {
  const { terms, consts } = wildcards(lhs);
  const rng = seededRng(7);
  const pick = (xs: readonly Value[]) => xs[rng.below(xs.length)]!;
  const ints = [-7, -3, -2, -1, 0, 0, 1, 2, 3, 5, 8].map((k) => int(k));
  return Array.from({ length: n }, () => {
    const env = new Map<string, Value>();
    for (const c of consts) env.set(c, pick(ints));
    for (const t of terms) env.set(t, domain === 'values' && rng.below(7) === 0 ? pick([E_RDOM, E_MEM]) : pick(ints));
    return env;
  });
}

const agrees = (lhs: Expr, rhs: Expr, pred: Expr | undefined, env: ReadonlyMap<string, Value>): boolean =>
  (pred !== undefined && evalExpr(pred, env) === 0) || evalExpr(lhs, env) === evalExpr(rhs, env);

/** Searches for a right-hand side of `lhs` (with predicate `pred`) that is proved in `domain`. */
export async function synthesizeRhs(
  name: string,
  lhs: Extract<Expr, { k: 'op' }>,
  domain: Domain,
  opts: { pred?: Expr; maxOps?: number; timeoutMs?: number; tests?: number; accept?: (rhs: Expr) => boolean } = {},
): Promise<SynthesisResult> {
  const tests = initialTests(lhs, domain, opts.tests ?? 24);
  let proofs = 0;
  let counterexamples = 0;
  for (const size of candidates(leavesOf(lhs), opts.maxOps ?? 2)) {
    for (const rhs of size) {
      if (exprEquals(rhs, lhs)) continue;
      const rule: Rule = { name, domain, lhs, rhs, ...(opts.pred ? { pred: opts.pred } : {}) };
      // A rule must decrease the order; super-simplification asks only for a smaller expression.
      if (!(opts.accept ? opts.accept(rhs) : ruleDecreases(rule).greater)) continue;
      if (!tests.every((env) => agrees(lhs, rhs, opts.pred, env))) continue;
      proofs++;
      const v = await proveRule(rule, opts.timeoutMs ?? 2000);
      if (v.status === 'proved') return { rule, proofs, counterexamples };
      if (v.status === 'refuted') {
        counterexamples++;
        tests.push(new Map(Object.entries(v.counterexample).map(([k, x]) => [k, valueFromJson(x)] as const)));
      }
    }
  }
  return { proofs, counterexamples };
}

/**
 * Left-hand sides proposed by one expression: each operator subterm of at most `maxNodes` nodes,
 * with its variables, accesses and holes made term wildcards and its integer constants either kept
 * or made constant wildcards (the TRS paper generalizes subterms the same way, §4).
 */
export function proposeLhs(e: Expr, maxNodes = 7): Extract<Expr, { k: 'op' }>[] {
  const out: Extract<Expr, { k: 'op' }>[] = [];
  walkExpr(e, (sub) => {
    if (sub.k !== 'op') return;
    let nodes = 0;
    walkExpr(sub, () => void nodes++);
    if (nodes > maxNodes) return;
    for (const generalizeConsts of [false, true]) {
      const names = new Map<string, string>();
      let consts = 0;
      const gen = (x: Expr): Expr => {
        if (x.k === 'op') return { k: 'op', op: x.op, args: x.args.map(gen) };
        if (x.k === 'const') return generalizeConsts && typeof x.value !== 'object' ? { k: 'var', name: `c${consts++}` } : { k: 'const', value: x.value };
        // Equal leaves get the same wildcard, so that correlated terms stay correlated.
        const key = printExpr(x, 'tgt');
        if (!names.has(key)) names.set(key, 'xyzwuv'[names.size] ?? `t${names.size}`);
        return { k: 'var', name: names.get(key)! };
      };
      const p = gen(sub);
      if (p.k === 'op' && !out.some((q) => exprEquals(q, p))) out.push(p);
    }
  });
  return out;
}

/**
 * A rule with a predicate for a left-hand side no right-hand side holds for on every constant
 * ([SIMP-SYNTH] step 3b, the TRS paper's predicates, §4): every candidate below the left-hand side
 * in the order is tried at each point of a grid of constant values ([HR-PRED]'s grid) on the test
 * environments; the candidates that hold at some points but not all are ranked by how many points
 * they cover, then by size, and for each the simplest predicate of [HR-PRED]'s grammar that is true
 * exactly where it holds on the grid is proposed. Z3 proves the rule with that predicate, or its
 * counterexample joins the tests.
 */
export async function synthesizeGuarded(
  name: string,
  lhs: Extract<Expr, { k: 'op' }>,
  domain: Domain,
  opts: { maxOps?: number; timeoutMs?: number; tests?: number; tries?: number } = {},
): Promise<SynthesisResult> {
  const consts = [...wildcards(lhs).consts].sort();
  if (consts.length === 0 || consts.length > 3) return { proofs: 0, counterexamples: 0 };
  const { grid } = constantGrid(consts);
  const tests = initialTests(lhs, domain, opts.tests ?? 24);
  // Each test at each grid point, with the left-hand side's value there computed once.
  const points = grid.map((g) =>
    tests.map((env) => {
      const e = new Map([...env, ...[...g].map(([k, v]) => [k, Number(v) as Value] as const)]);
      return { env: e, lhs: evalExpr(lhs, e) };
    }),
  );
  const ranked: { rhs: Expr; truth: boolean[]; covered: number; size: number }[] = [];
  for (const [size, level] of candidates(leavesOf(lhs), opts.maxOps ?? 2).entries()) {
    for (const rhs of level) {
      if (exprEquals(rhs, lhs) || !ruleDecreases({ name, domain, lhs, rhs }).greater) continue;
      const truth = points.map((ts) => ts.every((t) => evalExpr(rhs, t.env) === t.lhs));
      const covered = truth.filter(Boolean).length;
      if (covered > 0 && covered < grid.length) ranked.push({ rhs, truth, covered, size });
    }
  }
  ranked.sort((a, b) => b.covered - a.covered || a.size - b.size);
  const preds = predicateCandidates(consts);
  let proofs = 0;
  let counterexamples = 0;
  for (const cand of ranked.slice(0, opts.tries ?? 8)) {
    const p = preds.find((q) => grid.every((g, i) => holds(q, g) === cand.truth[i]));
    if (!p) continue;
    const rule: Rule = { name, domain, lhs, rhs: cand.rhs, pred: parseExprText(showH(p), 'alg') };
    proofs++;
    const v = await proveRule(rule, opts.timeoutMs ?? 2000);
    if (v.status === 'proved') return { rule, proofs, counterexamples };
    if (v.status === 'refuted') counterexamples++;
  }
  return { proofs, counterexamples };
}

/** Does the pattern `general` match everything `specific` matches (a constant wildcard matching a constant or a constant wildcard)? */
function covers(general: Expr, specific: Expr, b = new Map<string, Expr>()): boolean {
  if (general.k === 'var') {
    if (isConstWildcard(general.name) && !(specific.k === 'const' || (specific.k === 'var' && isConstWildcard(specific.name)))) return false;
    const known = b.get(general.name);
    if (known) return exprEquals(known, specific);
    b.set(general.name, specific);
    return true;
  }
  if (general.k === 'const') return specific.k === 'const' && specific.value === general.value;
  return general.k === 'op' && specific.k === 'op' && general.op === specific.op && general.args.every((a, i) => covers(a, specific.args[i]!, b));
}

export interface Placement {
  readonly rules: Rule[];
  /** the rule of the same root the new one is placed before, if any */
  readonly before?: string;
  readonly group: string;
}

/**
 * Places a synthesized rule among `rules` ([SIMP-SYNTH] step 4): rules of one root are tried in
 * order and the first match wins, so the new rule goes before the first rule of its root whose
 * left-hand side covers its own (which would otherwise shadow it), else after the last rule of its
 * root. Only a rule below its left-hand side in the order is placed: every rule of the set then
 * still decreases, and so the set still terminates ([SIMP-ORDER]).
 */
export function placeRule(rules: readonly Rule[], rule: Rule): Placement | undefined {
  if (!ruleDecreases(rule).greater) return undefined;
  const group = groupOf(rule);
  const shadow = rules.findIndex((r) => r.lhs.op === rule.lhs.op && covers(r.lhs, rule.lhs));
  if (shadow >= 0) return { rules: [...rules.slice(0, shadow), rule, ...rules.slice(shadow)], before: rules[shadow]!.name, group };
  const same = rules.map((r, i) => (r.lhs.op === rule.lhs.op ? i + 1 : 0));
  const at = Math.max(0, ...same) || rules.length;
  return { rules: [...rules.slice(0, at), rule, ...rules.slice(at)], group };
}
