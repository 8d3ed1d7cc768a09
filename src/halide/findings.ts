// Known Halide 14 bugs (docs/halide-findings.md) recognised in a comparison's outcome
// (spec/halide.md, [HALIDE-KNOWN-BUG]). A crash or a set of values that a documented bug explains
// says nothing new about refsem or the schedule: it is named and counted apart, neither a pass nor
// an unexplained failure. Each bug is recognised by the algorithm's shape together with what Halide
// did, never by the shape alone, so a case of that shape that Halide runs is still compared.
import { walkExpr } from '../expr/ast.js';
import type { Pipeline } from '../alg-semantics/ast.js';

/** A documented Halide 14 bug: its number in docs/halide-findings.md and what it is. */
export interface KnownBug {
  readonly finding: number;
  readonly title: string;
}

/** Finding 5: an update whose RDom predicate reads the func it updates dies of an internal error. */
export const PREDICATE_READS_UPDATED_FUNC: KnownBug = { finding: 5, title: "an update's RDom predicate reads the func it updates: Halide 14 stops with an internal error" };

/** Finding 6: Halide warns that the pipeline must fail an assertion, then returns values it never computed. */
export const ASSERTION_WARNED_NOT_RAISED: KnownBug = { finding: 6, title: 'Halide 14 warned that the pipeline is guaranteed to fail an assertion at runtime, then returned values without raising it' };

/** Halide's compile-time warning of finding 6 (Halide 14's text). */
export const GUARANTEED_FAILURE = 'guaranteed to fail an assertion at runtime';

/** Does some update over an rdom read, in its predicate, the func it updates? */
function predicateReadsUpdatedFunc(p: Pipeline): boolean {
  let found = false;
  for (const f of p.funcs) for (const st of f.stages) {
    if (st.rdom.length === 0) continue;
    walkExpr(st.pred, (e) => {
      if (e.k === 'access' && e.func === f.name) found = true;
    });
  }
  return found;
}

/**
 * The documented bug a crash of Halide is, if any: implements [HALIDE-KNOWN-BUG]. Finding 5 is an
 * internal error (Halide's own assertion, whichever of its three messages) of an algorithm with the
 * shape; a signal, a timeout or an error of another kind stays a crash.
 */
export function knownCrash(p: Pipeline, message: string): KnownBug | undefined {
  return /Internal Error/.test(message) && predicateReadsUpdatedFunc(p) ? PREDICATE_READS_UPDATED_FUNC : undefined;
}

/**
 * The documented bug a run that returned values is, if any: finding 6 when Halide warned that the
 * pipeline is guaranteed to fail an assertion. Its values are then no evidence, whether or not
 * they happen to agree: the storage they come from was never written.
 */
export function knownValuesBug(stderr: string): KnownBug | undefined {
  return stderr.includes(GUARANTEED_FAILURE) ? ASSERTION_WARNED_NOT_RAISED : undefined;
}
