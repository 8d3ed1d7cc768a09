// What each built-in directive must satisfy for its rewrite to be sound (spec/effects.md,
// "Obligations of the directives"), and the generic route that recognises a plug-in's rewrite from
// the programs before and after.
import type { Expr } from '../expr/ast.js';
import type { Obligation } from '../effects/obligation.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { printStmt } from '../target-semantics/print.js';
import { type ForStmt, type StmtPath, children, isInside, loopsOf, replaceAt, stmtAt } from '../target-semantics/walk.js';
import { allocOf, funcsOf, labelOf, moveIntoLoop, nestedLoop, resolveLoop, rewrap } from './loops.js';

const loopPath = (t: TgtProgram, loop: string): StmtPath => resolveLoop(t, loop).path;

/**
 * What no effect condition states: a stage stores at a point a value that depends on
 * the point alone (def. 2.7), and the completion computes every point that is read (def. 2.4) —
 * the bounds engine's promise, which `refsem bounds --verify` checks.
 */
export const COVERAGE = 'the completion computes every point read (def. 2.4), and a stage stores at a point a value of that point alone (def. 2.7)';

export function splitObligations(t: TgtProgram, a: { loop: string; factor: Expr; tail?: string }): Obligation[] {
  const loop = loopPath(t, a.loop);
  if ((a.tail ?? 'guard') === 'guard') return [{ k: 'split-exact', t, loop, factor: a.factor }];
  return [
    { k: 'independent', t, loop },
    { k: 'delegated', what: `the points a ${a.tail} tail adds are points of the func's single pure stage ([SPLIT-TAIL]); ${COVERAGE}` },
  ];
}

export const fuseObligations = (t: TgtProgram, a: { loop: string }): Obligation[] => [{ k: 'fuse-exact', t, loop: loopPath(t, a.loop) }];

export const swapObligations = (t: TgtProgram, a: { loop: string }): Obligation[] => [{ k: 'reorder', t, loop: loopPath(t, a.loop) }];

export function traverseObligations(t: TgtProgram, a: { loop: string; order: 'serial' | 'parallel' }): Obligation[] {
  const l = resolveLoop(t, a.loop);
  return a.order === 'parallel' ? [{ k: 'parallel', t, loop: l.path }] : [{ k: 'serial', loop: l.stmt.var, trav: a.order }];
}

export const orderObligations = (trav: 'vectorize' | 'unroll') => (t: TgtProgram, a: { loop: string }): Obligation[] =>
  [{ k: 'serial', loop: resolveLoop(t, a.loop).stmt.var, trav }];

export const specializeObligations = (t: TgtProgram, a: { func: string }, _ctx: unknown, after: TgtProgram): Obligation[] =>
  [{ k: 'copies', before: t, after, func: a.func }];

/** Bounds-phase directives add hints for the engine, and assertions, whose failure is an allowed outcome (def. 2.3). */
export const boundsObligations = (t: TgtProgram, _a: unknown, _ctx: unknown, after: TgtProgram): Obligation[] => [{ k: 'unchanged', before: t, after }];

/**
 * The statements of the blocks passed on the way from `from` down `rest`: those before (or after)
 * the path. With `stop`, the way ends at the first loop or branch (`exit`), whose blocks are not collected.
 */
function sideItems(t: TgtProgram, from: StmtPath, rest: StmtPath, side: 'before' | 'after', stop = false): { items: StmtPath[]; exit?: StmtPath } {
  const items: StmtPath[] = [];
  let path = from;
  for (const step of rest) {
    const s = stmtAt(t.body, path)!;
    if (s.k === 'seq') {
      const k = step as number;
      for (let i = 0; i < s.body.length; i++) if (side === 'before' ? i < k : i > k) items.push([...path, i]);
    } else if (stop && (s.k === 'for' || s.k === 'if')) {
      return { items, exit: path };
    }
    path = [...path, step];
  }
  return { items };
}

