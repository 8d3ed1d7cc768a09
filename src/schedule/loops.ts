// Helpers every directive shares: finding funcs, resolving loops by the names of lemma 2.4 and
// their purity (def. 2.16), fresh names, startup expressions (def. 2.9), and the edits that move
// statements into loops. Walking and rewriting statements by path is src/target-semantics/walk.ts.
// Rule IDs here are the validity rules common to several directives (spec/schedule.md).
import { type Expr, freeVars, walkExpr } from '../expr/ast.js';
import { evalExpr } from '../expr/eval.js';
import { printExpr } from '../expr/print.js';
import { type Int, isError } from '../expr/value.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { type LoopName, loopVarName, parseLoopName, stageLabel } from '../target-semantics/loop-name.js';
import {
  type ForStmt, type LoopInfo, type Site, type StmtPath, isInside, loopsOf, removeAt, replaceInProgram, visitStmts,
} from '../target-semantics/walk.js';
import { ownExprs } from '../target-semantics/holes.js';
import { type LoopWrapper, type ParamSpec, Rejection } from './plugin.js';

/**
 * What directives look up by name, from one walk of the program: its funcs in allocation order,
 * the first `allocate f` and the first `label f`. Programs are immutable and `generate` asks the
 * same program about every candidate, so the index is kept per program.
 */
interface StmtIndex {
  readonly funcs: readonly string[];
  readonly allocs: ReadonlyMap<string, Site<Extract<Stmt, { k: 'allocate' }>>>;
  readonly labels: ReadonlyMap<string, Site<Extract<Stmt, { k: 'label' }>>>;
}

const INDEX = new WeakMap<TgtProgram, StmtIndex>();

function indexOf(t: TgtProgram): StmtIndex {
  let ix = INDEX.get(t);
  if (ix) return ix;
  const funcs: string[] = [];
  const allocs = new Map<string, Site<Extract<Stmt, { k: 'allocate' }>>>();
  const labels = new Map<string, Site<Extract<Stmt, { k: 'label' }>>>();
  visitStmts(t.body, (s, path) => {
    if (s.k === 'allocate' && !allocs.has(s.func)) {
      funcs.push(s.func);
      allocs.set(s.func, { stmt: s, path });
    } else if (s.k === 'label' && !labels.has(s.name)) labels.set(s.name, { stmt: s, path });
  });
  INDEX.set(t, (ix = { funcs, allocs, labels }));
  return ix;
}

/** The funcs of a program: lowering allocates each exactly once (fig. 2.9). */
export function funcsOf(t: TgtProgram): string[] {
  return [...indexOf(t).funcs];
}

export const allocOf = (t: TgtProgram, f: string) => indexOf(t).allocs.get(f);

/** `label f: …`, the statement that computes every stage of f (fig. 2.9, [LOWER-FUNC]). */
export const labelOf = (t: TgtProgram, f: string) => indexOf(t).labels.get(f);

/** The func f named in a directive: it must exist. */
export function requireFunc(t: TgtProgram, f: string): void {
  const fs = funcsOf(t);
  if (!fs.includes(f)) {
    throw new Rejection('SCHED-FUNC', `there is no func '${f}'`, `the funcs are: ${fs.join(', ') || 'none'}`);
  }
}

/** The statement `label f: …` of an existing func (hand-written programs might lack it). */
export function requireLabel(t: TgtProgram, f: string): Site<Extract<Stmt, { k: 'label' }>> {
  requireFunc(t, f);
  const site = labelOf(t, f);
  if (!site) throw new Rejection('SCHED-FUNC', `func '${f}' has no statement 'label ${f}: …' holding its computation`, `label the computation of '${f}' as lowering does`);
  return site;
}

/** The pure variables of f, in order (they name the allocated dimensions). */
export function dimsOf(t: TgtProgram, f: string): string[] {
  return allocOf(t, f)?.stmt.dims.map((d) => d.dim) ?? [];
}

