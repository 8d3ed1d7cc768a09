// The last step of shrinking a failing case: its algorithm simplified. fast-check's shrinker and
// `refsem reduce` replace subterms by smaller ones, which leaves constant subexpressions such as
// `f0(0 + 0, y)` or `0 + x * 3` behind; a reader should see `f0(0, y)` and `x * 3`. Every
// expression of the algorithm (right-hand sides with their call indices, update coordinates and
// conditions, rdom bounds) goes through the simplifier in the domain `values`, whose rules hold
// for error values too (spec/simplify.md [SIMP-DOMAIN]), so the folded algorithm means what the
// shrunk one meant. Whoever shrinks still keeps the folded case only when it fails the same way.
import type { Expr } from '../expr/ast.js';
import type { Pipeline } from '../alg-semantics/ast.js';
import { parsePipeline } from '../alg-semantics/parse.js';
import { printPipeline } from '../alg-semantics/print.js';
import { BUILTIN_RULE_SET } from '../simplify/builtin-rules.js';
import { simplifyWith } from '../simplify/simplify.js';
import type { CaseText } from './property.js';

const simplified = (e: Expr): Expr => simplifyWith(e, BUILTIN_RULE_SET, { domain: 'values' });

/** The pipeline with every expression simplified. */
export function foldPipeline(p: Pipeline): Pipeline {
  return {
    ...p,
    funcs: p.funcs.map((f) => ({
      ...f,
      stages: f.stages.map((s) => ({
        ...s,
        rdom: s.rdom.map((r) => ({ ...r, min: simplified(r.min), len: simplified(r.len) })),
        lhs: s.lhs.map(simplified),
        rhs: simplified(s.rhs),
        pred: simplified(s.pred),
      })),
    })),
  };
}

/** The case with its algorithm folded, or undefined when it has none or folding changes nothing. */
export function foldedText(t: CaseText): CaseText | undefined {
  if (t.program === undefined) return undefined;
  let program: string;
  try {
    program = printPipeline(foldPipeline(parsePipeline(t.program, '<fold>')));
  } catch {
    // A program that does not parse (a blueprint that could not be made concrete) stays as it is.
    return undefined;
  }
  return program === t.program ? undefined : { ...t, program };
}
