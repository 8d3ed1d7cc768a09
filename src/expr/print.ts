// Printing expressions in the concrete syntax read by parse.ts; parse(print(e)) = e up to
// locations (property-tested). Parentheses are inserted from operator precedence only.
import { type Expr, type OpName, holeKey, refKey } from './ast.js';
import type { ExprMode } from './parse.js';
import { isError } from './value.js';

const INFIX: Partial<Record<OpName, [string, number]>> = {
  or: ['||', 1], and: ['&&', 2], '=': ['==', 3], '<': ['<', 4], '>': ['>', 4],
  '+': ['+', 5], '-': ['-', 5], '*': ['*', 6], div: ['/', 6], mod: ['%', 6],
};
const UNARY = 7;

export function printExpr(e: Expr, mode: ExprMode, prec = 0): string {
  switch (e.k) {
    case 'const': {
      if (isError(e.value)) return e.value.err === 'rdom' ? 'err.rdom' : 'err.mem';
      const s = e.value.toString();
      // A negative literal is parsed at unary level; guard it where a tighter context binds.
      return s.startsWith('-') && prec > UNARY ? `(${s})` : s;
    }
    case 'var':
      return e.name;
    case 'hole':
      return holeKey(e.hole);
    case 'access': {
      const args = e.args.map((a) => printExpr(a, mode)).join(', ');
      return mode === 'alg' ? `${e.func}(${args})` : `${e.func}${refKey(e.ref)}[${args}]`;
    }
    case 'op': {
      const inf = INFIX[e.op];
      if (inf) {
        const [sym, p] = inf;
        const s = `${printExpr(e.args[0]!, mode, p)} ${sym} ${printExpr(e.args[1]!, mode, p + 1)}`;
        return p < prec ? `(${s})` : s;
      }
      if (e.op === 'not') {
        const s = `!${printExpr(e.args[0]!, mode, UNARY + 1)}`;
        return UNARY < prec ? `(${s})` : s;
      }
      return `${e.op}(${e.args.map((a) => printExpr(a, mode)).join(', ')})`;
    }
  }
}