/** Number of stages of f: the stage labels `f.s<i>` lowering puts inside `label f`. */
export function stageCount(t: TgtProgram, f: string): number {
  const site = labelOf(t, f);
  let n = 0;
  if (site) {
    visitStmts(site.stmt.body, (s) => {
      if (s.k !== 'label' || !s.name.startsWith(`${f}.s`)) return;
      const i = Number(s.name.slice(f.length + 2));
      if (Number.isInteger(i) && s.name === stageLabel(f, i)) n = Math.max(n, i + 1);
    });
  }
  return n;
}

/** Has f been specialized? Its copies j ≥ 1 hold loops named ⟨f, i, j, v⟩ (§2.8.1). */
export function isSpecialized(t: TgtProgram, f: string): boolean {
  return loopsOf(t).some((l) => l.name?.func === f && l.name.spec > 0);
}

function describeLoops(ls: readonly LoopInfo[]): string {
  return ls.length === 0 ? 'none' : ls.map((l) => l.stmt.var).join(', ');
}

/**
 * [SCHED-LOOP] Resolves a loop name as written in a schedule: `f.s<i>.v` or `f.s<i>.k<j>.v`
 * exactly, or the short form `f.v`, which means the loop v of f's final stage when f is not
 * specialized.
 */
export function resolveLoop(t: TgtProgram, text: string): LoopInfo {
  const loops = loopsOf(t);
  const parts = text.split('.');
  const f = parts[0]!;
  requireFunc(t, f);
  const ofF = loops.filter((l) => l.name?.func === f);
  let want: string;
  if (parts.length === 2) {
    if (isSpecialized(t, f)) {
      throw new Rejection('SCHED-LOOP', `'${text}' is ambiguous because '${f}' is specialized`, `name the loop with its stage and specialization; the loops of ${f} are: ${describeLoops(ofF)}`);
    }
    want = loopVarName(f, Math.max(0, stageCount(t, f) - 1), parts[1]!);
  } else {
    want = text;
  }
  const hit = loops.find((l) => l.stmt.var === want);
  if (!hit) {
    throw new Rejection('SCHED-LOOP', `there is no loop ${want}${want === text ? '' : ` (what '${text}' means)`}`, `the loops of ${f} are: ${describeLoops(ofF)}`);
  }
  return hit;
}

/** The parsed name of a resolved loop (lowering names every loop, lemma 2.4). */
export function nameOf(l: LoopInfo): LoopName {
  if (!l.name) throw new Rejection('SCHED-LOOP', `loop '${l.stmt.var}' is not named ⟨func, stage, specialization, variable⟩`);
  return l.name;
}

/** Every name bound anywhere in the program: parameters, window parameters, loop and let variables. */
export function boundNames(t: TgtProgram): Set<string> {
  const out = new Set<string>([...t.params, ...t.window.flatMap((w) => [w.min, w.len])]);
  visitStmts(t.body, (s) => {
    if (s.k === 'for' || s.k === 'let') out.add(s.var);
  });
  return out;
}

/**
 * [SCHED-FRESH] The variable of a new loop of stage ⟨f, i, j⟩ called v: v must be a plain name,
 * not bound anywhere in the program and not a dimension of f (a loop named after a dimension
 * would be taken for that dimension's pure loop, def. 2.16).
 */
