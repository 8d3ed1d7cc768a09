// compute-at(f, ℓg) (§2.8.3): moves the whole statement `label f: …` to the first position in the
// body of loop ℓg, provided it still completes before every access to f made outside it and
// `allocate f` still runs before it (lemma 2.5).
import type { TgtProgram } from '../target-semantics/ast.js';
import { dominanceViolations } from './dominance.js';
import { type LoopInfo, isInside, loopsOf, visitStmts } from '../target-semantics/walk.js';
import {
  FUNC_AT_LOOP, type FuncAtLoop, allocOf, firstValid, computeSites, funcsOf, labelOf, moveIntoLoop, requireLabel, resolveLoop,
} from './loops.js';
import { type Directive, type DirectiveCtx, defineDirective, validatedByRewriting } from './plugin.js';
import { computeAtObligations } from './obligations.js';

export type ComputeAtArgs = FuncAtLoop;

/** The program with `label f` moved into loop ℓ, unchecked. */
function moved(t: TgtProgram, a: ComputeAtArgs): TgtProgram {
  return moveIntoLoop(t, labelOf(t, a.func)!, a.loop);
}

/** The funcs whose statements sit inside `label f` (they move with it). */
function nestedFuncs(t: TgtProgram, f: string): string[] {
  const funcs = new Set(funcsOf(t));
  const out = [f];
  visitStmts(labelOf(t, f)!.stmt.body, (s) => {
    if (s.k === 'label' && funcs.has(s.name)) out.push(s.name);
  });
  return out;
}

function check(t: TgtProgram, a: ComputeAtArgs, ctx: DirectiveCtx): TgtProgram {
  const site = requireLabel(t, a.func);
  if (a.func === t.output) {
    ctx.reject('COMPUTE-AT-OUTPUT', `'${a.func}' is the output func; it is computed at the top level`, 'compute its producers inside its loops instead');
  }
  const target = resolveLoop(t, a.loop);
  if (isInside(target.path, site.path)) {
    ctx.reject('COMPUTE-AT-OWN', `loop ${target.stmt.var} is inside the computation of '${a.func}' itself`, `choose a loop of a consumer of '${a.func}'`);
  }
  const next = moved(t, a);
  // Lemma 2.5 for every func, not only the moved ones: the moved statement reads its own
  // producers, which must still be computed before it at its new place.
  const nested = nestedFuncs(t, a.func);
  for (const g of funcsOf(next)) {
    const v = dominanceViolations(next, g)[0];
    if (!v) continue;
    if (v.kind === 'alloc') {
      ctx.reject('COMPUTE-AT-DOMINANCE', `'allocate ${g}' would no longer run before ${v.at}`, `compute '${a.func}' where its allocation is in scope`);
    }
    const reader = v.consumer ? `consumer '${v.consumer}'` : 'a statement';
    if (nested.includes(g) && !v.reads && v.consumer) {
      // The statement left outside does not itself read g, but its stage does elsewhere (another
      // specialization of it): lemma 2.5 per stage asks all of that stage to follow g.
      ctx.reject('COMPUTE-AT-DOMINANCE',
        `a stage of '${v.consumer}' reads '${g}', and lemma 2.5 requires all of that stage to run after '${g}' is computed; its statement ${v.at} is outside loop ${target.stmt.var}, so it would run before '${g}' is computed`,
        `compute '${a.func}' at a loop that encloses every statement of the stages of '${v.consumer}' that read it`);
    }
    if (nested.includes(g)) {
      ctx.reject('COMPUTE-AT-DOMINANCE',
        `${reader} reads '${g}' outside loop ${target.stmt.var} (at ${v.at}), where '${g}' would not have been computed`,
        `compute '${a.func}' at a loop that contains every use of '${g}'`);
    }
    ctx.reject('COMPUTE-AT-DOMINANCE',
      `${reader} would read its producer '${g}' (at ${v.at}) before '${g}' is computed`,
      `compute '${a.func}' at a loop that runs after '${g}' is computed, or compute '${g}' first`);
  }
  return next;
}

export const computeAt: Directive<ComputeAtArgs> = defineDirective<ComputeAtArgs>({
  name: 'compute-at',
  rule: 'COMPUTE-AT',
  phase: 'compute',
  summary: 'compute a func inside a loop of its consumer',
  obligations: computeAtObligations,
  params: FUNC_AT_LOOP,
  ...validatedByRewriting(check),
  // Distinct iterations of a parallel loop would recompute overlapping parts of f into one shared
  // buffer — a data race — unless f is also stored inside the loop. Checked once the storage
  // phase is over, since a later store-at may fix it.
  finalCheck(t, a, ctx) {
    const par = racingLoop(t, a.func);
    if (par) {
      ctx.reject('COMPUTE-AT-PARALLEL', `'${a.func}' is computed inside parallel loop ${par.stmt.var} but allocated outside it, so its iterations would race on the buffer of '${a.func}'`,
        `add \`store-at ${a.func} at ${par.stmt.var}\` (or at a loop inside it)`);
    }
  },
  generate(t, rng, ctx) {
    // Only placements that are valid without a later store-at.
    return firstValid(rng, computeSites(t), (c) => ctx.valid(t, c) && racingLoop(moved(t, c), c.func) === undefined);
  },
});

/** A parallel loop that contains f's computation but not its allocation. */
function racingLoop(t: TgtProgram, f: string): LoopInfo | undefined {
  const lab = labelOf(t, f);
  const al = allocOf(t, f);
  // A func inlined after it was placed has no computation or buffer left to race on.
  if (!lab || !al) return undefined;
  return loopsOf(t).find((l) => l.stmt.trav === 'parallel' && isInside(lab.path, l.path) && !isInside(al.path, l.path));
}
