// Planted faults that are scheduling directives: each is a copy of a built-in (or of the
// compute-with prototype of §2.9) with one validity check left out. They are plug-ins loaded only
// into zoo campaigns; the real directives are untouched.
import { type Expr, cst, op, vr, walkExpr } from '../../expr/ast.js';
import type { Stmt, TgtProgram } from '../../target-semantics/ast.js';
import { stmtExprs } from '../../target-semantics/holes.js';
import { stageLabel } from '../../target-semantics/loop-name.js';
import { type ForStmt, isInside, loopsOf, replaceInProgram } from '../../target-semantics/walk.js';
import {
  FUNC_AT_LOOP, type FuncAtLoop, allocOf, firstValid, funcsOf, inventName, isPure, labelOf, moveIntoLoop, nameOf, nestedLoop, resolveLoop, stageCount,
} from '../../schedule/loops.js';
import { type Directive, Rejection, defineDirective } from '../../schedule/plugin.js';
import { type Tail, splitLoop } from '../../schedule/split.js';

/** The rule a planted directive names when it refuses a call (it has no rule of spec/schedule.md). */
const PLANTED = 'planted fault';

interface LoopArg {
  readonly loop: string;
}

/** Loops of update stages (stage ≥ 1), where Round and Shift tails are invalid (§2.8.2). */
const updateLoops = (t: TgtProgram) => loopsOf(t).filter((l) => l.name !== undefined && l.name.stage >= 1);

/** split with a fixed tail strategy, allowed on every loop: the check "pure funcs only" is gone. */
function splitAnywhere(name: string, tail: Tail, wanted: (t: TgtProgram) => ReturnType<typeof loopsOf>): Directive<LoopArg & { factor: number }> {
  return defineDirective<LoopArg & { factor: number }>({
    name,
    phase: 'loops',
    summary: `FAULT: split with tail ${tail} on any loop, update stages included`,
    params: [{ name: 'loop', type: 'loop' }, { name: 'factor', type: 'int', key: 'by' }],
    validate(t, a) {
      resolveLoop(t, a.loop);
    },
    apply(t, a) {
      const l = resolveLoop(t, a.loop);
      const n = nameOf(l);
      const xo = inventName(t, n, `${n.v}o`);
      const xi = inventName(t, n, `${n.v}i`, new Set([xo]));
      return replaceInProgram(t, l.path, (s) => splitLoop(s as ForStmt, xo, xi, cst(Number(a.factor)), tail));
    },
    generate(t, rng) {
      const ls = wanted(t);
      if (ls.length === 0) return undefined;
      return { loop: ls[rng.below(ls.length)]!.stmt.var, factor: 2 + rng.below(3) };
    },
  });
}

/** Halide's Round tail on an update stage: over-computes the update past the loop's end. */
export const splitRoundUpdate = splitAnywhere('split-round-any', 'round', updateLoops);

/** Shift tail on a multi-stage func: recomputed points get the update applied twice. */
export const splitShiftUpdate = splitAnywhere('split-shift-any', 'shift', updateLoops);

/** traverse parallel without the purity check of def. 2.16: reduction loops run in parallel. */
export const parallelAny = defineDirective<LoopArg>({
  name: 'parallel-any-loop',
  phase: 'loops',
  summary: 'FAULT: parallel traversal of any loop, reduction loops included',
  params: [{ name: 'loop', type: 'loop' }],
  validate(t, a) {
    resolveLoop(t, a.loop);
  },
  apply(t, a) {
    const l = resolveLoop(t, a.loop);
    return replaceInProgram(t, l.path, (s) => ({ ...(s as ForStmt), trav: 'parallel' }));
  },
  generate(t, rng) {
    const red = loopsOf(t).filter((l) => !isPure(t, l.stmt.var));
    const ls = red.length > 0 ? red : loopsOf(t);
    return ls.length === 0 ? undefined : { loop: ls[rng.below(ls.length)]!.stmt.var };
  },
});

/**
 * The compute-with prototype of §2.9: interleaving stages without looking at the dependencies
 * between the stages of one func, so the pure stage can end up after an update.
 */