export function freshLoopVar(t: TgtProgram, like: LoopName, v: string, taken: ReadonlySet<string> = new Set()): string {
  if (!/^[A-Za-z_][A-Za-z0-9_']*$/.test(v)) {
    throw new Rejection('SCHED-FRESH', `'${v}' is not a plain name`, 'new loop names are letters, digits, _ and \', without dots');
  }
  const full = loopVarName(like.func, like.stage, v, like.spec);
  if (dimsOf(t, like.func).includes(v)) {
    throw new Rejection('SCHED-FRESH', `new loop name '${v}' is a dimension of '${like.func}'`, 'choose a name that is not one of the func\'s pure variables');
  }
  if (boundNames(t).has(full) || taken.has(full)) {
    throw new Rejection('SCHED-FRESH', `new loop name '${v}' is not fresh: ${full} is already used`, 'choose another name');
  }
  return full;
}

/** A fresh plain name for a new loop of stage `like`, derived from `base` (for `generate`). */
export function inventName(t: TgtProgram, like: LoopName, base: string, taken: ReadonlySet<string> = new Set()): string {
  const used = boundNames(t);
  const dims = dimsOf(t, like.func);
  for (let k = 0; ; k++) {
    const v = k === 0 ? base : `${base}${k}`;
    const full = loopVarName(like.func, like.stage, v, like.spec);
    if (!used.has(full) && !taken.has(full) && !dims.includes(v)) return v;
  }
}

/**
 * Pure variables (def. 2.16), recovered from the program: a loop or let variable `f.s<i>[.k<j>].x`
 * with x a dimension of f is pure (lowering names pure loops so, and [SCHED-FRESH] keeps new names
 * apart from dimensions); a variable made by split or fuse is pure iff a variable it defines —
 * a let whose value mentions it — is pure. Everything else is a reduction variable.
 */
export function pureVars(t: TgtProgram): Set<string> {
  const dims = new Map(funcsOf(t).map((f) => [f, new Set(dimsOf(t, f))]));
  const defines = new Map<string, string[]>(); // v ↦ let variables whose value mentions v
  const vars: string[] = [];
  visitStmts(t.body, (s) => {
    if (s.k === 'for' || s.k === 'let') vars.push(s.var);
    if (s.k === 'let') for (const v of freeVars(s.value)) if (v !== s.var) defines.set(v, [...(defines.get(v) ?? []), s.var]);
  });
  const memo = new Map<string, boolean>();
  const pure = (v: string): boolean => {
    const known = memo.get(v);
    if (known !== undefined) return known;
    memo.set(v, false); // cycles cannot arise (lets bind inside their users' scopes); guard anyway
    const n = parseLoopName(v);
    const r = (n !== undefined && dims.get(n.func)?.has(n.v) === true) || (defines.get(v) ?? []).some(pure);
    memo.set(v, r);
    return r;
  };
  return new Set(vars.filter(pure));
}

/** Is the variable of this loop pure (def. 2.16)? */
export function isPure(t: TgtProgram, v: string): boolean {
  return pureVars(t).has(v);
}

/**
 * [SCHED-STARTUP] A startup expression (def. 2.9) of the target program: no func accesses, no
 * holes, and only the pipeline's parameters — the user parameters and the window parameters,
 * which are all fixed before the program runs.
 */
export function requireStartup(t: TgtProgram, e: Expr, what: string): void {
  const ok = new Set([...t.params, ...t.window.flatMap((w) => [w.min, w.len])]);
  walkExpr(e, (x) => {
    if (x.k === 'access') throw new Rejection('SCHED-STARTUP', `${what} '${printExpr(e, 'tgt')}' reads func '${x.func}'`, 'startup expressions may use only constants and the pipeline parameters');
    if (x.k === 'hole') throw new Rejection('SCHED-STARTUP', `${what} '${printExpr(e, 'tgt')}' contains a bounds hole`, 'startup expressions may use only constants and the pipeline parameters');
    if (x.k === 'var' && !ok.has(x.name)) {
      throw new Rejection('SCHED-STARTUP', `${what} '${printExpr(e, 'tgt')}' mentions '${x.name}', which is not a pipeline parameter`, `startup expressions may use only constants and the parameters: ${[...ok].join(', ') || 'none'}`);
    }
  });
}

/** The value of an expression without variables, holes or accesses; undefined otherwise. */
export function constValue(e: Expr): Int | undefined {
  let closed = true;
  walkExpr(e, (x) => {
    if (x.k === 'var' || x.k === 'hole' || x.k === 'access') closed = false;
  });
  if (!closed) return undefined;
  const v = evalExpr(e, new Map());
  return isError(v) ? undefined : v;
}

/** `s` placed first in the body of the loop at `path` (compute-at, store-at). */
export function prependToLoop(t: TgtProgram, path: StmtPath, s: Stmt): TgtProgram {
  return replaceInProgram(t, path, (l) => {
    const loop = l as ForStmt;
    const rest = loop.body.k === 'seq' ? loop.body.body : loop.body.k === 'nop' ? [] : [loop.body];
    return { ...loop, body: { k: 'seq', body: [s, ...rest] } };
  });
}

/**
 * The statement at `site` moved to the first position in the body of the loop named `loop`
 * (resolved after the removal, since removing may shift paths): compute-at and store-at.
 */
export function moveIntoLoop(t: TgtProgram, site: Site, loop: string): TgtProgram {
  const without = { ...t, body: removeAt(t.body, site.path) };
  return prependToLoop(without, resolveLoop(without, loop).path, site.stmt);
}

/** The arguments `f at ℓ` of compute-at and store-at. */
export interface FuncAtLoop {
  readonly func: string;
  readonly loop: string;
}

/** How compute-at and store-at declare `f at ℓ`. */
export const FUNC_AT_LOOP: readonly ParamSpec[] = [
  { name: 'func', type: 'func' },
  { name: 'loop', type: 'loop', key: 'at' },
];

const READS = new WeakMap<TgtProgram, ReadonlyMap<string, readonly StmtPath[]>>();

/** Per func, the paths of the statements that read it: one walk per program, kept (programs are immutable). */
function readersOf(t: TgtProgram): ReadonlyMap<string, readonly StmtPath[]> {
  let m = READS.get(t);
  if (!m) {
    const found = new Map<string, StmtPath[]>();
    visitStmts(t.body, (s, path) => {
      const read = new Set<string>();
      for (const e of ownExprs(s)) walkExpr(e, (x) => void (x.k === 'access' && read.add(x.func)));
      for (const f of read) found.set(f, [...(found.get(f) ?? []), path]);
    });
    READS.set(t, (m = found));
  }
  return m;
}

/** Paths of the statements that read f outside f's own computation. */
export function usesOf(t: TgtProgram, f: string): StmtPath[] {
  const own = labelOf(t, f)?.path;
  return (readersOf(t).get(f) ?? []).filter((p) => !own || !isInside(p, own));
}

/** The loops around every statement at `paths` (all loops when there are none). */
function loopsAroundAll(t: TgtProgram, paths: readonly StmtPath[]): LoopInfo[] {
  return loopsOf(t).filter((l) => paths.every((p) => isInside(p, l.path)));
}

/**
 * The (func, loop) pairs where compute-at may place a func: a loop that encloses every statement
 * reading f (any loop, when nothing reads f) and is not inside f's own computation. A placement anywhere else leaves a use outside
 * the loop, where lemma 2.5 fails, so these are the only candidates `generate` needs to validate.
 */
export function computeSites(t: TgtProgram): FuncAtLoop[] {
  return funcsOf(t).flatMap((func) => {
    const own = labelOf(t, func)?.path;
    if (!own) return [];
    // A func nobody reads may go into any loop outside its own computation.
    return loopsAroundAll(t, usesOf(t, func)).filter((l) => !isInside(l.path, own)).map((l) => ({ func, loop: l.stmt.var }));
  });
}

/**
 * The pairs store-at's `generate` proposes: the loops around the func's computation and every use
 * of it (the valid sites), and as many other loops, which validation refuses — so that the
 * dominance check keeps being exercised by generated schedules, at a bounded cost.
 */
export function storeSites(t: TgtProgram): FuncAtLoop[] {
  return funcsOf(t).flatMap((func) => {
    const own = labelOf(t, func);
    if (!own) return [];
    const valid = loopsAroundAll(t, [own.path, ...usesOf(t, func)]);
    const others = loopsOf(t).filter((l) => !valid.includes(l)).slice(0, Math.max(1, valid.length));
    return [...valid, ...others].map((l) => ({ func, loop: l.stmt.var }));
  });
}

/**
 * Statements a loop-phase rewrite may look through between two nested loops (spec/schedule.md,
 * [SWAP]): `let`s and split guards `if c then s` made by earlier splits. They mention no func and
 * cannot fail, so moving them into a loop that may run zero times changes nothing. Assertions are
 * never looked through: moved into such a loop they would no longer be checked.
 */

export function peelWrappers(s: Stmt): { wrappers: LoopWrapper[]; inner: Stmt } {
  const wrappers: LoopWrapper[] = [];
  for (;;) {
    if (s.k === 'let') {
      wrappers.push({ k: 'let', var: s.var, value: s.value, ...(s.loc ? { loc: s.loc } : {}) });
      s = s.body;
    } else if (s.k === 'if' && s.else.k === 'nop') {
      wrappers.push({ k: 'guard', cond: s.cond, ...(s.loc ? { loc: s.loc } : {}) });
      s = s.then;
    } else {
      return { wrappers, inner: s };
    }
  }
}

export function rewrap(wrappers: readonly LoopWrapper[], inner: Stmt): Stmt {
  return wrappers.reduceRight<Stmt>((body, w) => {
    const loc = w.loc ? { loc: w.loc } : {};
    switch (w.k) {
      case 'let':
        return { k: 'let', var: w.var, value: w.value, body, ...loc };
      case 'guard':
        return { k: 'if', cond: w.cond, then: body, else: { k: 'nop' }, ...loc };
    }
  }, inner);
}

/** Variables a wrapper chain binds. */
function wrapperBinds(ws: readonly LoopWrapper[]): Set<string> {
  return new Set(ws.flatMap((w) => (w.k === 'let' ? [w.var] : [])));
}

/**
 * The variables bound by `outer` or by the wrappers between it and `inner` that the bounds of
 * `inner` read: while there are any, `inner` cannot move above `outer` (swap, fuse).
 */
export function innerBoundsUses(outer: ForStmt, wrappers: readonly LoopWrapper[], inner: ForStmt): string[] {
  const blocked = new Set([outer.var, ...wrapperBinds(wrappers)]);
  return [...freeVars(inner.min), ...freeVars(inner.len)].filter((v) => blocked.has(v));
}

/**
 * The loop immediately nested in loop `outer` (through wrappers), with the wrappers between them;
 * undefined when the body is not (wrappers around) a single loop.
 */
export function nestedLoop(outer: ForStmt): { wrappers: LoopWrapper[]; inner: ForStmt } | undefined {
  const { wrappers, inner } = peelWrappers(outer.body);
  return inner.k === 'for' ? { wrappers, inner } : undefined;
}

/**
 * The loop immediately nested in `l` (through wrappers), which must belong to the same stage
 * ⟨f, i, j⟩ as `l`: the pair swap and fuse rewrite. Otherwise `directive` is rejected with its
 * rule `rule`.
 */
export function sameStageNest(t: TgtProgram, l: LoopInfo, rule: string, directive: string): { wrappers: LoopWrapper[]; inner: ForStmt } {
  const nest = nestedLoop(l.stmt);
  const n = nameOf(l);
  const m = nest && loopsOf(t).find((x) => x.stmt.var === nest.inner.var)?.name;
  if (!nest || !m || m.func !== n.func || m.stage !== n.stage || m.spec !== n.spec) {
    throw new Rejection(rule, `loop ${l.stmt.var} does not have a loop of the same stage immediately inside it`,
      `${directive} names the outer of two immediately nested loops`);
  }
  return nest;
}

/** Picks an element uniformly. */
export function pick<T>(rng: { below(n: number): number }, xs: readonly T[]): T | undefined {
  return xs.length === 0 ? undefined : xs[rng.below(xs.length)];
}

/** A uniformly shuffled copy (Fisher–Yates with the given rng). */
export function shuffled<T>(rng: { below(n: number): number }, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The first candidate (in random order) that `valid` accepts: how built-ins implement `generate`. */
export function firstValid<A>(rng: { below(n: number): number }, cands: readonly A[], valid: (a: A) => boolean): A | undefined {
  return shuffled(rng, cands).find(valid);
}

/**
 * The program with `assert c` for each non-constant startup condition c put first (def. 2.9: a
 * startup expression can be checked before anything runs). Directives that need a parameter to be
 * in range (a split factor, a bounds extent) check it there, so that no later loop rewrite can
 * move the check into a loop that runs zero times.
 */
export function assertAtStart(t: TgtProgram, conds: readonly Expr[]): TgtProgram {
  const asserts: Stmt[] = conds.filter((e) => constValue(e) === undefined).map((cond) => ({ k: 'assert', cond }));
  if (asserts.length === 0) return t;
  return { ...t, body: { k: 'seq', body: [...asserts, ...(t.body.k === 'seq' ? t.body.body : [t.body])] } };
}
