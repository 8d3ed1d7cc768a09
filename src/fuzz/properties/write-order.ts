// A stronger confluence check: besides final values, the sequence of values every point receives.
// Thm. 2.2 speaks of final values, but a directive that reorders reduction steps changes the
// sequence an update writes even on inputs where the final value happens to come out the same
// (a max over r and s, a sum whose order does not matter for these numbers). The lowered program
// T0 writes each point in the algorithm's order (fig. 2.9). A valid schedule may write a point
// more often — recomputation in a tile loop or a shifted tail, a region fixed by `bound` that runs
// stages T0 skipped there — but never in another order: T0's sequence at a point must occur, in
// order, within the sequence Tn writes there. Decision: the test is a subsequence test, which
// tolerates every repetition above at the price of missing a reordering whose intermediate values
// happen to occur again in order; and it covers the output func's points in the window only.
// Intermediate funcs also receive writes at points nobody reads (an update whose coordinate is no
// pure variable writes from every tile, without the pure stage there), whose sequences mean
// nothing; a reordering inside them shows in the output's values (confluence) or, when those
// coincide, is missed. Points whose final values differ, or are error values, are left to
// `confluence`.
import type { Value } from '../../expr/value.js';
import { isError } from '../../expr/value.js';
import { forEachPoint } from '../../expr/window.js';
import { pointKey } from '../../alg-semantics/store.js';
import { BUILTIN_ENGINES } from '../../bounds/engine.js';
import { complete } from '../../pipeline.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import type { Outcome } from '../../target-semantics/outcome.js';
import type { FuzzEnv } from '../env.js';
import { PASS, type CheckResult, type Property } from '../property.js';
import { stepBudget } from './alg-case.js';
import { type SchedCase, type SchedGen, arbSchedGen, decodeSched, encodeSched, finalProgram, firstFailingDirective, observeSched, schedCase, schedSeeded, schedShape } from './sched-case.js';

/** Per func and point, the values written there, in order. */
type Writes = Map<string, Value[]>;

function writesOf(c: SchedCase, t: TgtProgram, env: FuzzEnv): { writes: Writes; outcome: Outcome } {
  const writes: Writes = new Map();
  const outcome = env.exec(complete(t, BUILTIN_ENGINES.beta0!), c.input, {
    maxSteps: stepBudget(c, env),
    onStore: (func, point, v) => {
      const k = `${func}@${pointKey(point)}`;
      const seq = writes.get(k);
      if (seq) seq.push(v);
      else writes.set(k, [v]);
    },
  });
  return { writes, outcome };
}

/** Does `unit` occur in `seq` in order (not necessarily contiguously)? */
function occursIn(unit: readonly Value[], seq: readonly Value[]): boolean {
  let i = 0;
  for (const v of seq) if (i < unit.length && v === unit[i]) i++;
  return i === unit.length;
}

const show = (vs: readonly Value[]) => `[${vs.map((v) => (isError(v) ? (v.err === 'rdom' ? 'ε_rdom' : 'ε_mem') : String(v))).join(', ')}]`;

/**
 * Does the output func have a reduction (an update over an rdom)? Its points are then written
 * exactly as often by every valid schedule: no directive may recompute a func with update stages
 * (Shift and Round tails need a func without them, §2.8.2), and the output is computed once.
 */
const outputReduces = (c: SchedCase): boolean => c.pipeline.funcs.some((f) => f.name === c.pipeline.output && f.stages.some((st) => !st.pure && st.rdom.length > 0));

interface Breach {
  readonly point: string;
  readonly expected: Value[];
  readonly actual: Value[];
  /** the number of writes differs: found without looking at values */
  readonly count: boolean;
}

/** The first point whose writes in `t` break T0's, or undefined. */
function orderBreach(c: SchedCase, t: TgtProgram, env: FuzzEnv, base: Writes): Breach | undefined {
  const { writes, outcome } = writesOf(c, t, env);
  if (outcome.kind !== 'done') return undefined;
  const inWindow = new Set<string>();
  forEachPoint(c.input.window, (p) => inWindow.add(`${c.pipeline.output}@${pointKey(p)}`));
  // Decision: a reduction's writes are compared by number first, whatever their values: an added
  // or dropped update step shows even where it writes the value the point already holds.
  if (outputReduces(c)) {
    for (const k of inWindow) {
      const [unit, seq] = [base.get(k) ?? [], writes.get(k) ?? []];
      if (unit.length !== seq.length) return { point: k, expected: unit, actual: seq, count: true };
    }
  }
  for (const [k, seq] of writes) {
    if (!inWindow.has(k)) continue;
    const unit = base.get(k);
    if (!unit) continue;
    const [a, b] = [unit[unit.length - 1]!, seq[seq.length - 1]!];
    if (a !== b || isError(a) || isError(b)) continue;
    if (!occursIn(unit, seq)) return { point: k, expected: unit, actual: seq, count: false };
  }
  return undefined;
}

export const writeOrder: Property<SchedGen, SchedCase> = {
  name: 'write-order',
  summary: 'thm. 2.2, strengthened: each output point of the window receives the values the lowered program writes there in the same order, and as many writes when the output is a reduction, so reordered, added or dropped reduction steps show even where final values coincide',
  arbitrary: (env) => arbSchedGen(env),
  concretize: schedCase,
  check(c, env): CheckResult {
    if (c.trouble) return { status: 'discard', why: 'directive error' };
    const base = writesOf(c, c.steps[0]!, env);
    if (base.outcome.kind !== 'done') return { status: 'pass', vacuous: base.outcome.kind === 'stuck' && base.outcome.stuck.kind === 'assert-failed' ? 'vacuous_assertion' : 'vacuous_alg_error' };
    const breach = orderBreach(c, finalProgram(c), env, base.writes);
    if (!breach) return PASS;
    if (breach.count) {
      return { status: 'fail', verdict: 'write-count', expected: `${breach.point}, a point of a reduction, receives ${breach.expected.length} writes (as in the lowered program): ${show(breach.expected)}`, actual: `it receives ${breach.actual.length}: ${show(breach.actual)}` };
    }
    return { status: 'fail', verdict: 'write-order', expected: `${breach.point} receives ${show(breach.expected)} in this order (as in the lowered program), possibly among other writes`, actual: `it receives ${show(breach.actual)}` };
  },
  culprit(c, env) {
    if (c.trouble) return c.trouble.directive;
    const base = writesOf(c, c.steps[0]!, env);
    return base.outcome.kind === 'done' ? firstFailingDirective(c, (t) => orderBreach(c, t, env, base.writes) !== undefined) : undefined;
  },
  encode: encodeSched,
  decode: decodeSched,
  shape: schedShape,
  observe: observeSched,
  seeded: schedSeeded(),
  directivesOf: (c) => c.names,
};