export const computeWithLike = defineDirective<{ func: string }>({
  name: 'compute-with-like',
  phase: 'compute',
  summary: 'FAULT: reorder the stages of a func, moving its pure stage after its first update',
  params: [{ name: 'func', type: 'func' }],
  validate(t, a) {
    if (stageCount(t, a.func) < 2) throw new Error(`'${a.func}' has no update stage`);
  },
  apply(t, a) {
    const site = labelOf(t, a.func)!;
    const s0 = stageLabel(a.func, 0);
    const s1 = stageLabel(a.func, 1);
    const swapStages = (s: Stmt): Stmt => {
      if (s.k === 'seq') {
        const i = s.body.findIndex((b) => b.k === 'label' && b.name === s0);
        const j = s.body.findIndex((b) => b.k === 'label' && b.name === s1);
        if (i >= 0 && j > i) {
          const body = [...s.body];
          [body[i], body[j]] = [body[j]!, body[i]!];
          return { ...s, body };
        }
        return { ...s, body: s.body.map(swapStages) };
      }
      if (s.k === 'if') return { ...s, then: swapStages(s.then), else: swapStages(s.else) };
      if (s.k === 'label' || s.k === 'for' || s.k === 'let') return { ...s, body: swapStages(s.body) };
      return s;
    };
    return replaceInProgram(t, site.path, swapStages);
  },
  generate(t, rng) {
    const fs = funcsOf(t).filter((f) => stageCount(t, f) >= 2);
    return fs.length === 0 ? undefined : { func: fs[rng.below(fs.length)]! };
  },
});

/** store-at without the dominance check: the allocation may no longer cover every access. */
export const storeAtAnywhere = defineDirective<{ func: string; loop: string }>({
  name: 'store-at-any',
  phase: 'storage',
  summary: 'FAULT: move a func\'s allocation into any loop, dominance unchecked',
  params: [{ name: 'func', type: 'func' }, { name: 'loop', type: 'loop', key: 'at' }],
  validate(t, a) {
    resolveLoop(t, a.loop);
    if (!allocOf(t, a.func)) throw new Error(`no allocation of '${a.func}'`);
  },
  apply(t, a) {
    return moveIntoLoop(t, allocOf(t, a.func)!, a.loop);
  },
  generate(t, rng) {
    const cands = funcsOf(t).flatMap((func) => loopsOf(t).filter((l) => l.name?.func !== func).map((l) => ({ func, loop: l.stmt.var })));
    return firstValid(rng, cands, () => true);
  },
});


/** Loops with a loop immediately inside them (no statement between the two). */
const nestedPairs = (t: TgtProgram) => loopsOf(t).filter((l) => nestedLoop(l.stmt)?.wrappers.length === 0);

/**
 * swap without [SWAP-REDUCTION]: two reduction loops exchanged, which changes an update whose
 * result depends on the order of its reduction domain (a Horner scheme, a scan).
 */
export const swapReductionLoops = defineDirective<LoopArg>({
  name: 'swap-reduction-loops',
  phase: 'loops',
  summary: 'FAULT: exchange two nested loops, reduction loops included',
  params: [{ name: 'loop', type: 'loop' }],
  validate(t, a) {
    if (nestedLoop(resolveLoop(t, a.loop).stmt)?.wrappers.length !== 0) throw new Rejection(PLANTED, `no loop immediately inside ${a.loop}`);
  },
  apply(t, a) {
    const outer = resolveLoop(t, a.loop);
    const inner = nestedLoop(outer.stmt)!.inner;
    return replaceInProgram(t, outer.path, (s) => ({ ...inner, body: { ...(s as ForStmt), body: inner.body } }));
  },
  generate(t, rng) {
    const red = nestedPairs(t).filter((l) => !isPure(t, l.stmt.var) && !isPure(t, nestedLoop(l.stmt)!.inner.var));
    const ls = red.length > 0 ? red : nestedPairs(t);
    return ls.length === 0 ? undefined : { loop: ls[rng.below(ls.length)]!.stmt.var };
  },
});

/** The funcs whose computation reads f. */
function consumersOf(t: TgtProgram, f: string): string[] {
  return funcsOf(t).filter((g) => g !== f && stmtExprs(labelOf(t, g)!.stmt).some((e) => {
    let reads = false;
    walkExpr(e, (x) => {
      if (x.k === 'access' && x.func === f) reads = true;
    });
    return reads;
  }));
}