const commonPrefix = (a: StmtPath, b: StmtPath): number => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/** The outermost loop on the way from `from` to `to` (inclusive), where `to` is a loop. */
function outermostLoop(t: TgtProgram, from: StmtPath, to: StmtPath): StmtPath {
  for (let n = from.length; n <= to.length; n++) if (stmtAt(t.body, to.slice(0, n))?.k === 'for') return to.slice(0, n);
  return to;
}

/**
 * implements [SAFE-LEAVE]: what moving the statement P at `p` up to the block at `from` needs, P moving earlier (`before`)
 * or later (`after`) than the statements it passes. P commutes with every statement it passes in a
 * block. Where P leaves a loop or a branch E (§3.5.8, the removal of a loop generalised to a
 * statement that does not depend on the loop): it ran once per iteration of E (or not at all) and
 * now runs once. Moving earlier, nothing the rest of E does in any iteration may modify what P
 * reads or writes (then every run of P writes the same values, which the completion makes cover
 * every read), and P commutes with what precedes it in its own iteration. Moving later, P must
 * commute with the whole rest of E: no statement of E may read what P writes any more.
 */
function leaving(t: TgtProgram, p: StmtPath, from: StmtPath, side: 'before' | 'after'): Obligation[] {
  const { items, exit } = sideItems(t, from, p.slice(from.length), side, true);
  const out: Obligation[] = items.map((b) => ({ k: 'commutes', t, a: p, b }));
  if (!exit) return out;
  if (side === 'after') return [...out, { k: 'commutes', t, a: p, b: exit, without: p }];
  const own = sideItems(t, exit, p.slice(exit.length), 'before').items;
  return [...out, ...own.map((b): Obligation => ({ k: 'commutes', t, a: p, b })), { k: 'stable', t, stmt: p, by: [exit], without: p }];
}

/**
 * compute-at f at ℓ moves `label f` (P) to the start of ℓ's body: P commutes with every statement
 * it moves past, leaves the loops and branches it is in as `leaving` states, and nothing the loops
 * it enters do touches what P reads or writes, so running P again in each iteration recomputes the
 * same values (together with COVERAGE).
 */
export function computeAtObligations(t: TgtProgram, a: { func: string; loop: string }): Obligation[] {
  const p = labelOf(t, a.func)!.path;
  const l = loopPath(t, a.loop);
  const c = commonPrefix(p, l);
  const delegated: Obligation = { k: 'delegated', what: COVERAGE };
  // P already inside ℓ: it moves to the front of ℓ's body.
  if (c === l.length) return [...leaving(t, p, [...l, 'body'], 'before'), delegated];
  const block = p.slice(0, c);
  if (stmtAt(t.body, block)?.k !== 'seq' || c === p.length) return [{ k: 'unmodelled', why: `'${a.func}' and ${a.loop} do not share a block` }];
  const [i, j] = [p[c] as number, l[c] as number];
  const out = leaving(t, p, [...block, i], i < j ? 'after' : 'before');
  // P enters the loops and branches on the way to ℓ: it runs with them, which `stable` covers.
  const into = sideItems(t, [...block, j], l.slice(c + 1), i < j ? 'before' : 'after').items;
  const siblings: StmtPath[] = [];
  for (let k = Math.min(i, j) + 1; k < Math.max(i, j); k++) siblings.push([...block, k]);
  // Moving P earlier, into a loop that ran before it, passes that loop's whole body too.
  const past = [...siblings, ...into, ...(i > j ? [l] : [])];
  return [
    ...out,
    ...past.map((b): Obligation => ({ k: 'commutes', t, a: p, b })),
    { k: 'stable', t, stmt: p, by: [outermostLoop(t, [...block, j], l)] },
    delegated,
  ];
}

/** store-at f at ℓ: a fresh buffer per iteration of ℓ is the same as one buffer when no value of f flows between iterations. */
export const storeAtObligations = (t: TgtProgram, a: { func: string; loop: string }): Obligation[] => [
  { k: 'private', t, loop: loopPath(t, a.loop), buf: a.func },
  { k: 'delegated', what: COVERAGE },
];

