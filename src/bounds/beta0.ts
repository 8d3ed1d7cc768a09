// The reference bounds engine β0 (fig. 2.10b, §2.7.2) and the machinery β1 refines (beta1.ts).
//
// β0 walks the query backwards through each ∧ chain, so that a func's consumers, which follow it
// in the program, are read before its own loops, and unions into each hole pair the interval of
// every point that a membership requires it to contain. Holes are Skolem functions of the
// variables bound around their ∃ (the `label f` or `allocate f` that introduces them): inside
// that scope a variable is a symbolic point, and a membership deeper inside widens the variables
// that are not in the hole's scope to their intervals ([BETA0-SCOPE]). That is how a func computed
// at a loop gets per-iteration bounds (fig. 2.2).
import { type Expr, type Hole, exprEquals, holeKey, op, walkExpr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import { type Loc, showLoc } from '../diag.js';
import type { BoundsHint, TgtProgram } from '../target-semantics/ast.js';
import type { Completion } from '../target-semantics/holes.js';
import { holesOf } from '../target-semantics/holes.js';
import { type Interval, type IntervalEnv, TOP, evalInterval, fromMinLen, hull, isBounded, meet, minLen, point } from '../expr/interval.js';
import { type HolePair, type QNode, type Query, pairHole, pairKey, pairOfHole, queryPairs } from './query.js';
import { C, addE, constOf, divE, mulE, provablyLe, simplify, subE } from '../expr/symbolic.js';

/** An assertion a bounds hint asks for, inserted just before `label func` (completion.ts). */
export interface CoverAssertion {
  readonly rule: string;
  readonly func: string;
  /** the hint's location, given to the inserted assertion */
  readonly loc?: Loc;
  readonly cond: Expr;
  readonly why: string;
}

export type InferResult =
  | { readonly ok: true; readonly completion: Completion; readonly intervals: ReadonlyMap<string, Interval>; readonly assertions: readonly CoverAssertion[] }
  | { readonly ok: false; readonly explanation: string; readonly hole?: string };

/** The refinements β1 switches on; β0 uses none. */
export interface InferOptions {
  /** simplify expressions before evaluating them, so that correlated terms cancel */
  readonly simplifyFirst?: boolean;
  /** a further rewriting of expressions before they are simplified and of the completion's ends */
  readonly rewrite?: (e: Expr) => Expr;
  /** interval of the values of a func access, from the func's definitions; undefined = unknown */
  readonly accessRange?: (e: Extract<Expr, { k: 'access' }>) => Interval | undefined;
  /** refine variable intervals with the antecedents of implications (guards, if conditions) */
  readonly useGuards?: boolean;
  /** a compute pair nothing requires anything of is the empty interval (0, 0) instead of a failure */
  readonly emptyUndetermined?: boolean;
  /** receives each step with the rule that took it (`refsem bounds --trace`) */
  readonly trace?: (rule: string, text: string) => void;
}

interface Binder {
  readonly name: string;
  readonly index: number;
  readonly iv: Interval;
  readonly widened: Map<number, Interval>;
}

interface PairState {
  readonly pair: HolePair;
  iv?: Interval;
  why?: string;
}

class Inference {
  readonly gamma = new Map<string, PairState>();
  readonly depth = new Map<string, number>();
  readonly scope: Binder[] = [];
  /** number of query binders (∀, let) around the current node; refined binders do not count */
  qdepth = 0;
  readonly assertions: CoverAssertion[] = [];
  failure?: { explanation: string; hole?: string };

  constructor(
    readonly q: Query,
    readonly hints: readonly BoundsHint[],
    readonly opts: InferOptions,
  ) {
    for (const [k, p] of queryPairs(q)) this.gamma.set(k, { pair: p });
    this.bindDepths(q.body, 0);
  }

  private bindDepths(n: QNode, d: number): void {
    switch (n.k) {
      case 'and':
        return n.parts.forEach((p) => this.bindDepths(p, d));
      case 'implies':
        return this.bindDepths(n.body, d);
      case 'forall':
      case 'let':
        return this.bindDepths(n.body, d + 1);
      case 'exists':
        for (const p of n.pairs) this.depth.set(pairKey(p), d);
        return this.bindDepths(n.body, d);
      default:
        return;
    }
  }

  /** The environment in which variables bound at index < d are points and deeper ones are widened. */
  envAt(d: number): IntervalEnv {
    const self = this;
    return {
      variable(name) {
        const b = self.binder(name);
        if (b) return b.index < d ? point({ k: 'var', name }) : self.widen(b, d);
        // Parameters (and window parameters) are the query's ∀-bound points.
        return self.q.params.includes(name) ? point({ k: 'var', name }) : TOP;
      },
      hole(h) {
        return self.holeEnd(h, d);
      },
      access(e) {
        return self.opts.accessRange?.(e) ?? TOP; // [I-ACCESS]
      },
    };
  }

  /** A binder's interval over the variables outer to it, with those at index ≥ d widened too. */
  private widen(b: Binder, d: number): Interval {
    let w = b.widened.get(d);
    if (w) return w;
    const env = this.envAt(d);
    w = {
      lo: b.iv.lo === null ? null : evalInterval(b.iv.lo, env).lo,
      hi: b.iv.hi === null ? null : evalInterval(b.iv.hi, env).hi,
    };
    b.widened.set(d, w);
    this.step('BETA0-SCOPE', () => `${b.name} is outside the scope of the hole: widened to ${showIv(w!)}`);
    return w;
  }

  /** [I-HOLE] an end of a hole is the end of its pair's current interval, as an expression. */
  private holeEnd(h: Hole, d: number): Interval {
    const st = this.gamma.get(pairKey(pairOfHole(h)));
    if (!st?.iv) return this.opts.emptyUndetermined && h.kind === 'cpu' ? point(C(0)) : TOP;
    const ml = minLen(st.iv);
    const e = h.end === 'min' ? ml.min : ml.len;
    return e === null ? TOP : evalInterval(e, this.envAt(d));
  }

  eval(e: Expr, d: number): Interval {
    if (!this.opts.simplifyFirst) return evalInterval(e, this.envAt(d));
    const s = simplify(this.opts.rewrite ? this.opts.rewrite(e) : e);
    if (this.opts.trace && !exprEquals(s, e)) this.opts.trace('BETA1-SIMPLIFY', `${show(e)} is read as ${show(s)}`);
    return evalInterval(s, this.envAt(d));
  }

  private step(rule: string, text: () => string): void {
    this.opts.trace?.(rule, text());
  }

  private binder(name: string): Binder | undefined {
    for (let i = this.scope.length - 1; i >= 0; i--) if (this.scope[i]!.name === name) return this.scope[i];
    return undefined;
  }

  private within(name: string, iv: Interval, body: () => void): void {
    this.scope.push({ name, index: this.qdepth++, iv, widened: new Map() });
    body();
    this.scope.pop();
    this.qdepth--;
  }

  /** β0 on one node; conjunctions right to left (β0(b1 ∧ b2, Γ) = β0(b1, β0(b2, Γ))). */
  run(n: QNode): void {
    switch (n.k) {
      case 'true':
      case 'pred':
        return;
      case 'and':
        for (let i = n.parts.length - 1; i >= 0; i--) this.run(n.parts[i]!);
        return;
      case 'implies': // the antecedent is ignored (β1 may use it)
        if (this.opts.useGuards) return this.guarded(n.cond, () => this.run(n.body));
        this.step('BETA0-IMPLIES', () => `ignore the antecedent ${show(n.cond)}`);
        return this.run(n.body);
      case 'exists':
        this.step('BETA0-EXISTS', () => `enter the scope of ${n.pairs.map(pairKey).join(', ')}`);
        for (const p of n.pairs) this.applyHints(p);
        return this.run(n.body);
      case 'forall': {
        // [BETA0-FORALL] v ranges over [min, min + len − 1], its ends over the current scope.
        const d = this.qdepth;
        const { lo, hi } = fromMinLen(n.min, n.len);
        const iv = { lo: this.eval(lo, d).lo, hi: this.eval(hi, d).hi };
        this.step('BETA0-FORALL', () => `${n.v} ∈ ${showIv(iv)}`);
        return this.within(n.v, iv, () => this.run(n.body));
      }
      case 'let': {
        const iv = this.eval(n.e, this.qdepth);
        this.step('BETA0-LET', () => `${n.v} ∈ ${showIv(iv)}`);
        return this.within(n.v, iv, () => this.run(n.body));
      }
      case 'in': {
        // [BETA0-IN] Γ[?ℓ ↦ Γ(?ℓ) ∪ 𝓘(e, Γ)], evaluated in the scope of the hole.
        const key = pairKey(n.pair);
        const st = this.gamma.get(key)!;
        const iv = this.eval(n.e, this.depth.get(key) ?? 0);
        st.iv = st.iv ? hull(st.iv, iv) : iv;
        this.step('BETA0-IN', () => `${show(n.e)} ∈ ${key}: add ${showIv(iv)}`);
        if (!isBounded(iv) && st.why === undefined) st.why = unboundedWhy(n.e, iv);
        return;
      }
    }
  }

  /** β1: inside `cond ⇒ …`, a variable compared with a bound is known to satisfy the comparison. */
  private guarded(cond: Expr, body: () => void): void {
    const facts = guardFacts(cond);
    let pushed = 0;
    for (const { v, bound, side } of facts) {
      const b = this.binder(v);
      if (!b) continue;
      // The cut must be expressible where v is bound: it may mention only outer variables.
      let outerOnly = true;
      walkExpr(bound, (x) => {
        if (x.k !== 'var') return;
        const xb = this.binder(x.name);
        if (xb ? xb.index >= b.index : !this.q.params.includes(x.name)) outerOnly = false;
      });
      if (!outerOnly) continue;
      const biv = this.eval(bound, b.index);
      const cut: Interval = side === 'hi' ? { lo: null, hi: biv.hi } : { lo: biv.lo, hi: null };
      this.step('BETA1-GUARD', () => `${v} ${side === 'hi' ? '≤' : '≥'} ${show(bound)} inside ${show(cond)}`);
      // The refined binder shadows v and stands where v is bound (same index).
      this.scope.push({ name: v, index: b.index, iv: meet(b.iv, cut), widened: new Map() });
      pushed++;
    }
    body();
    this.scope.splice(this.scope.length - pushed, pushed);
  }

  /**
   * Bounds-phase hints (§2.8.5) fix or widen the final compute pair before f's loops read it; for a
   * dimension the final stage does not loop over, the pairs of the stages that do ([HINT-STAGES]).
   */
  private applyHints(p: HolePair): void {
    // implements [HINT-STAGES]
    if (p.kind !== 'cpu' || (p.stage !== undefined && this.gamma.has(pairKey({ kind: 'cpu', func: p.func, dim: p.dim })))) return;
    const st = this.gamma.get(pairKey(p));
    if (!st) return;
    for (const h of this.hints) {
      if (h.func !== p.func || h.dim !== p.dim) continue;
      const need = st.iv;
      if (need && !isBounded(need)) {
        this.fail(`the hint ${h.k}(${p.func}, ${p.dim}) cannot be checked: the covering ${pairKey(p)} needs is unbounded (${st.why ?? 'unknown reason'})`, pairKey(p));
        return;
      }
      const where = h.loc ? ` (${showLoc(h.loc)})` : '';
      const at = h.loc ? { loc: h.loc } : {};
      switch (h.k) {
        case 'bound': {
          // [HINT-BOUND] fixed (min, len) and an assertion that it contains what is needed
          const fixed = fromMinLen(h.min, h.len);
          if (need) this.assertions.push({ rule: 'HINT-BOUND', ...at, func: p.func, cond: covers(fixed, need), why: `bound(${p.func}, ${p.dim})${where}` });
          st.iv = fixed;
          break;
        }
        case 'bound-extent': {
          // [HINT-BOUND-EXTENT] the inferred min, the given length, and the covering assertion
          if (!need) {
            this.fail(`bound-extent(${p.func}, ${p.dim}) fixes only the length, but nothing determines the min of ${pairKey(p)}`, pairKey(p));
            return;
          }
          const fixed = fromMinLen(need.lo!, h.len);
          this.assertions.push({ rule: 'HINT-BOUND-EXTENT', ...at, func: p.func, cond: covers(fixed, need), why: `bound-extent(${p.func}, ${p.dim})${where}` });
          st.iv = fixed;
          break;
        }
        case 'align-bounds': {
          // [HINT-ALIGN] min' = min − ((min − r) mod m), len' = ((min + len − min' + m − 1) div m)·m
          if (!need) break;
          const m = h.modulus;
          const k = constOf(m);
          if (k !== undefined && k <= 0) {
            this.fail(`align-bounds(${p.func}, ${p.dim}) needs a positive modulus, not ${printExpr(m, 'tgt')}`, pairKey(p));
            return;
          }
          if (k === undefined) this.assertions.push({ rule: 'HINT-ALIGN', ...at, func: p.func, cond: op('>', m, C(0)), why: `align-bounds(${p.func}, ${p.dim})${where}` });
          const lo = subE(need.lo!, simplify(op('mod', subE(need.lo!, h.remainder), m)));
          const len = mulE(divE(addE(subE(need.hi!, lo), m), m), m);
          st.iv = fromMinLen(lo, len);
          this.step('HINT-ALIGN', () => `${pairKey(p)} widened to ${showIv(st.iv!)}`);
          break;
        }
      }
    }
  }

  fail(explanation: string, hole?: string): void {
    this.failure ??= hole === undefined ? { explanation } : { explanation, hole };
  }
}

/** [needLo, needHi] ⊆ fixed, as a condition of the target language. */
function covers(fixed: { lo: Expr; hi: Expr }, need: Interval): Expr {
  const le = (a: Expr, b: Expr): Expr => op('not', op('>', a, b));
  return simplify(op('and', le(fixed.lo, need.lo!), le(need.hi!, fixed.hi)));
}

/** Comparisons `v < e`, `e > v`, their negations and conjunctions, as interval cuts of v. */
function guardFacts(cond: Expr): { v: string; bound: Expr; side: 'lo' | 'hi' }[] {
  // a ≤ b cuts a variable a from above and a variable b from below.
  const le = (a: Expr, b: Expr) => [
    ...(a.k === 'var' ? [{ v: a.name, bound: b, side: 'hi' as const }] : []),
    ...(b.k === 'var' ? [{ v: b.name, bound: a, side: 'lo' as const }] : []),
  ];
  const lt = (a: Expr, b: Expr) => [
    ...(a.k === 'var' ? [{ v: a.name, bound: subE(b, C(1)), side: 'hi' as const }] : []),
    ...(b.k === 'var' ? [{ v: b.name, bound: addE(a, C(1)), side: 'lo' as const }] : []),
  ];
  if (cond.k !== 'op') return [];
  const [a, b] = cond.args as [Expr, Expr];
  switch (cond.op) {
    case 'and':
      return [...guardFacts(a), ...guardFacts(b)];
    case '<':
      return lt(a, b);
    case '>':
      return lt(b, a);
    case '=':
      return [...le(a, b), ...le(b, a)];
    case 'not':
      if (a.k === 'op' && a.op === '<') return le(a.args[1]!, a.args[0]!);
      if (a.k === 'op' && a.op === '>') return le(a.args[0]!, a.args[1]!);
      return [];
    default:
      return [];
  }
}

const show = (e: Expr): string => printExpr(e, 'tgt');
const showIv = (i: Interval): string => `[${i.lo ? show(i.lo) : '−∞'}, ${i.hi ? show(i.hi) : '∞'}]`;

function unboundedWhy(e: Expr, iv: Interval): string {
  const side = iv.lo === null && iv.hi === null ? 'both ends are infinite' : iv.lo === null ? 'its min is −∞' : 'its max is +∞';
  const accesses: string[] = [];
  walkExpr(e, (x) => void (x.k === 'access' && accesses.push(printExpr(x, 'tgt'))));
  const cause = accesses.length
    ? `it depends on the value of ${accesses[0]}, and func values are unknown to interval arithmetic ([I-ACCESS])`
    : `a variable or hole it mentions is unbounded`;
  return `${printExpr(e, 'tgt')}${e.loc ? ` at ${showLoc(e.loc)}` : ''} has an unbounded interval (${side}): ${cause}`;
}

/**
 * Runs the inference and lifts it (§2.7.2): success only when every hole pair is determined and
 * bounded; holes that occur in the program get (min, len) expressions.
 */
export function infer(t: TgtProgram, q: Query, opts: InferOptions = {}): InferResult {
  const inf = new Inference(q, t.hints ?? [], opts);
  inf.run(q.body);
  if (inf.failure) return { ok: false, ...inf.failure };
  const programPairs = new Set(holesOf(t).map((h) => pairKey(pairOfHole(h))));
  const windowLens = new Set(t.window.map((w) => w.len));
  const completion = new Map<string, Expr>();
  const intervals = new Map<string, Interval>();
  for (const [key, st] of inf.gamma) {
    if (st.iv || !programPairs.has(key)) continue;
    if (opts.emptyUndetermined && st.pair.kind === 'cpu') {
      st.iv = { lo: C(0), hi: C(-1) };
      opts.trace?.('BETA1-EMPTY', `${key} is required to contain nothing: the empty interval`);
    } else return { ok: false, hole: key, explanation: `hole ${key} is undetermined: no access or loop requires it to contain any point` };
  }
  for (const [key, st] of inf.gamma) {
    // A pair nothing constrains (it occurs only in the query): the empty interval satisfies it.
    st.iv ??= { lo: C(0), hi: C(-1) };
    if (!isBounded(st.iv)) {
      return { ok: false, hole: key, explanation: `hole ${key} is unbounded: ${st.why ?? 'an interval it depends on is unbounded'}` };
    }
    intervals.set(key, st.iv);
    const ml = minLen(st.iv);
    const end = (x: Expr): Expr => (opts.rewrite ? simplify(opts.rewrite(simplify(x))) : simplify(x));
    const len = end(ml.len!);
    completion.set(keyOf(st.pair, 'min'), end(ml.min!));
    opts.trace?.('BETA0-LIFT', `${key} = ${showIv(st.iv)}`);
    // An empty covering (a loop that runs no iteration) may come out with a negative
    // length; the hole gets length 0 then, since loops over it need a non-negative extent.
    const empty = !provablyLe(st.iv.lo!, addE(st.iv.hi!, C(1)), windowLens);
    completion.set(keyOf(st.pair, 'len'), empty ? simplify(op('max', len, C(0))) : len);
  }
  return { ok: true, completion, intervals, assertions: inf.assertions };
}

const keyOf = (p: HolePair, end: 'min' | 'len'): string => holeKey(pairHole(p, end));

/** β0 itself: no refinements. */
export function beta0(t: TgtProgram, q: Query): InferResult {
  return infer(t, q, {});
}
