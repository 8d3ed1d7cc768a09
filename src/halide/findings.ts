// Known Halide 14 bugs (docs/halide-findings.md) recognised in a comparison's outcome
// (spec/halide.md, [HALIDE-KNOWN-BUG]). A crash or a set of values that a documented bug explains
// says nothing new about refsem or the schedule: it is named and counted apart, neither a pass nor
// an unexplained failure. Each bug is recognised by the algorithm's shape together with what Halide
// did, never by the shape alone, so a case of that shape that Halide runs is still compared.
import { walkExpr } from '../expr/ast.js';
import type { Pipeline } from '../alg-semantics/ast.js';
import { resolveLoop } from '../schedule/loops.js';
import { constantExtent } from '../schedule/order.js';
import type { ScheduleStep } from './emit.js';

/** A documented Halide 14 bug: its number in docs/halide-findings.md and what it is. */
export interface KnownBug {
  readonly finding: number;
  readonly title: string;
}

/** Finding 1: Halide's outcome changes with where a func is stored, which must not change it. */
export const STORAGE_CHANGES_OUTCOME: KnownBug = { finding: 1, title: "Halide 14's outcome changes with where a func is stored: it differs or crashes under the schedule's storage and has the algorithm's values with each func stored where it is computed" };

/** Finding 2: unrolling a reduction loop that runs no iteration dies of an internal error. */
export const UNROLLED_EMPTY_REDUCTION: KnownBug = { finding: 2, title: 'an unrolled reduction loop of constant extent 0 or less: Halide 14 stops with an internal error' };

/** Finding 5: an update whose RDom predicate reads the func it updates dies of an internal error. */
export const PREDICATE_READS_UPDATED_FUNC: KnownBug = { finding: 5, title: "an update's RDom predicate reads the func it updates: Halide 14 stops with an internal error" };

/** Finding 9: an update whose RDom predicate reads another func dies of an internal error naming that func. */
export const PREDICATE_READS_OTHER_FUNC: KnownBug = { finding: 9, title: "an update's RDom predicate reads another func: Halide 14 stops with an internal error naming it" };

/** Finding 6: Halide warns that the pipeline must fail an assertion, then returns values it never computed. */
export const ASSERTION_WARNED_NOT_RAISED: KnownBug = { finding: 6, title: 'Halide 14 warned that the pipeline is guaranteed to fail an assertion at runtime, then returned values without raising it' };

/** Halide's compile-time warning of finding 6 (Halide 14's text). */
export const GUARANTEED_FAILURE = 'guaranteed to fail an assertion at runtime';

/** The funcs read in the predicates of updates over an rdom, each with the func it updates. */
function predicateReads(p: Pipeline): { readonly updated: string; readonly read: string }[] {
  const reads: { updated: string; read: string }[] = [];
  for (const f of p.funcs) for (const st of f.stages) {
    if (st.rdom.length === 0) continue;
    walkExpr(st.pred, (e) => {
      if (e.k === 'access') reads.push({ updated: f.name, read: e.func });
    });
  }
  return reads;
}

/** Does the schedule unroll a loop of an update stage whose extent is a constant of 0 or less? */
function unrollsEmptyReduction(steps: readonly ScheduleStep[]): boolean {
  return steps.some((s) => {
    if (s.call.directive.name !== 'unroll') return false;
    const loop = resolveLoop(s.before, (s.call.args as { loop: string }).loop);
    const extent = constantExtent(s.before, loop.stmt);
    return (loop.name?.stage ?? 0) > 0 && extent !== undefined && BigInt(extent) <= 0n;
  });
}

/** Halide's message names the func `g` as a symbol it lost: `g`, `g$0` or `g$0.min.0`. */
const namesLostFunc = (message: string, g: string): boolean => {
  const lost = /(?:Name not in Scope|Symbol not found): (\S+)/.exec(message)?.[1];
  return lost !== undefined && lost.split(/[$.]/)[0] === g;
};

/**
 * The documented bug a crash of Halide is, if any: implements [HALIDE-KNOWN-BUG]. Each is an
 * internal error (Halide's own assertion failing, never its answer to a program it refuses) of an
 * algorithm and schedule with the finding's shape; a signal, a timeout or an error of another kind
 * stays a crash. Finding 5 is recognised by whichever of its three messages; finding 9 only when
 * the message names a func the predicate reads; finding 2 only by its own message.
 */
export function knownCrash(p: Pipeline, message: string, steps: readonly ScheduleStep[] = []): KnownBug | undefined {
  if (!/Internal Error/.test(message)) return undefined;
  const reads = predicateReads(p);
  if (reads.some((r) => r.read === r.updated)) return PREDICATE_READS_UPDATED_FUNC;
  if (reads.some((r) => r.read !== r.updated && namesLostFunc(message, r.read))) return PREDICATE_READS_OTHER_FUNC;
  if (/Block of undefined/.test(message) && unrollsEmptyReduction(steps)) return UNROLLED_EMPTY_REDUCTION;
  return undefined;
}

/**
 * The documented bug a run that returned values is, if any: finding 6 when Halide warned that the
 * pipeline is guaranteed to fail an assertion. Its values are then no evidence, whether or not
 * they happen to agree: the storage they come from was never written.
 */
export function knownValuesBug(stderr: string): KnownBug | undefined {
  return stderr.includes(GUARANTEED_FAILURE) ? ASSERTION_WARNED_NOT_RAISED : undefined;
}
