// Planted faults that are scheduling directives: each is a copy of a built-in (or of the
// compute-with prototype of §2.9) with one validity check left out. They are plug-ins loaded only
// into zoo campaigns; the real directives are untouched.
import { cst } from '../../expr/ast.js';
import type { Stmt, TgtProgram } from '../../target-semantics/ast.js';
import { stageLabel } from '../../target-semantics/loop-name.js';
import { type ForStmt, loopsOf, replaceInProgram } from '../../target-semantics/walk.js';
import {
  allocOf, firstValid, funcsOf, inventName, isPure, labelOf, moveIntoLoop, nameOf, resolveLoop, stageCount,
} from '../../schedule/loops.js';
import { type Directive, defineDirective } from '../../schedule/plugin.js';
import { type Tail, splitLoop } from '../../schedule/split.js';

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

