// Instruction selection (Pitchfork §3.3; spec/fpir.md, [FPIR-LOWER]): top-down, the first
// lowering rule of the target whose left side matches and whose precondition the bounds prove
// replaces the node by its intrinsic tree; the wildcards' expressions are selected in turn. A node
// no rule covers stays portable: it is computed lane by lane in plain C (the compiler may still
// vectorize it), from its selected operands.
import type { FExpr } from './ast.js';
import { provedFor } from './bounds.js';
import type { Target } from './intrinsics.js';
import { parseLeft } from './lift.js';
import { LOWERING_RULES, type LoweringRule } from './lower-rules.js';
import { type Binding, isConstWildcard, match } from './match.js';
import { type RhsTerm, callsOf } from './rhs.js';
import { rhsOf } from './verify-rules.js';

export type Selected =
  | { readonly k: 'input'; readonly expr: Extract<FExpr, { k: 'var' }> }
  | {
      readonly k: 'rule';
      readonly rule: string;
      readonly expr: FExpr;
      readonly terms: readonly RhsTerm[];
      /** each wildcard's selected code */
      readonly operands: ReadonlyMap<string, Selected>;
      readonly consts: ReadonlyMap<string, bigint>;
    }
  | { readonly k: 'portable'; readonly expr: FExpr; readonly args: readonly Selected[] };

// implements [FPIR-LOWER]
export function selectInstructions(e: FExpr, target: Target, rules: readonly LoweringRule[] = LOWERING_RULES): Selected {
  if (e.k === 'var') return { k: 'input', expr: e };
  for (const r of rules) {
    if (r.target !== target) continue;
    const p = parseLeft(r);
    const b: Binding = new Map();
    if (!match(p.lhs, e, b) || !provedFor(p.pre, b)) continue;
    const consts = new Map<string, bigint>();
    const operands = new Map<string, Selected>();
    for (const [name, x] of b) {
      if (isConstWildcard(`${name}_`)) consts.set(name, (x as Extract<FExpr, { k: 'const' }>).value);
      else operands.set(name, selectInstructions(x, target, rules));
    }
    return { k: 'rule', rule: r.name, expr: e, terms: rhsOf(r), operands, consts };
  }
  const args = e.k === 'const' ? [] : e.k === 'cast' ? [e.arg] : e.args;
  return { k: 'portable', expr: e, args: args.map((a) => selectInstructions(a, target, rules)) };
}

/** The rules applied and the intrinsics called, outermost rule first. */
export function summarize(s: Selected): { rules: string[]; intrinsics: string[]; portable: number } {
  const rules: string[] = [];
  const intrinsics: string[] = [];
  let portable = 0;
  const go = (x: Selected): void => {
    if (x.k === 'rule') {
      rules.push(x.rule);
      intrinsics.push(...x.terms.flatMap(callsOf).map((c) => c.name));
      x.operands.forEach(go);
    } else if (x.k === 'portable') {
      portable++;
      x.args.forEach(go);
    }
  };
  go(s);
  return { rules, intrinsics, portable };
}
