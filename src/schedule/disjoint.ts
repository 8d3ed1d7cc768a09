// [TRAVERSE-DISJOINT] Distinct iterations of a parallel loop write distinct points (def. 2.7,
// proof of lemma 2.14). Split tails shift and round break what that proof assumes: the values a
// split loop variable takes are no longer exactly those of the loop it replaced, so points of one
// outer iteration can be reached from another. Every loops-phase directive that can make a parallel
// loop's iterations meet (traverse, split, fuse, swap, and reorder through its swaps) validates its
// result here.
//
// The check is an injectivity argument (spec/schedule.md, [TRAVERSE-DISJOINT]): the point a store
// writes, together with the variables fixed around the parallel loop P, must determine the value of
// P. Then two iterations of one execution of P that write one point have the same value of P.
import { type Expr, type Hole, cst, exprEquals, freeVars, hole, op, vr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import { type Interval, TOP, evalInterval, meet, point } from '../expr/interval.js';
import { provablyLe } from '../expr/symbolic.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { type ForStmt, type LoopInfo, loopsOf } from '../target-semantics/walk.js';
import { constValue, isPure } from './loops.js';
import type { DirectiveCtx } from './plugin.js';

/** A summand of a let's value, read as a linear term in at most one unknown variable. */
type Term =
  | { readonly k: 'known' }
  | { readonly k: 'var'; readonly v: string; readonly coef?: Expr }
  | { readonly k: 'opaque'; readonly e: Expr };

/** The statements from P down to one store: what binds variables there, and what guards it. */
interface StorePath {
  readonly lets: ReadonlyMap<string, Expr>;
  readonly loops: ReadonlyMap<string, ForStmt>;
  /** Interval of each variable bound on the path, at the store (loop ranges, let values, guards). */
  readonly ranges: ReadonlyMap<string, Interval>;
  readonly idx: readonly Expr[];
}

/** What the program asserts positive before anything runs (split factors, [SPLIT]). */
function assertedPositive(t: TgtProgram): Expr[] {
  const first = t.body.k === 'seq' ? t.body.body : [t.body];
  const out: Expr[] = [];
  for (const s of first) {
    if (s.k !== 'assert') break;
    if (s.cond.k === 'op' && s.cond.op === '>' && constValue(s.cond.args[1]!) === 0) out.push(s.cond.args[0]!);
  }
  return out;
}

/** The summands of e, flattening + and − (a subtrahend is a summand with coefficient −1). */
function summands(e: Expr, neg = false): { e: Expr; neg: boolean }[] {
  if (e.k === 'op' && e.op === '+') return [...summands(e.args[0]!, neg), ...summands(e.args[1]!, neg)];
  if (e.k === 'op' && e.op === '-') return [...summands(e.args[0]!, neg), ...summands(e.args[1]!, !neg)];
  return [{ e, neg }];
}

/** The stores of `func` under P, each with the path that leads to it. */
function storePaths(loop: ForStmt, func: string | undefined): StorePath[] {
  const out: StorePath[] = [];
  const env = (ranges: Map<string, Interval>) => ({
    variable: (v: string) => ranges.get(v) ?? point(vr(v)),
    hole: (h: Hole) => point(hole(h)),
    access: () => TOP,
  });
  const visit = (s: Stmt, lets: Map<string, Expr>, loops: Map<string, ForStmt>, ranges: Map<string, Interval>): void => {
    switch (s.k) {
      case 'store':
        if (func === undefined || s.func === func) out.push({ lets, loops, ranges, idx: s.idx });
        return;
      case 'for': {
        const last = op('-', op('+', s.min, s.len), cst(1));
        const r = { lo: evalInterval(s.min, env(ranges)).lo, hi: evalInterval(last, env(ranges)).hi };
        visit(s.body, lets, new Map(loops).set(s.var, s), new Map(ranges).set(s.var, r));
        return;
      }
      case 'let':
        visit(s.body, new Map(lets).set(s.var, s.value), loops, new Map(ranges).set(s.var, evalInterval(s.value, env(ranges))));
        return;
      case 'if': {
        // A split guard `if x < b then s` bounds x from above in s.
        const c = s.cond;
        const [x, b] = c.k === 'op' && c.op === '<' ? c.args : [];
        const r = x?.k === 'var' ? ranges.get(x.name) : undefined;
        const inThen = x?.k === 'var' && r ? new Map(ranges).set(x.name, meet(r, { lo: null, hi: op('-', b!, cst(1)) })) : ranges;
        visit(s.then, lets, loops, inThen);
        visit(s.else, lets, loops, ranges);
        return;
      }
      case 'seq':
        for (const b of s.body) visit(b, lets, loops, ranges);
        return;
      case 'label':
        visit(s.body, lets, loops, ranges);
        return;
      default:
        return;
    }
  };
  visit(loop, new Map(), new Map(), new Map());
  return out;
}

/** Why a parallel loop's iterations may meet, and the loop whose iterations overlap, when known. */
interface Overlap {
  readonly why: string;
  readonly over?: string;
}

/**
 * Why the point written at `p` (with everything bound outside P fixed) may not determine P's
 * variable; undefined when it does. Known variables grow by four inferences until nothing changes
 * (spec/schedule.md, [TRAVERSE-DISJOINT]).
 */
function undetermined(t: TgtProgram, loop: ForStmt, p: StorePath): Overlap | undefined {
  const positive = assertedPositive(t);
  const nonneg = new Set([...t.window.map((w) => w.len), ...positive.flatMap((e) => (e.k === 'var' ? [e.name] : []))]);
  const isPositive = (c: Expr) => {
    const k = constValue(c);
    return k !== undefined ? k > 0 : positive.some((a) => exprEquals(a, c));
  };
  const nonzero = (c: Expr) => constValue(c) !== 0 && (constValue(c) !== undefined || isPositive(c));
  const known = new Set(p.idx.flatMap((e) => (e.k === 'var' ? [e.name] : [])));
  const isKnown = (v: string) => known.has(v) || (!p.lets.has(v) && !p.loops.has(v));
  const allKnown = (e: Expr) => [...freeVars(e)].every(isKnown);
  const bounded = (v: string, lo: Expr, hi: Expr) => {
    const r = p.ranges.get(v);
    return r !== undefined && r.lo !== null && r.hi !== null && provablyLe(lo, r.lo, nonneg) && provablyLe(r.hi, hi, nonneg);
  };
  /** Does w stay in [0, e) wherever the store runs? */
  const within = (w: string, e: Expr): boolean => {
    if (bounded(w, cst(0), op('-', e, cst(1)))) return true;
    // w = m + z div l, the outer variable of a fuse, with z in [0, (e − m)·l) and e − m > 0: a
    // value of z gives (e − m)·l ≥ 1, so l ≥ 1 and w is in [m, e) (l may be a symbolic extent).
    const value = p.lets.get(w);
    const d = value && fusePart(value, 'div');
    if (!d) return false;
    const room = constValue(d.rest) === 0 ? e : op('-', e, d.rest);
    return isPositive(room) && provablyLe(cst(0), d.rest, nonneg) && bounded(d.z, cst(0), op('-', op('*', room, d.l), cst(1)));
  };
  const term = (s: { e: Expr; neg: boolean }): Term => {
    const e = s.e;
    if (allKnown(e)) return { k: 'known' };
    if (e.k === 'var') return s.neg ? { k: 'var', v: e.name, coef: cst(-1) } : { k: 'var', v: e.name };
    if (e.k === 'op' && e.op === '*') {
      const [a, b] = e.args as [Expr, Expr];
      if (a.k === 'var' && !isKnown(a.name) && allKnown(b)) return { k: 'var', v: a.name, coef: b };
      if (b.k === 'var' && !isKnown(b.name) && allKnown(a)) return { k: 'var', v: b.name, coef: a };
    }
    return { k: 'opaque', e };
  };
  const unknownTerms = (value: Expr) => summands(value).map(term).filter((x) => x.k !== 'known');
  const learn = (v: string) => {
    if (isKnown(v)) return false;
    known.add(v);
    return true;
  };
  for (let changed = true; changed && !isKnown(loop.var); ) {
    changed = false;
    for (const [x, value] of p.lets) {
      // Forward: a let is known once its value's variables are.
      if (!isKnown(x)) {
        if (allKnown(value)) changed = learn(x) || changed;
        continue;
      }
      const ts = unknownTerms(value);
      // One unknown term c·u with c ≠ 0: u = (x − rest) / c.
      if (ts.length === 1 && ts[0]!.k === 'var' && (ts[0]!.coef === undefined || nonzero(ts[0]!.coef))) changed = learn(ts[0]!.v) || changed;
      // A split `x = m + u·e + w` with w in [0, e): u = (x − m) div e, w = (x − m) mod e.
      if (ts.length === 2) {
        const [a, b] = ts as [Term, Term];
        for (const [u, w] of [[a, b], [b, a]] as const) {
          if (u.k === 'var' && u.coef && w.k === 'var' && !w.coef && within(w.v, u.coef)) {
            changed = learn(u.v) || changed;
            changed = learn(w.v) || changed;
          }
        }
      }
    }
    // A fuse `a = ma + z div l; b = mb + z mod l`: z = (a − ma)·l + (b − mb).
    for (const [a, va] of p.lets) {
      const da = fusePart(va, 'div');
      if (!da || !isKnown(a) || isKnown(da.z)) continue;
      for (const [b, vb] of p.lets) {
        const mb = fusePart(vb, 'mod');
        if (mb && mb.z === da.z && exprEquals(mb.l, da.l) && isKnown(b) && allKnown(da.rest) && allKnown(mb.rest)) changed = learn(da.z) || changed;
      }
    }
  }
  if (isKnown(loop.var)) return undefined;
  return explain(p, isKnown, within, unknownTerms) ?? { why: `the point written, ${p.idx.map((e) => printExpr(e, 'tgt')).join(', ')}, does not determine ${loop.var}` };
}

/** `m + z op l` with z a variable: the two lets a fuse writes. */
function fusePart(e: Expr, o: 'div' | 'mod'): { z: string; l: Expr; rest: Expr } | undefined {
  if (e.k !== 'op' || e.op !== '+') return undefined;
  const [m, q] = e.args as [Expr, Expr];
  return q.k === 'op' && q.op === o && q.args[0]!.k === 'var' ? { z: q.args[0]!.name, l: q.args[1]!, rest: m } : undefined;
}

/** The known let where the inference stopped, said in terms of the tail that stopped it. */
function explain(
  p: StorePath, isKnown: (v: string) => boolean, within: (w: string, e: Expr) => boolean, unknownTerms: (e: Expr) => Term[],
): Overlap | undefined {
  // Name the overlapping loop only if it is still a loop (a later split may have made it a let).
  const over = (u: string) => (p.loops.has(u) ? { over: u } : {});
  for (const [x, value] of p.lets) {
    if (!isKnown(x)) continue;
    const show = `${x} = ${printExpr(value, 'tgt')}`;
    const ts = unknownTerms(value);
    const folded = ts.find((s) => s.k === 'opaque' && s.e.k === 'op' && (s.e.op === 'min' || s.e.op === 'max'));
    if (folded?.k === 'opaque') {
      const u = [...freeVars(folded.e)].filter((v) => !isKnown(v));
      return { why: `${show} repeats points of another iteration of ${u.join(', ')} (a split with tail shift)`, ...(u.length === 1 ? over(u[0]!) : {}) };
    }
    const u = ts.find((s) => s.k === 'var' && s.coef !== undefined);
    const w = ts.find((s) => s.k === 'var' && s.coef === undefined);
    if (ts.length === 2 && u?.k === 'var' && w?.k === 'var' && !within(w.v, u.coef!)) {
      return { why: `${w.v} can leave (0, ${printExpr(u.coef!, 'tgt')}) (it is split with tail round or shift), so ${show} takes one value in two iterations of ${u.v}`, ...over(u.v) };
    }
  }
  return undefined;
}

/** Why distinct iterations of the parallel loop `l` may write one point; undefined if they cannot. */
export function parallelOverlap(t: TgtProgram, l: LoopInfo): Overlap | undefined {
  for (const p of storePaths(l.stmt, l.name?.func)) {
    const why = undetermined(t, l.stmt, p);
    if (why !== undefined) return why;
  }
  return undefined;
}

/**
 * The pure parallel loops of t (reduction loops are [TRAVERSE-PURE]'s) whose iterations may meet
 * in a stage that can read its own func. A loop of a func's pure stage (stage 0, which never reads
 * the func, def. 2.10) writes each point with the value the definition gives it, whichever
 * iteration writes it: its overlaps are equal writes, which the executors let finish and report
 * ([PAR-OVERLAP], spec/target.md) and would stop as a race were the values to differ.
 */
function overlapping(t: TgtProgram): (Overlap & { loop: string })[] {
  return loopsOf(t).flatMap((l) => {
    if (l.stmt.trav !== 'parallel' || !isPure(t, l.stmt.var) || l.name?.stage === 0) return [];
    const o = parallelOverlap(t, l);
    return o === undefined ? [] : [{ loop: l.stmt.var, ...o }];
  });
}

/**
 * A loops-phase directive rewrote `before` into `after`: no parallel loop of `after` may have
 * iterations that meet unless it already had them in `before` (then another directive, a
 * plug-in's, is to blame, not this one).
 */
export function requireDisjointParallel(before: TgtProgram, after: TgtProgram, ctx: DirectiveCtx): void {
  const found = overlapping(after);
  if (found.length === 0) return;
  const old = new Set(overlapping(before).map((o) => o.loop));
  const bad = found.find((o) => !old.has(o.loop));
  if (bad) {
    const inside = bad.over !== undefined && bad.over !== bad.loop ? `keep ${bad.loop} inside ${bad.over}, ` : '';
    ctx.reject('TRAVERSE-DISJOINT', `distinct iterations of parallel loop ${bad.loop} can write the same point: ${bad.why}`,
      `${inside}split with tail guard, or run ${bad.loop} serially`);
  }
}
