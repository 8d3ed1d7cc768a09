// Halide-style schedules (spec/halide-schedules.md): the chains of calls read by
// halide-syntax.ts become a refsem schedule for a given program. Halide lets a user write the
// calls in any order and fills in what is left unsaid; refsem's schedules are explicit and in
// phase order. The translation makes the difference explicit: it sorts the calls into phases,
// places consumers before their producers, spells out Halide's defaults (inline what is not
// placed, store where computed), and names Halide's loops by refsem's (halide-calls.ts).
import { UserError, showLoc } from '../diag.js';
import { walkExpr } from '../expr/ast.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { stageLabel } from '../target-semantics/loop-name.js';
import { type LoopInfo, isInside, loopsOf, someStmt } from '../target-semantics/walk.js';
import { ownExprs } from '../target-semantics/holes.js';
import { builtinRegistry } from './builtins.js';
import { LOOP_CALLS, SUPPORTED, Translation, arity, argError, exprArg, ignoredNote, loopCall, nameArg, unsupported } from './halide-calls.js';
import { intermediateCall, rfactorCall } from './halide-rfactor.js';
import { type HalideArg, type HalideCall, type HalideChain, parseHalideSchedule } from './halide-syntax.js';
import { parseSchedule } from './parse.js';
import { computeSites, funcsOf, labelOf, stageCount } from './loops.js';
import type { DirectiveRegistry, Schedule } from './plugin.js';

/** Where a func is computed (or stored): Halide's LoopLevel. */
type Level =
  | { readonly k: 'root' }
  | { readonly k: 'inline' }
  /** loop v of a stage of func, or with `edge` Halide's `Var::innermost()` / `Var::outermost()` of it */
  | { readonly k: 'at'; readonly func: string; readonly v: string; readonly stage?: number; readonly edge?: 'innermost' | 'outermost' }
  /** Halide's placement of an unscheduled func with update stages */
  | { readonly k: 'innermost' };

interface Placement {
  readonly level: Level;
  /** the call that chose it (absent for Halide's default) */
  readonly call?: HalideCall;
}

const EDGES = ['innermost', 'outermost'] as const;

/** The loop argument of a level: a name, or `Var::innermost()` / `Var::outermost()`. */
function loopArg(c: HalideCall, a: HalideArg | undefined): Pick<Extract<Level, { k: 'at' }>, 'v' | 'edge'> {
  const parts = a?.k === 'call' || a?.k === 'name' ? a.parts : [];
  const edge = parts.length > 1 ? EDGES.find((e) => e === parts[parts.length - 1]) : undefined;
  return edge ? { v: `Var::${edge}()`, edge } : { v: nameArg(c, a, 'a loop of the consumer') };
}

/** The level a compute_at / store_at call names: `(g, v)` or `(LoopLevel(g, v[, stage]))`. */
function levelArg(c: HalideCall): Level {
  const a = c.args;
  if (a.length === 1 && a[0]!.k === 'call' && a[0]!.parts[a[0]!.parts.length - 1] === 'LoopLevel') {
    const inner = { ...c, args: a[0]!.args };
    arity(inner, 2, 3);
    const stage = inner.args[2];
    if (stage && stage.k !== 'int') argError(c, stage, 'a stage index, an integer');
    return { k: 'at', func: nameArg(c, inner.args[0], 'a func'), ...loopArg(c, inner.args[1]), ...(stage?.k === 'int' ? { stage: Number(stage.value) } : {}) };
  }
  arity(c, 2);
  return { k: 'at', func: nameArg(c, a[0], 'the consumer func'), ...loopArg(c, a[1]) };
}

/** Does stage i of g read f? (where Halide puts `compute_at(g, v)` when g has several stages) */
function stageReads(t: TgtProgram, g: string, i: number, f: string): boolean {
  return reads(labelOf(t, stageLabel(g, i))?.stmt, f);
}

/** The funcs a func reads, directly or through others, from `from` to `to` (undefined when it does not). */
function readPath(t: TgtProgram, from: string, to: string): string[] | undefined {
  const funcs = funcsOf(t);
  const seen = new Map<string, string[]>([[from, [from]]]);
  for (const queue = [from]; queue.length > 0;) {
    const g = queue.shift()!;
    for (const h of funcs) {
      if (h === g || seen.has(h) || !reads(labelOf(t, g)?.stmt, h)) continue;
      seen.set(h, [...seen.get(g)!, h]);
      if (h === to) return seen.get(h);
      queue.push(h);
    }
  }
  return undefined;
}

