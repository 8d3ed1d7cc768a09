// Splits of reduction loops with ragged extents. A directive's own `generate` picks any loop and
// any factor, so the shape where a mistake in a later loop directive shows — a split of the outer
// of two reduction loops whose extent is no multiple of the factor, leaving a guard between the
// split's inner loop and the next reduction loop, which fuse, swap and reorder then act across
// (§2.8.2, φ_Guard) — comes out only once in hundreds of checks. These proposals make it common;
// each is still validated by split before it is applied.
import { cst } from '../../expr/ast.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { loopsOf } from '../../target-semantics/walk.js';
import { constValue, inventName, isPure, nestedLoop } from '../../schedule/loops.js';
import { seededRng } from '../../rng.js';
import type { AppliedCall } from './driver.js';

/**
 * split proposals, best first: a reduction loop with another reduction loop of its stage inside
 * it, by a factor from 2 to 4 that does not divide its extent (any factor when the extent is not a
 * constant), with a guarded tail.
 */
export function proposeRaggedSplit(t: TgtProgram, seed: number): AppliedCall[] {
  const rng = seededRng(seed);
  const outer = loopsOf(t).filter((l) => {
    if (!l.name || isPure(t, l.stmt.var)) return false;
    const inner = nestedLoop(l.stmt)?.inner;
    return inner !== undefined && !isPure(t, inner.var);
  });
  const out: AppliedCall[] = [];
  const first = rng.below(Math.max(1, outer.length));
  for (let i = 0; i < outer.length; i++) {
    const l = outer[(first + i) % outer.length]!;
    const len = constValue(l.stmt.len);
    const factors = [2, 3, 4].filter((f) => len === undefined || typeof len !== 'number' || (len > f && len % f !== 0));
    const names = [inventName(t, l.name!, `${l.name!.v}o`), inventName(t, l.name!, `${l.name!.v}i`)];
    for (const f of factors) out.push({ name: 'split', args: { loop: l.stmt.var, names, factor: cst(f), tail: 'guard' } });
  }
  return out;
}