/**
 * compute-at that checks only the consumer whose loop it targets: a second consumer that reads f
 * outside that loop (before or after it) reads values that are not computed there yet, or any more.
 */
export const computeAtOneConsumer = defineDirective<FuncAtLoop>({
  name: 'compute-at-one-consumer',
  phase: 'compute',
  summary: 'FAULT: compute a func in one consumer\'s loop, other consumers unchecked',
  params: FUNC_AT_LOOP,
  validate(t, a) {
    const l = resolveLoop(t, a.loop);
    const own = labelOf(t, a.func);
    if (!own || a.func === t.output || isInside(l.path, own.path)) throw new Rejection(PLANTED, `'${a.func}' cannot be computed at ${a.loop}`);
    if (!consumersOf(t, a.func).includes(nameOf(l).func)) throw new Rejection(PLANTED, `${a.loop} is not a loop of a consumer of '${a.func}'`);
  },
  apply(t, a) {
    return moveIntoLoop(t, labelOf(t, a.func)!, a.loop);
  },
  generate(t, rng) {
    // Funcs with several consumers are where the missing check matters.
    const fs = funcsOf(t).filter((f) => f !== t.output);
    const shared = fs.filter((f) => consumersOf(t, f).length >= 2);
    const cands = (shared.length > 0 ? shared : fs).flatMap((func) => {
      const cs = consumersOf(t, func);
      return loopsOf(t).filter((l) => l.name !== undefined && cs.includes(l.name.func)).map((l) => ({ func, loop: l.stmt.var }));
    });
    return cands.length === 0 ? undefined : cands[rng.below(cands.length)];
  },
});

/**
 * store-at at a loop around the compute loop, with the computation kept to the first iteration of
 * the compute loop: it assumes what was computed then serves every later iteration (a sliding
 * window that nothing establishes).
 */
export const storeAtReuse = defineDirective<FuncAtLoop>({
  name: 'store-at-reuse',
  phase: 'storage',
  summary: 'FAULT: store a func further out and compute it only on the first iteration of its compute loop',
  params: FUNC_AT_LOOP,
  validate(t, a) {
    const around = computeLoop(t, a.func);
    const l = resolveLoop(t, a.loop);
    if (!around || around.stmt.var === l.stmt.var || !isInside(around.path, l.path)) throw new Rejection(PLANTED, `${a.loop} does not enclose the compute loop of '${a.func}'`);
  },
  apply(t, a) {
    const stored = moveIntoLoop(t, allocOf(t, a.func)!, a.loop);
    const around = computeLoop(stored, a.func)!;
    const first = op('=', vr(around.stmt.var), around.stmt.min);
    return replaceInProgram(stored, labelOf(stored, a.func)!.path, (s) => ({ k: 'if', cond: first, then: s, else: { k: 'nop' } }));
  },
  generate(t, rng) {
    const cands = funcsOf(t).flatMap((func) => {
      const around = computeLoop(t, func);
      if (!around) return [];
      return loopsOf(t).filter((l) => l.stmt.var !== around.stmt.var && isInside(around.path, l.path)).map((l) => ({ func, loop: l.stmt.var }));
    });
    return cands.length === 0 ? undefined : cands[rng.below(cands.length)];
  },
});

/** The innermost loop around f's computation, if it is computed inside one. */
function computeLoop(t: TgtProgram, f: string) {
  const own = labelOf(t, f);
  return own && loopsOf(t).filter((l) => isInside(own.path, l.path)).pop();
}

/** split with its own rewrite of the loop, changed by `fault` (a guard of ≤, a forgotten minimum). */
function faultySplit(name: string, summary: string, fault: (loop: ForStmt, split: Stmt) => Stmt): Directive<LoopArg & { factor: number }> {
  return defineDirective<LoopArg & { factor: number }>({
    name,
    phase: 'loops',
    summary,
    params: [{ name: 'loop', type: 'loop' }, { name: 'factor', type: 'int', key: 'by' }],
    validate(t, a) {
      nameOf(resolveLoop(t, a.loop));
    },
    apply(t, a) {
      const l = resolveLoop(t, a.loop);
      const n = nameOf(l);
      const xo = inventName(t, n, `${n.v}o`);
      const xi = inventName(t, n, `${n.v}i`, new Set([xo]));
      return replaceInProgram(t, l.path, (s) => fault(s as ForStmt, splitLoop(s as ForStmt, xo, xi, cst(Number(a.factor)), 'guard')));
    },
    generate(t, rng) {
      const ls = loopsOf(t).filter((l) => l.name !== undefined);
      return ls.length === 0 ? undefined : { loop: ls[rng.below(ls.length)]!.stmt.var, factor: 2 + rng.below(3) };
    },
  });
}