/**
 * `f.compute_with(g, v)` (or a stage of f, or `LoopLevel(g, v, i)`): Halide fuses the loops of the
 * two stages down to v, interleaving their iterations. When neither func reads the other, directly
 * or through other funcs, no iteration reads what another computes, so the values are those of
 * the two computed one after the other, refsem's order: skipped with a note. A dependency, or two
 * stages of one func, is refused (Halide 14 refuses a dependency too: "Invalid compute_with").
 */
function computeWithNote(t: TgtProgram, f: string, c: HalideCall): string {
  // implements [HALIDE-STYLE-COMPUTE-WITH]
  const l = levelArg({ ...c, args: c.args.slice(0, c.args[0]?.k === 'call' ? 1 : 2) });
  const g = l.k === 'at' ? l.func : f;
  if (!funcsOf(t).includes(g)) throw new UserError(`${c.text}: there is no func '${g}' in the program`, c.loc, `the funcs are: ${funcsOf(t).join(', ')}`);
  const path = g === f ? [f, f] : (readPath(t, f, g) ?? readPath(t, g, f));
  if (path) {
    throw new UserError(`${c.text}: [HALIDE-STYLE-COMPUTE-WITH] ${g === f ? `the stages of '${f}' depend on each other` : `'${path[0]}' reads '${path[path.length - 1]}'${path.length > 2 ? ` (${path.join(' → ')})` : ''}`}: fusing their loops would let an iteration read a point not yet computed`, c.loc,
      'compute one inside the other\'s loops with compute_at(…) instead (Halide refuses compute_with between dependent funcs too)');
  }
  return `${showLoc(c.loc)}: note: ${c.text}: [HALIDE-STYLE-COMPUTE-WITH] ignored, it changes no value: neither '${f}' nor '${g}' reads the other, directly or through other funcs, so interleaving their loops computes the values refsem computes one func after the other\n`;
}

/** Does a statement read f? */
function reads(stmt: Stmt | undefined, f: string): boolean {
  return stmt !== undefined && someStmt(stmt, (s) => ownExprs(s).some((e) => {
    let hit = false;
    walkExpr(e, (x) => void (x.k === 'access' && x.func === f && (hit = true)));
    return hit;
  }));
}

/**
 * refsem's loop for level (g, v): Halide's LoopLevel(g, v) without a stage is the loop v of the
 * stage of g that uses f (checked on Halide 14's loop nests), the final stage when none does.
 * `Var::innermost()` is that stage's innermost loop; `Var::outermost()` is inside g's computation
 * but outside its loops, which refsem states as the loop around g's computation (undefined: the
 * top level, where refsem's root computation is).
 */
function levelLoop(tr: Translation, f: string, l: Extract<Level, { k: 'at' }>, c: HalideCall): string | undefined {
  // implements [HALIDE-STYLE-LEVEL]
  const t = tr.program;
  if (tr.inlined.has(l.func)) {
    throw new UserError(`${c.text}: '${l.func}' is inlined, so it has no loop ${l.v} to put '${f}' in`, c.loc, `give '${l.func}' a compute_root() or compute_at(…) of its own`);
  }
  const n = stageCount(t, l.func);
  const stage = l.stage ?? Array.from({ length: n }, (_, i) => i).find((i) => stageReads(t, l.func, i, f)) ?? Math.max(0, n - 1);
  const deepest = (ls: LoopInfo[]) => ls.sort((a, b) => b.path.length - a.path.length)[0]?.stmt.var;
  if (l.edge === 'innermost') return deepest(loopsOf(t).filter((x) => x.name?.func === l.func && x.name.stage === stage && x.name.spec === 0));
  const own = labelOf(t, l.func);
  if (l.edge === 'outermost') return own && deepest(loopsOf(t).filter((x) => isInside(own.path, x.path)));
  return tr.loop(l.func, stage, l.v);
}

/** The innermost loop around every read of f, where Halide computes an unscheduled func with updates. */
function innermostSite(t: TgtProgram, f: string): string | undefined {
  const depth = new Map(loopsOf(t).map((l) => [l.stmt.var, l.path.length]));
  const sites = computeSites(t).filter((s) => s.func === f).sort((a, b) => depth.get(b.loop)! - depth.get(a.loop)!);
  return sites[0]?.loop;
}

/**
 * The funcs in the order their placements are translated: every func after the funcs whose loops
 * it is computed or stored in, ties consumers first (the reverse of the program's order, which
 * lists producers first). The written order of the calls plays no part, as in Halide, which
 * resolves placements from the output inwards. A placement cycle has no such order: it is an
 * error naming the cycle.
 */