/** inline f: evaluating f's definition where it is read gives what `label f` stored when nothing after it changes what it reads. */
export function inlineObligations(t: TgtProgram, a: { func: string }): Obligation[] {
  const p = labelOf(t, a.func)!.path;
  const block = p.slice(0, -1);
  const s = stmtAt(t.body, block);
  const after = s?.k === 'seq' ? s.body.map((_, k) => [...block, k]).slice((p[p.length - 1] as number) + 1) : [];
  return [{ k: 'stable', t, stmt: p, by: after }, { k: 'delegated', what: COVERAGE }];
}

/** The first place, in program order, where two statements differ in anything but their children. */
function firstDifference(a: Stmt, b: Stmt, path: StmtPath = []): StmtPath | undefined {
  if (printStmt(a) === printStmt(b)) return undefined;
  const ca = children(a);
  const cb = children(b);
  const shallow = (s: Stmt) => JSON.stringify({ ...s, body: undefined, then: undefined, else: undefined, loc: undefined });
  if (a.k !== b.k || ca.length !== cb.length || (a.k !== 'seq' && shallow(a) !== shallow(b))) return path;
  for (let i = 0; i < ca.length; i++) {
    const d = firstDifference(ca[i]![1], cb[i]![1], [...path, ca[i]![0]]);
    if (d) return d;
  }
  return path;
}

/** The path, below `from` in `s` down loops, lets and guards without an else, of the statement printed as `target`. */
function nestAround(s: Stmt, target: string, from: StmtPath): StmtPath | undefined {
  let path = from;
  for (let cur: Stmt = s; ;) {
    if (printStmt(cur) === target) return path;
    if (cur.k === 'for' || cur.k === 'let') (path = [...path, 'body']), (cur = cur.body);
    else if (cur.k === 'if' && cur.else.k === 'nop') (path = [...path, 'then']), (cur = cur.then);
    else return undefined;
  }
}

/** Does the nest from `loop` down to `body` bind `v` with a let (the loop's variable, reindexed)? */
function bindsLet(t: TgtProgram, loop: StmtPath, body: StmtPath, v: string): boolean {
  for (let n = loop.length; n < body.length; n++) {
    const s = stmtAt(t.body, body.slice(0, n));
    if (s?.k === 'let' && s.var === v) return true;
  }
  return false;
}

/** The rewrite at `at` alone: the one statement there changed from b to a. */
function recognise(before: TgtProgram, after: TgtProgram, at: StmtPath): Obligation[] | undefined {
  const b = stmtAt(before.body, at)!;
  const a = stmtAt(after.body, at)!;
  if (b.k === 'for' && a.k === 'for') {
    if (a.var === b.var && printStmt({ ...a, trav: b.trav }) === printStmt(b)) {
      return [a.trav === 'parallel' ? { k: 'parallel', t: before, loop: at } : { k: 'serial', loop: a.var, trav: a.trav }];
    }
    const nest = nestedLoop(b as ForStmt);
    if (nest && nest.inner.var === a.var && a.body.k === 'for' && a.body.var === b.var) {
      const exchanged = { ...nest.inner, body: { ...b, body: rewrap(nest.wrappers, nest.inner.body) } };
      if (printStmt(exchanged) === printStmt(a)) return [{ k: 'reorder', t: before, loop: at }];
    }
  }
  if (b.k === 'for') {
    // A loop replaced by a nest around its body (a split, however written).
    const body = nestAround(a, printStmt(b.body), at);
    if (body && bindsLet(after, at, body, b.var)) {
      return (['points', 'order'] as const).map((part): Obligation => ({ k: 'reindex', t: before, loop: at, after, body, part }));
    }
  }
  if (b.k === 'if' && b.else.k === 'nop' && printStmt(b.then) === printStmt(a)) return [{ k: 'guard', t: before, at, cond: b.cond }];
  if (a.k === 'if' && a.else.k === 'nop' && printStmt(a.then) === printStmt(b)) return [{ k: 'guard', t: before, at, cond: a.cond }];
  return undefined;
}

