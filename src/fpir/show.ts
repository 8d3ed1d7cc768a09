// Printing a selection (spec/fpir.md, [FPIR-LOWER]): one line per selected node, operands first,
// each naming the rule that produced it (or `portable`), so that `refsem fpir` shows which rules
// turned which FPIR into which instructions.
import { printFpir } from './print.js';
import { type RhsTerm, immValue } from './rhs.js';
import type { Selected } from './select.js';
import { typeName } from './types.js';

function termText(t: RhsTerm, operand: (name: string) => string): string {
  if (t.k === 'part') return `${operand(t.var)}.${t.index}`;
  const args = t.args.map((a) => termText(a, operand));
  return `${t.entry.name}(${[...args, ...(t.imm !== undefined ? [String(t.imm)] : [])].join(', ')})`;
}

export function showSelection(s: Selected): string[] {
  const lines: string[] = [];
  const names = new Map<Selected, string>();
  const go = (x: Selected): string => {
    const known = names.get(x);
    if (known) return known;
    if (x.k === 'input') return x.expr.name;
    let name: string;
    if (x.k === 'rule') {
      const ops = new Map([...x.operands].map(([k, v]) => [k, go(v)]));
      name = `t${names.size}`;
      const consts = (t: RhsTerm): RhsTerm => (t.k === 'call' && typeof t.imm === 'string' ? { ...t, imm: immValue(t.imm, x.consts)!, args: t.args.map(consts) } : t.k === 'call' ? { ...t, args: t.args.map(consts) } : t);
      const body = x.terms.map((t) => termText(consts(t), (v) => ops.get(v)!));
      lines.push(`${name}: ${typeName(x.expr.type)} = ${body.length === 1 ? body[0] : `[${body.join(', ')}]`}    # ${x.rule}`);
    } else {
      const args = x.args.map(go);
      name = `t${names.size}`;
      lines.push(`${name}: ${typeName(x.expr.type)} = ${printFpir(x.expr)}${args.length ? ` with ${args.join(', ')}` : ''}    # portable, lane by lane`);
    }
    names.set(x, name);
    return name;
  };
  go(s);
  return lines;
}