function placementOrder(funcs: readonly string[], compute: ReadonlyMap<string, Placement>, store: ReadonlyMap<string, Placement>): string[] {
  // implements [HALIDE-STYLE-CYCLE]
  const edges = (f: string) => [compute.get(f), store.get(f)].filter((p): p is Required<Placement> => p?.level.k === 'at' && p.call !== undefined);
  const order: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: Required<Placement>[] = [];
  const visit = (f: string): void => {
    if (state.get(f) === 'done') return;
    state.set(f, 'open');
    for (const p of edges(f)) {
      const g = (p.level as Extract<Level, { k: 'at' }>).func;
      path.push(p);
      if (state.get(g) === 'open') {
        const cycle = path.slice(path.findIndex((q) => ownerOf(q) === g));
        const c = cycle[0]!.call;
        const steps = cycle.map((q) => `${ownerOf(q)}.${q.call.text} (line ${q.call.loc.line})`).join(', ');
        throw new UserError(`${c.text}: [HALIDE-STYLE-CYCLE] placement cycle ${[...cycle.map(ownerOf), g].join(' → ')}: ${steps}; a func cannot be computed or stored inside a func that is itself inside it`, c.loc,
          `place one of ${[...new Set(cycle.map(ownerOf))].join(', ')} at the root (compute_root()) or in a loop of a func outside the cycle`);
      }
      if (funcs.includes(g)) visit(g);
      path.pop();
    }
    state.set(f, 'done');
    order.push(f);
  };
  const owner = new Map<HalideCall, string>();
  for (const f of funcs) for (const p of edges(f)) owner.set(p.call, f);
  const ownerOf = (p: Required<Placement>) => owner.get(p.call)!;
  for (const f of [...funcs].reverse()) visit(f);
  return order;
}