/** The items of a block put in another order: every two items whose order changed must commute. */
function permuted(before: TgtProgram, after: TgtProgram, block: StmtPath): Obligation[] | undefined {
  const b = stmtAt(before.body, block);
  const a = stmtAt(after.body, block);
  if (b?.k !== 'seq' || a?.k !== 'seq' || a.body.length !== b.body.length) return undefined;
  const left = b.body.map((s) => printStmt(s));
  const order: number[] = [];
  for (const s of a.body) {
    const k = left.findIndex((x, i) => x === printStmt(s) && !order.includes(i));
    if (k < 0) return undefined;
    order.push(k);
  }
  const out: Obligation[] = [];
  for (let i = 0; i < order.length; i++) {
    for (let j = i + 1; j < order.length; j++) if (order[i]! > order[j]!) out.push({ k: 'commutes', t: before, a: [...block, order[j]!], b: [...block, order[i]!] });
  }
  return out;
}

/**
 * An `allocate f` or a `label f` moved to the front of a loop's body, as store-at and compute-at do:
 * their obligations on the program before, that every access to f stays inside the loop (what
 * their validity checks establish for the built-ins), and the program with only that move made.
 */
function movedIntoLoop(before: TgtProgram, after: TgtProgram): { obligations: Obligation[]; rest: TgtProgram } | undefined {
  for (const func of funcsOf(before)) {
    for (const [site, there] of [[allocOf(before, func), allocOf(after, func)], [labelOf(before, func), labelOf(after, func)]] as const) {
      if (!site || !there || there.path.length < 3 || there.path[there.path.length - 1] !== 0) continue;
      const loopAt = there.path.slice(0, -2);
      const loop = stmtAt(after.body, loopAt);
      if (loop?.k !== 'for' || printStmt(stmtAt(before.body, site.path)!) !== printStmt(there.stmt)) continue;
      const rest = loopsOf(before).some((l) => l.stmt.var === loop.var && !isInside(l.path, site.path)) ? moveIntoLoop(before, site, loop.var) : before;
      if (printStmt(rest.body) === printStmt(before.body)) continue;
      const a = { func, loop: loop.var };
      const own = site.stmt.k === 'allocate' ? storeAtObligations(before, a) : computeAtObligations(before, a);
      return { obligations: [...own, { k: 'confined', t: after, buf: func, within: loopAt }], rest };
    }
  }
  return undefined;
}

/**
 * implements [OBL-GENERIC]: a plug-in's rewrite read off the programs before and after: an
 * allocation or a computation moved into a loop (store-at's and compute-at's obligations, and
 * `confined`), then one statement changed in one of these ways: a loop whose traversal alone
 * changed (`parallel`, `serial`), two nested loops exchanged (`reorder`), a loop replaced by a nest
 * that binds its variable (`reindex`), a guard dropped or added (`guard`), or the items of one block
 * reordered (`commutes` for each pair exchanged). Anything else, or anything more, is unknown.
 */
export function genericObligations(before: TgtProgram, after: TgtProgram): Obligation[] {
  const at = firstDifference(before.body, after.body);
  if (at === undefined) return [{ k: 'unchanged', before, after }];
  const move = movedIntoLoop(before, after);
  if (move) {
    const rest = genericObligations(move.rest, after);
    return [...move.obligations, ...rest.filter((o) => o.k !== 'unchanged')];
  }
  // The rewrite must be the one recognised there and nothing else.
  const only = (p: StmtPath) => printStmt(replaceAt(before.body, p, () => stmtAt(after.body, p)!)) === printStmt(after.body);
  const here = only(at) ? recognise(before, after, at) : undefined;
  if (here) return here;
  const block = at.slice(0, -1);
  const moved = typeof at[at.length - 1] === 'number' && only(block) ? permuted(before, after, block) : undefined;
  if (moved && moved.length > 0) return moved;
  return [{ k: 'unmodelled', why: 'the generic route recognises a changed traversal, two exchanged nested loops, a reindexed loop, a dropped or added guard and a reordered block, and this rewrite is none of them' }];
}
