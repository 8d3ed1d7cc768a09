// Halide's rfactor in Halide-style schedules (spec/halide-schedules.md, [HALIDE-STYLE-RFACTOR]).
// rfactor(r, u) rewrites an update `f(x) ⊕= e` over an rdom into an intermediate func that
// reduces the slices of the rdom along r separately (indexed by the new pure variable u), and a
// merge that reduces those partial results into f. The rewrite regroups the operands of ⊕ and,
// when r is not the outermost reduction variable, reorders them; it keeps the multiset of operands
// each point receives. So the values are those of the update as written exactly when ⊕ is
// associative and commutative and its identity (the intermediate's initial value) is an identity
// on every value. refsem checks that, and then checks the update as written: refsem's program has
// no intermediate func, and the calls that schedule it are Halide's to check (each one noted).
import { UserError, showLoc } from '../diag.js';
import { type Expr, type OpName, walkExpr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import { REDUCE_OPS, reductionOf, samePoint } from '../effects/effect.js';
import { stageLabel } from '../target-semantics/loop-name.js';
import { ownExprs } from '../target-semantics/holes.js';
import { isInside, loopsOf, visitStmts } from '../target-semantics/walk.js';
import type { Stmt } from '../target-semantics/ast.js';
import { type Translation, arity, nameArg } from './halide-calls.js';
import type { HalideArg, HalideCall } from './halide-syntax.js';
import { isPure, labelOf } from './loops.js';

/** Operators refsem refuses to factor, with the hazard. */
const HAZARD: Readonly<Record<string, string>> = {
  '-': 'subtraction is neither associative nor commutative: regrouping (a − b) − c as a − (b − c) changes the value',
  div: 'division is neither associative nor commutative: regrouping the quotients changes the value',
  mod: 'the remainder is neither associative nor commutative: regrouping changes the value',
  and: '&& is associative and commutative, but its identity 1 is an identity only on 0 and 1: a slice with no point left by the predicate would turn a value v ≠ 0 of the func into 1',
  or: '|| is associative and commutative, but its identity 0 is an identity only on 0 and 1: a slice with no point left by the predicate would turn a value v into (v ≠ 0)',
};

function refuse(c: HalideCall, what: string, hint: string): never {
  throw new UserError(`${c.text}: [HALIDE-STYLE-RFACTOR] ${what}`, c.loc, hint);
}

/** The single store of stage `i` of f (its update), or undefined. */
function stageStore(stage: Stmt, f: string): Extract<Stmt, { k: 'store' }> | undefined {
  const stores: Extract<Stmt, { k: 'store' }>[] = [];
  visitStmts(stage, (s) => void (s.k === 'store' && s.func === f && stores.push(s)));
  return stores.length === 1 ? stores[0] : undefined;
}

/** The operands of a chain `a ⊕ b ⊕ …` of one operator. */
const chain = (e: Expr, o: OpName): Expr[] => (e.k === 'op' && e.op === o ? e.args.flatMap((a) => chain(a, o)) : [e]);

/**
 * The operator of a store reducing the point it writes: [EFF-REDUCE]'s `f[i] <- f[i] ⊕ e`, or a
 * chain `a ⊕ f[i] ⊕ b …` of one such operator with f[i] among its operands, which ⊕'s
 * associativity and commutativity make `f[i] ⊕ (a ⊕ b …)` (Halide's `f(x) + a + b`).
 */
function reducingOp(s: Extract<Stmt, { k: 'store' }>): OpName | undefined {
  const direct = reductionOf(s);
  if (direct) return direct.op;
  const v = s.value;
  return v.k === 'op' && REDUCE_OPS.has(v.op) && chain(v, v.op).some((a) => samePoint(a, s.func, s.idx)) ? v.op : undefined;
}

/** How many reads of f the stage makes (its self-read of a reduction included). */
function readsOf(stage: Stmt, f: string): number {
  let n = 0;
  visitStmts(stage, (s) => {
    for (const e of ownExprs(s)) walkExpr(e, (x) => void (x.k === 'access' && x.func === f && n++));
  });
  return n;
}

/**
 * `f.update(i).rfactor(r, u)`: accepted when update i is a reduction `f(p) ⊕= e` with ⊕ one of
 * refsem's reductions (+, ·, min, max: [EFF-REDUCE]) and neither e, the point p nor the predicate
 * reads f; r is a reduction loop of the stage. The reduction loops other than r move into the
 * intermediate, so later calls on the stage may not name them (Halide's rule too).
 */
export function rfactorCall(tr: Translation, f: string, c: HalideCall): void {
  // implements [HALIDE-STYLE-RFACTOR]
  if (c.stage === 0) refuse(c, `rfactor factors an update definition, and this call is on ${f}'s pure definition`, `write ${f}.update(0).${c.text}`);
  const t = tr.program;
  const label = stageLabel(f, c.stage);
  const site = labelOf(t, label)!;
  const loops = loopsOf(t).filter((l) => isInside(l.path, site.path)).map((l) => l.stmt.var);
  const reductionLoops = loops.filter((v) => !isPure(t, v));
  const factored: string[] = [];
  const fresh: string[] = [];
  for (const [r, v] of pairsOf(c)) {
    const rv = tr.loop(f, c.stage, nameArg(c, r, 'the reduction variable to factor'));
    const u = nameArg(c, v, 'the new pure variable');
    if (!reductionLoops.includes(rv)) {
      refuse(c, `${rv} is not a reduction loop of ${label}`, reductionLoops.length > 0 ? `factor one of its reduction loops: ${reductionLoops.join(', ')}` : `${label} has no reduction loop to factor`);
    }
    if (factored.includes(rv)) refuse(c, `${rv} is factored twice`, 'name each reduction variable once in the list');
    if (loops.includes(tr.loop(f, c.stage, u)) || fresh.includes(u)) refuse(c, `the new variable '${u}' already names a loop of ${label} or another pair of the list`, 'give each of the intermediate\'s new pure variables a fresh name');
    factored.push(rv);
    fresh.push(u);
  }
  const store = stageStore(site.stmt, f);
  const red = store && reducingOp(store);
  const shown = store ? `${f}[${store.idx.map((e) => printExpr(e, 'tgt')).join(', ')}] <- ${printExpr(store.value, 'tgt')}` : `${label}`;
  if (!red) {
    const o = store?.value.k === 'op' ? store.value.op : undefined;
    const why = (o && HAZARD[o]) ?? `it is not a reduction f(p) ⊕ e of the point p it writes, with ⊕ one of ${[...REDUCE_OPS].join(', ')}, so regrouping its updates can change the value`;
    refuse(c, `rfactor would regroup the updates of ${shown}, and ${why}`, o === '-' ? `write the update as ${f}(…) + (0 - e), a sum, which refsem can factor` : 'keep the update serial (drop rfactor), or write the factored reduction in the .alg file');
  }
  if (readsOf(site.stmt, f) !== 1) {
    refuse(c, `${shown} reads ${f} at a point other than the one it reduces (or in its predicate), so the partial results would see values of ${f} in another order`, 'keep the update serial (drop rfactor)');
  }
  tr.factor(label, c, new Set(reductionLoops.filter((v) => !factored.includes(v))));
  // The merge runs over the factored variables outermost, in the rdom's order; the slices keep
  // the order of the others: the operands keep their order exactly when the factored variables
  // are the outermost reduction loops.
  const keeps = factored.every((v) => reductionLoops.slice(0, factored.length).includes(v));
  const order = keeps ? 'keeps the order of its operands' : 'reorders its operands (⊕ is commutative)';
  tr.notes.push(`${showLoc(c.loc)}: note: ${c.text}: [HALIDE-STYLE-RFACTOR] accepted: ${shown} reduces by ${red}, associative and commutative with an identity on every value, so the factored reduction, which regroups and ${order}, has the values of the update as written; refsem checks the update as written\n`);
}

/**
 * The (reduction variable, new pure variable) pairs of an rfactor call: `rfactor(r, u)`, or the list
 * form `rfactor({{r, u}, {s, v}})` (C++) / `rfactor([(r, u), (s, v)])` (Python).
 */
function pairsOf(c: HalideCall): (readonly [HalideArg | undefined, HalideArg | undefined])[] {
  const list = c.args.length === 1 && c.args[0]!.k === 'list' ? c.args[0]!.items : undefined;
  if (list === undefined) {
    arity(c, 2);
    return [[c.args[0], c.args[1]]];
  }
  if (list.length === 0) refuse(c, 'the list of pairs to factor is empty', 'name at least one pair {r, u}');
  return list.map((p) => {
    if (p.k !== 'list' || p.items.length !== 2) return refuse(c, 'each item of the list is a pair {r, u} of a reduction variable and a new pure variable', 'write rfactor({{r, u}, {s, v}}) or rfactor([(r, u), (s, v)])');
    return [p.items[0], p.items[1]] as const;
  });
}

/**
 * A call that schedules rfactor's intermediate func, which refsem's program does not have: a
 * placement, loop or no-value call is skipped with a note saying so; a bound (whose assertion
 * Halide would check on a func refsem cannot see) or a further rfactor is refused.
 */
export function intermediateCall(tr: Translation, c: HalideCall, of: HalideCall): void {
  // implements [HALIDE-STYLE-RFACTOR]
  const where = `${of.text} (${showLoc(of.loc)})`;
  if (['bound', 'bound_extent', 'align_bounds', 'rfactor'].includes(c.name)) {
    refuse(c, `${c.name} on the intermediate func of ${where}: refsem's program has no such func, so what it asserts or rewrites cannot be checked`, `drop it, or write the factored reduction in the .alg file and schedule it there`);
  }
  tr.notes.push(`${showLoc(c.loc)}: note: ${c.text}: [HALIDE-STYLE-RFACTOR] schedules the intermediate func of ${where}, which refsem's program does not have: skipped, not checked by refsem (Halide checks it); the values are those of the update refsem checks\n`);
}