/** Translates the chains into a refsem schedule for program t0. */
export function translateHalideSchedule(chains: readonly HalideChain[], t0: TgtProgram, file: string, registry: DirectiveRegistry = builtinRegistry()): Schedule {
  // implements [HALIDE-STYLE-PHASES]
  const funcs = funcsOf(t0);
  const compute = new Map<string, Placement>();
  const store = new Map<string, Required<Placement>>();
  const loopCalls: { f: string; c: HalideCall }[] = [];
  const boundCalls: { f: string; c: HalideCall }[] = [];
  const intermediate: { c: HalideCall; of: HalideCall }[] = [];
  const notes: string[] = [];
  for (const ch of chains) {
    if (!funcs.includes(ch.func)) {
      throw new UserError(`there is no func '${ch.func}' in the program`, ch.loc, `the funcs are: ${funcs.join(', ')}`);
    }
    for (const c of ch.calls) {
      if (c.of) {
        intermediate.push({ c, of: c.of });
        continue;
      }
      const note = c.name === 'compute_with' ? computeWithNote(t0, ch.func, c) : ignoredNote(c);
      if (note !== undefined) {
        notes.push(note);
        continue;
      }
      if (!SUPPORTED.includes(c.name)) unsupported(c);
      const updates = stageCount(t0, ch.func) - 1;
      if (c.stage > updates) {
        throw new UserError(`${c.text}: '${ch.func}' has no update ${c.stage - 1}; it has ${updates} update definition${updates === 1 ? '' : 's'}`, c.loc, updates > 0 ? `the updates are numbered 0 to ${updates - 1}` : `only ${ch.func}'s pure definition has loops`);
      }
      if (LOOP_CALLS.includes(c.name) || c.name === 'rfactor') {
        loopCalls.push({ f: ch.func, c });
        continue;
      }
      if (c.stage > 0) {
        throw new UserError(`${c.text}: ${c.name} schedules the whole func, not an update stage`, c.loc, `call it on the func: ${ch.func}.${c.text}`);
      }
      // Halide keeps the last compute level and the last store level a func is given.
      if (c.name === 'compute_root') (arity(c, 0), compute.set(ch.func, { level: { k: 'root' }, call: c }));
      else if (c.name === 'compute_inline') (arity(c, 0), compute.set(ch.func, { level: { k: 'inline' }, call: c }));
      else if (c.name === 'compute_at') compute.set(ch.func, { level: levelArg(c), call: c });
      else if (c.name === 'store_root') (arity(c, 0), store.set(ch.func, { level: { k: 'root' }, call: c }));
      else if (c.name === 'store_at') store.set(ch.func, { level: levelArg(c), call: c });
      else boundCalls.push({ f: ch.func, c });
    }
  }
  const tr = new Translation(t0, file, registry);
  tr.notes.push(...notes);
  // Loops phase, in the order written: calls on one stage build on each other, and calls on
  // distinct stages touch distinct loops.
  for (const { f, c } of loopCalls) (c.name === 'rfactor' ? rfactorCall : loopCall)(tr, f, c);
  tr.stage = undefined;
  for (const { c, of } of intermediate) intermediateCall(tr, c, of);

  // Compute phase. Halide's defaults: the output at the root; a func with update stages inside
  // the innermost loop around its reads; any other func inlined: implements [HALIDE-STYLE-DEFAULT].
  const levelOf = (f: string): Placement => compute.get(f) ?? {
    level: f === t0.output ? { k: 'root' } : stageCount(t0, f) > 1 ? { k: 'innermost' } : { k: 'inline' },
  };
  const firstLoopCall = (f: string) => loopCalls.find((x) => x.f === f)?.c;
  const consumersFirst = placementOrder(funcs, compute, store);
  for (const f of consumersFirst) {
    const p = levelOf(f);
    if (p.level.k !== 'inline') continue;
    if (!p.call && firstLoopCall(f)) {
      const c = firstLoopCall(f)!;
      throw new UserError(`${c.text}: [HALIDE-STYLE-DEFAULT] '${f}' has no compute_root() or compute_at(), so Halide inlines it, and an inlined func has no loops to schedule`, c.loc,
        `add ${f}.compute_root() or ${f}.compute_at(consumer, loop)`);
    }
    tr.emit(p.call ?? `Halide's default for '${f}', inline`, 'inline', { func: f }, chains.find((ch) => ch.func === f)?.loc);
    tr.inlined.add(f);
  }
  const computedAt = new Map<string, string>();
  for (const f of consumersFirst) {
    const p = levelOf(f);
    if (p.level.k !== 'at' && p.level.k !== 'innermost') continue;
    const loop = p.level.k === 'at' ? levelLoop(tr, f, p.level, p.call!) : innermostSite(tr.program, f);
    if (loop === undefined) continue;
    tr.emit(p.call ?? `Halide's default for '${f}', which has update stages, compute_at the innermost loop around its reads`, 'compute-at', { func: f, loop }, chains.find((ch) => ch.func === f)?.loc);
    computedAt.set(f, loop);
  }
  // Storage phase: Halide stores a func where it is computed unless told otherwise; refsem's
  // allocation stays at the top unless moved, which is store_root.
  for (const f of consumersFirst) {
    const s = store.get(f);
    const at = s?.level.k === 'at' ? levelLoop(tr, f, s.level, s.call) : undefined;
    if (at !== undefined) tr.emit(s!.call, 'store-at', { func: f, loop: at });
    else if (!s && computedAt.has(f)) tr.emit(compute.get(f)?.call ?? `Halide's default for '${f}', stored where computed`, 'store-at', { func: f, loop: computedAt.get(f)! }, chains.find((ch) => ch.func === f)?.loc);
  }
  // Bounds phase, in the order written.
  for (const { f, c } of boundCalls) {
    const dim = `${f}.${nameArg(c, c.args[0], 'a dimension of the func')}`;
    if (c.name === 'bound') (arity(c, 3), tr.emit(c, 'bound', { dim, min: exprArg(c, c.args[1], 'the min'), len: exprArg(c, c.args[2], 'the extent') }));
    else if (c.name === 'bound_extent') (arity(c, 2), tr.emit(c, 'bound-extent', { dim, len: exprArg(c, c.args[1], 'the extent') }));
    else {
      arity(c, 2, 3);
      tr.emit(c, 'align-bounds', { dim, modulus: exprArg(c, c.args[1], 'the modulus'), ...(c.args[2] ? { remainder: exprArg(c, c.args[2], 'the remainder') } : {}) });
    }
  }
  return tr.schedule();
}

/** A `.halide` file's text as a refsem schedule for program t0. */
export function halideSchedule(text: string, file: string, t0: TgtProgram, registry: DirectiveRegistry = builtinRegistry()): Schedule {
  return translateHalideSchedule(parseHalideSchedule(text, file), t0, file, registry);
}

/**
 * A schedule file's text, by its extension: a Halide-style `.halide` file translated for the
 * program T0 that `program` gives (only then is it computed), anything else in refsem's syntax.
 */
export function readSchedule(text: string, file: string, program: (() => TgtProgram) | undefined, registry: DirectiveRegistry = builtinRegistry()): Schedule {
  if (!file.endsWith('.halide')) return parseSchedule(text, file, registry);
  if (!program) throw new UserError('a Halide-style schedule is translated for a program, and there is none here', { file, line: 1, col: 1 }, 'write the schedule as a refsem .sched file');
  return halideSchedule(text, file, program(), registry);
}
