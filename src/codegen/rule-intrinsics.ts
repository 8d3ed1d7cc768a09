// The x86 arithmetic of the vector helpers comes from verified lowering rules (spec/codegen.md,
// [C-SELECT]). A rule that works register by register — term k of its right side reads only
// register k of each wildcard — computes, in its first term, one whole register of the result
// from one register of each operand: that term, with the wildcards' registers renamed to the
// helper's parameters, is the helper's body. The rule itself is verified on whole logical vectors
// (spec/fpir.md, [FPIR-VERIFY]) and every entry it calls is run on this CPU ([FPIR-TABLE-CPU]).
import { cCall } from '../fpir/emit-c.js';
import { LOWERING_RULES } from '../fpir/lower-rules.js';
import { type RhsTerm, evalRhs } from '../fpir/rhs.js';
import { rhsOf } from '../fpir/verify-rules.js';

/** The registers a term reads. */
function registersRead(t: RhsTerm): number[] {
  return t.k === 'part' ? [t.index] : t.args.flatMap(registersRead);
}

// implements [C-SELECT]
/**
 * The C call computing one register by the rule named `rule`, its wildcards (`x`, `y`) given as C
 * expressions of the register type. Throws on a rule that is not register by register or has
 * constant wildcards: such a rule cannot be cut into one-register helpers.
 */
export function registerCall(rule: string, operands: Readonly<Record<string, string>>): string {
  const r = LOWERING_RULES.find((x) => x.name === rule);
  if (!r) throw new Error(`no lowering rule ${rule}`);
  const terms = rhsOf(r);
  terms.forEach((t, k) => {
    if (registersRead(t).some((i) => i !== k)) throw new Error(`${rule} mixes registers: term ${k} reads other registers`);
  });
  return evalRhs(
    terms[0]!,
    (v) => {
      const c = operands[v];
      if (c === undefined) throw new Error(`${rule}: no operand for wildcard ${v}`);
      return c;
    },
    (e, args, imm) => cCall(e, args, imm),
    new Map(),
  );
}
