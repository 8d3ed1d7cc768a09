// split(ℓ, xo, xi, e, φ) (§2.8.2; rewrite in spec/schedule.md, [SPLIT]).
import { type Expr, cst, op, vr } from '../expr/ast.js';
import { sub } from '../expr/ops.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { type ForStmt, type LoopInfo, loopsOf, replaceInProgram } from '../target-semantics/walk.js';
import {
  assertAtStart, constValue, firstValid, freshLoopVar, inventName, nameOf, requireStartup, resolveLoop, stageCount,
} from './loops.js';
import { type Directive, defineDirective } from './plugin.js';
import { requireDisjointParallel } from './disjoint.js';
import { splitObligations } from './obligations.js';

export type Tail = 'guard' | 'shift' | 'round';

export interface SplitArgs {
  readonly loop: string;
  /** [outer, inner]; defaults to the loop's variable with `o` and `i` appended. */
  readonly names?: readonly string[];
  readonly factor: Expr;
  /** Defaults to guard. */
  readonly tail?: Tail;
}

/** The full names of the two new loops (validated fresh). */
function newNames(t: TgtProgram, a: SplitArgs, l: LoopInfo): [string, string] {
  const n = nameOf(l);
  const [o, i] = a.names ?? [`${n.v}o`, `${n.v}i`];
  const xo = freshLoopVar(t, n, o!);
  return [xo, freshLoopVar(t, n, i!, new Set([xo]))];
}

export const split: Directive<SplitArgs> = defineDirective<SplitArgs>({
  name: 'split',
  rule: 'SPLIT',
  phase: 'loops',
  summary: 'split a loop into an outer and an inner loop by a factor, with a tail strategy',
  obligations: splitObligations,
  params: [
    { name: 'loop', type: 'loop' },
    { name: 'names', type: 'names', key: 'into', optional: true },
    { name: 'factor', type: 'expr', key: 'by' },
    { name: 'tail', type: { choice: ['guard', 'shift', 'round'] }, key: 'tail', optional: true },
  ],
  validate(t, a, ctx) {
    const l = resolveLoop(t, a.loop);
    if (a.names !== undefined && a.names.length !== 2) {
      ctx.reject('SPLIT-NAMES', `split names two new loops, not ${a.names.length}`, 'write `into OUTER, INNER`, or leave the names out');
    }
    newNames(t, a, l);
    requireStartup(t, a.factor, 'the split factor');
    const c = constValue(a.factor);
    if (c !== undefined && c <= 0) ctx.reject('SPLIT-FACTOR', `the split factor must be positive, not ${c}`);
    const tail = a.tail ?? 'guard';
    const n = nameOf(l);
    if (tail !== 'guard' && stageCount(t, n.func) > 1) {
      ctx.reject('SPLIT-TAIL', `tail ${tail} needs a func without update stages, but '${n.func}' has ${stageCount(t, n.func)} stages`,
        `use tail guard for ${l.stmt.var}`);
    }
    // A shift or round tail under a parallel loop may make its iterations meet.
    requireDisjointParallel(t, applySplit(t, a), ctx);
  },
  apply: applySplit,
  generate(t, rng, ctx) {
    const params = t.params.map((p) => vr(p));
    const cands: SplitArgs[] = loopsOf(t).flatMap((l) => {
      if (!l.name) return [];
      const names = [inventName(t, l.name, `${l.name.v}o`), inventName(t, l.name, `${l.name.v}i`)];
      const factors: Expr[] = [...[1, 2, 3, 4, 5].map((k) => cst(k)), ...params];
      return factors.flatMap((factor) => (['guard', 'shift', 'round'] as const).map((tail) => ({ loop: l.stmt.var, names, factor, tail })));
    });
    return firstValid(rng, cands, (c) => ctx.valid(t, c));
  },
});

function applySplit(t: TgtProgram, a: SplitArgs): TgtProgram {
  const l = resolveLoop(t, a.loop);
  const [xo, xi] = newNames(t, a, l);
  const next = replaceInProgram(t, l.path, (s) => splitLoop(s as ForStmt, xo, xi, a.factor, a.tail ?? 'guard'));
  return assertAtStart(next, [op('>', a.factor, cst(0))]);
}

/**
 * `for^τ x in (m, l) do s` ⟶ `for^τ xo in (0, (l + e − 1) div e) do for xi in (0, e) do let x = X in
 * BODY`, with X and BODY as the tail strategy says. The directive asserts a non-constant e
 * positive at the start of the program (assertAtStart), not here.
 */
export function splitLoop(loop: ForStmt, xo: string, xi: string, e: Expr, tail: Tail): Stmt {
  const { min: m, len: l, body: s, var: x } = loop;
  const c = constValue(e);
  const eMinus1 = c !== undefined ? cst(sub(c, 1)) : op('-', e, cst(1));
  const base = op('+', m, op('*', vr(xo), e));
  const start = tail === 'shift' ? op('min', base, op('-', op('+', m, l), e)) : base;
  const X = op('+', start, vr(xi));
  const body: Stmt = tail === 'guard' ? { k: 'if', cond: op('<', vr(x), op('+', m, l)), then: s, else: { k: 'nop' } } : s;
  const loc = loop.loc ? { loc: loop.loc } : {};
  const inner: Stmt = { k: 'for', var: xi, trav: 'serial', min: cst(0), len: e, body: { k: 'let', var: x, value: X, body }, ...loc };
  return { k: 'for', var: xo, trav: loop.trav, min: cst(0), len: op('div', op('+', l, eMinus1), e), body: inner, ...loc };
}
