// Prints FPIR in the syntax parse.ts reads (spec/fpir.md, [FPIR-SYNTAX]): printing and parsing
// again gives the same expression. A constant is printed bare where the parser would give it the
// same type from its neighbour, else as a cast (`u16(3)`).
import type { FExpr } from './ast.js';
import { type ScalarType, typeEq, typeName, withSign } from './types.js';

const lit = (c: Extract<FExpr, { k: 'const' }>, inferred: ScalarType | undefined): string =>
  inferred && typeEq(inferred, c.type) ? String(c.value) : `${typeName(c.type)}(${c.value})`;

/** The type a bare literal would take as an operand next to `x` (parse.ts, amountType). */
const amountLike = (x: FExpr, c: Extract<FExpr, { k: 'const' }>): ScalarType => withSign(x.type, c.value < 0n ? true : x.type.signed);

function operand(e: FExpr, inferred: ScalarType | undefined): string {
  if (e.k === 'const') return lit(e, inferred);
  const s = printFpir(e);
  return e.k === 'prim' && e.op !== 'min' && e.op !== 'max' ? `(${s})` : s;
}

export function printFpir(e: FExpr): string {
  switch (e.k) {
    case 'var':
      return e.name;
    case 'const':
      return lit(e, undefined);
    case 'cast':
      return `${typeName(e.type)}(${printFpir(e.arg)})`;
    case 'prim': {
      const [a, b] = e.args;
      const shift = e.op === '<<' || e.op === '>>';
      // A bare literal takes its type from a typed neighbour; two literals need the first spelled out.
      const ta = a.k === 'const' && !shift && b.k !== 'const' ? b.type : undefined;
      const tb = shift ? (b.k === 'const' ? amountLike(a, b) : undefined) : a.type;
      const plain = (x: FExpr, t: ScalarType | undefined) => (x.k === 'const' ? lit(x, t) : printFpir(x));
      if (e.op === 'min' || e.op === 'max') return `${e.op}(${plain(a, ta)}, ${plain(b, tb)})`;
      return `${operand(a, ta)} ${e.op} ${operand(b, tb)}`;
    }
    case 'select':
      return `select(${e.args.map((x) => (x.k === 'const' ? lit(x, e.type) : printFpir(x))).join(', ')})`;
    case 'fp': {
      const first = e.args.find((x) => x.k !== 'const');
      const args = e.args.map((x, i) => {
        if (x.k !== 'const') return printFpir(x);
        if (!first) return lit(x, undefined);
        const inferred = e.op.startsWith('extending_') && i === 1 ? { signed: first.type.signed, bits: first.type.bits / 2 } as ScalarType : amountLike(first, x);
        return lit(x, inferred);
      });
      return `${e.op}${e.op === 'saturating_cast' ? `<${typeName(e.type)}>` : ''}(${args.join(', ')})`;
    }
  }
}
