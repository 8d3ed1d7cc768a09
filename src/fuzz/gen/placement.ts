// Placements as Halide users write them. A directive's own `generate` picks any valid (func,
// loop) pair, which on a pipeline of many funcs almost never nests one placement inside another.
// Users place consumers before producers: the output's producers at a tile loop of the output,
// their producers at a loop of theirs, and so on (f inside g inside h), and store a func at the
// loop where it is computed or further out (sliding windows, §2.8.4). These proposals do the same
// on the current program; each is still validated by the directive before it is applied.
import type { TgtProgram } from '../../target-semantics/ast.js';
import { type LoopInfo, isInside, loopsOf } from '../../target-semantics/walk.js';
import { allocOf, computeSites, funcsOf, labelOf } from '../../schedule/loops.js';
import { seededRng } from '../../rng.js';
import type { AppliedCall } from './driver.js';

/** The loops that enclose every use of f and not f's computation: where f may be computed. */
function enclosingUses(t: TgtProgram, f: string): string[] {
  return computeSites(t).filter((c) => c.func === f).map((c) => c.loop);
}

const isPlaced = (t: TgtProgram, f: string): boolean => {
  const own = labelOf(t, f)?.path;
  return own !== undefined && loopsOf(t).some((l) => isInside(own, l.path));
};

/**
 * compute-at proposals, best first: the unplaced func latest in program order (consumers come
 * after their producers, so this places consumers first) at a loop enclosing all its uses; the
 * seed picks the func among the last few and the loop among the candidates.
 */
export function proposeComputeAt(t: TgtProgram, seed: number): AppliedCall[] {
  const rng = seededRng(seed);
  const funcs = funcsOf(t).filter((f) => f !== t.output && !isPlaced(t, f)).reverse();
  const out: AppliedCall[] = [];
  const skip = rng.below(Math.min(3, funcs.length + 1));
  for (const func of [...funcs.slice(skip), ...funcs.slice(0, skip)]) {
    const loops = enclosingUses(t, func);
    if (loops.length === 0) continue;
    const first = rng.below(loops.length);
    for (let i = 0; i < loops.length; i++) out.push({ name: 'compute-at', args: { func, loop: loops[(first + i) % loops.length]! } });
  }
  return out;
}

/** The loops enclosing f's computation, innermost first. */
function loopsAround(t: TgtProgram, f: string): LoopInfo[] {
  const own = labelOf(t, f)?.path;
  if (!own) return [];
  return loopsOf(t).filter((l) => isInside(own, l.path)).reverse();
}

/**
 * store-at proposals: a placed func stored at a loop around its computation, the compute level
 * itself or one further out (the seed decides), whichever loops the allocation is not yet in.
 */
export function proposeStoreAt(t: TgtProgram, seed: number): AppliedCall[] {
  const rng = seededRng(seed);
  const funcs = funcsOf(t).filter((f) => f !== t.output && isPlaced(t, f) && !isInside(allocOf(t, f)!.path, loopsAround(t, f)[0]!.path));
  const out: AppliedCall[] = [];
  const start = rng.below(Math.max(1, funcs.length));
  for (let i = 0; i < funcs.length; i++) {
    const func = funcs[(start + i) % funcs.length]!;
    const around = loopsAround(t, func);
    const first = rng.below(around.length);
    for (let j = 0; j < around.length; j++) out.push({ name: 'store-at', args: { func, loop: around[(first + j) % around.length]!.stmt.var } });
  }
  return out;
}

/**
 * Halide stores a func where it is computed unless told otherwise. A func computed inside a
 * parallel loop but allocated outside it would race ([COMPUTE-AT-PARALLEL]); these calls store
 * each such func at its compute level, as Halide's default would. Funcs in `keep` are left as they
 * are: a placement under test is judged as it makes them, not after a repair that hides its race.
 */
export function storeWhereComputed(t: TgtProgram, keep: ReadonlySet<string> = new Set()): AppliedCall[] {
  return funcsOf(t).filter((func) => !keep.has(func)).flatMap((func) => {
    const around = loopsAround(t, func);
    const alloc = allocOf(t, func)?.path;
    const par = around.find((l) => l.stmt.trav === 'parallel');
    if (!par || !alloc || isInside(alloc, par.path)) return [];
    return [{ name: 'store-at', args: { func, loop: around[0]!.stmt.var } }];
  });
}

/**
 * Parallel traversals of the loops around `loop` (itself included), outermost first: the shape in
 * which a placement at `loop` is computed once per parallel iteration, so that the placement has
 * to keep those iterations apart ([COMPUTE-AT-PARALLEL]). Schedules in phase order make a loop
 * parallel before anything is placed in it, but a random one rarely picks the loop a placement
 * then goes into.
 */
export function parallelAround(t: TgtProgram, loop: string): AppliedCall[] {
  const target = loopsOf(t).find((l) => l.stmt.var === loop);
  if (!target) return [];
  return loopsOf(t)
    .filter((l) => l.stmt.trav !== 'parallel' && isInside(target.path, l.path))
    .map((l) => ({ name: 'traverse', args: { loop: l.stmt.var, order: 'parallel' } }));
}
