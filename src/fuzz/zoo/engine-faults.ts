// Planted faults of bounds engines written the way a plug-in is (docs/api.md, "Bounds"): an object
// `{ name, complete(t, q) }` checked by `defineBoundsEngine`, which answers the query with β0 after
// changing one interval rule. They are engines of their own name, so a failure they cause must be
// blamed on the engine (docs/fuzzing.md, "De-duplication"), never on a directive of the schedule.
import { type Expr, op } from '../../expr/ast.js';
import { BUILTIN_ENGINES, type BoundsEngine, defineBoundsEngine } from '../../bounds/engine.js';
import type { Query } from '../../bounds/query.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { mapQuery } from './components.js';

/** Rewrites operator nodes bottom-up (inside indices too). */
function mapOps(e: Expr, f: (e: Expr & { k: 'op' }) => Expr): Expr {
  if (e.k === 'access') return { ...e, args: e.args.map((a) => mapOps(a, f)) };
  if (e.k !== 'op') return e;
  return f({ ...e, args: e.args.map((a) => mapOps(a, f)) });
}

/** An engine that answers with β0 on the query whose range expressions `rule` rewrote. */
function rewritingBeta0(name: string, rule: (e: Expr & { k: 'op' }) => Expr): BoundsEngine {
  return defineBoundsEngine({
    name,
    complete: (t: TgtProgram, q: Query) => BUILTIN_ENGINES.beta0!.complete(t, { ...q, body: mapQuery(q.body, (e) => mapOps(e, rule), false) }),
  });
}

/**
 * The interval of select(c, a, b) taken as a's alone: right whenever both branches cover the same
 * range, wrong for the boundary conditions that reflect or clamp an index in one branch only.
 */
export const selectThenOnly = rewritingBeta0('select-then-only', (e) => (e.op === 'select' ? e.args[1]! : e));

/**
 * min(a, b) bounded from below by the larger of the lower ends — the lower end of the
 * intersection of a's and b's intervals rather than of their minimum — and so, for the upper end
 * too, bounded as max(a, b). Sound wherever one operand's range lies below the other's.
 */
export const minAsIntersection = rewritingBeta0('min-as-intersection', (e) => (e.op === 'min' ? op('max', e.args[0]!, e.args[1]!) : e));
