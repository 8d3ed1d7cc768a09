// Filling holes by hand (lemma 2.12 tests, spec examples, `refsem lower --fill`): a completion Γ
// (def. 2.15) written as a map from hole text to expression text, e.g.
//   { "?cpu.min(g.x)": "x.min", "?cpu.len(g.x)": "x.len + 1" }
// parsed with the shared expression parser and applied with fillHoles.
import { UserError } from '../diag.js';
import { type Expr, holeKey, walkExpr } from '../expr/ast.js';
import { parseExprText } from '../expr/parse.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { type Completion, fillHoles, holesOf } from '../target-semantics/holes.js';

export type HandBounds = Readonly<Record<string, string | Expr>>;

/** Parses a hand-written completion; every key must be a hole of `t` and every value hole-free. */
export function parseCompletion(t: TgtProgram, bounds: HandBounds, file = '<bounds>'): Completion {
  const known = new Set(holesOf(t).map(holeKey));
  const gamma = new Map<string, Expr>();
  for (const [k, v] of Object.entries(bounds)) {
    const h = parseExprText(k, 'tgt', file);
    if (h.k !== 'hole') throw new UserError(`'${k}' is not a hole`, h.loc, 'keys are holes such as ?cpu.min(f.x) or ?mem.len(f.x@s0)');
    const key = holeKey(h.hole);
    if (!known.has(key)) {
      throw new UserError(`hole ${key} does not occur in the program`, h.loc, `its holes are: ${[...known].join(' ') || 'none'}`);
    }
    if (gamma.has(key)) throw new UserError(`hole ${key} is given twice`, h.loc);
    const e = typeof v === 'string' ? parseExprText(v, 'tgt', file) : v;
    walkExpr(e, (x) => {
      if (x.k === 'hole') throw new UserError(`the expression for ${key} contains the hole ${holeKey(x.hole)}`, x.loc, 'fill holes with hole-free expressions');
    });
    gamma.set(key, e);
  }
  return gamma;
}

/** [Γ]T for a hand-written Γ: every hole of `t` must be given. */
export function fillByHand(t: TgtProgram, bounds: HandBounds, file?: string): TgtProgram {
  return fillHoles(t, parseCompletion(t, bounds, file));
}