/** Rewrites the `let x = …` and the guard `if …` of a split (splitLoop's shape: for xo { for xi { let x = X in if g then s } }). */
function mapSplitInner(split: Stmt, f: (letStmt: Extract<Stmt, { k: 'let' }>) => Stmt): Stmt {
  const outer = split as ForStmt;
  const inner = outer.body as ForStmt;
  return { ...outer, body: { ...inner, body: f(inner.body as Extract<Stmt, { k: 'let' }>) } };
}

/** A guarded split whose guard is x ≤ m + l instead of x < m + l: one iteration past the end. */
export const splitGuardLe = faultySplit('split-guard-le', 'FAULT: a guarded split whose guard lets one iteration too many through', (_loop, split) =>
  mapSplitInner(split, (lt) => {
    const guard = lt.body as Extract<Stmt, { k: 'if' }>;
    const [x, end] = guard.cond.k === 'op' ? guard.cond.args : [];
    return { ...lt, body: { ...guard, cond: op('not', op('>', x!, end!)) } };
  }));

/** A split that starts its iterations at 0 instead of the loop's minimum (right whenever the minimum is 0). */
export const splitForgetsMin = faultySplit('split-forgets-min', 'FAULT: a split that forgets a non-zero loop minimum', (loop, split) =>
  mapSplitInner(split, (lt) => ({ ...lt, value: dropMin(lt.value, loop.min) })));

/** m + xo·e + xi without its m (splitLoop builds it as (m + xo·e) + xi). */
function dropMin(x: Expr, m: Expr): Expr {
  if (x.k !== 'op' || x.op !== '+') return x;
  const [base, xi] = x.args as [Expr, Expr];
  if (base.k !== 'op' || base.op !== '+' || base.args[0] !== m) return x;
  return op('+', base.args[1]!, xi);
}

/**
 * A fuse written as a composite over the built-in one (ctx.run, spec/schedule.md, "Writing a
 * directive") that first drops the guards between the two loops — a split's tail guard among them
 * — as if the fused loop's extent made them redundant. On pure loops that only computes points
 * twice or past the region; on reduction loops it runs updates the rdom does not have.
 */
export const fuseDropsGuard = defineDirective<{ loop: string; name: string }>({
  name: 'fuse-drops-guard',
  phase: 'loops',
  summary: 'FAULT: fuse two nested loops, dropping the guards between them',
  params: [{ name: 'loop', type: 'loop' }, { name: 'name', type: 'name', key: 'into' }],
  validate(t, a, ctx) {
    ctx.run(t, 'fuse', a);
  },
  apply(t, a, ctx) {
    const l = ctx.api.resolveLoop(t, a.loop);
    const nest = ctx.api.nestedLoop(l.stmt);
    if (!nest) return ctx.run(t, 'fuse', a);
    const body = nest.wrappers.reduceRight<Stmt>((s, w) => (w.k === 'let' ? { k: 'let', var: w.var, value: w.value, body: s } : s), nest.inner);
    return ctx.run(ctx.api.replaceAt(t, l.path, (s) => ({ ...(s as ForStmt), body })), 'fuse', a);
  },
  generate(t, rng, ctx) {
    const cands = ctx.api.loopsOf(t).flatMap((l) => {
      const inner = l.name && ctx.api.nestedLoop(l.stmt)?.inner;
      return inner ? [{ loop: l.stmt.var, name: ctx.api.inventName(t, l.name!, `${l.name!.v}${inner.var.slice(inner.var.lastIndexOf('.') + 1)}`) }] : [];
    });
    return ctx.api.firstValid(rng, cands, (c) => ctx.valid(t, c));
  },
});
