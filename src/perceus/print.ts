// Printing λ1 programs. Erased programs print in the concrete syntax parse.ts reads; the
// instructions of fig. 4.4 and §4.2 print as in fig. 4.1: `dup x;`, `drop x;`,
// `val ru = drop-reuse x;`, `C@ru(…)` (a field kept in place by reuse specialization is
// marked `=x`), and a specialized drop as `if is-unique(x) then { … } else { … };`.
import type { Expr, Program, RcOp } from './syntax.js';

const INFIX: Readonly<Record<string, string>> = {
  or: '||', and: '&&', '=': '==', '<': '<', '>': '>', '+': '+', '-': '-', '*': '*', div: '/', mod: '%',
};

const isSeq = (e: Expr) => e.k === 'val' || e.k === 'dup' || e.k === 'drop' || e.k === 'dropreuse' || e.k === 'dropspec';

function operand(e: Expr): string {
  return e.k === 'var' || e.k === 'lit' || (e.k === 'con' && e.args.length === 0) || e.k === 'call' ? printExpr(e) : `(${printExpr(e)})`;
}

const ops = (os: readonly RcOp[]) => os.map((o) => `${o.op} ${o.name}; `).join('');

/** Prints an expression; `ind` is the indentation of the line it starts on. */
export function printExpr(e: Expr, ind = ''): string {
  const nl = '\n' + ind;
  switch (e.k) {
    case 'var':
      return e.name;
    case 'lit':
      return e.value.toString();
    case 'lam':
      return `\\${e.param} -> ${isSeq(e.body) ? `{${nl}  ${printExpr(e.body, ind + '  ')}${nl}}` : printExpr(e.body, ind)}`;
    case 'app':
      return `${e.fn.k === 'var' ? e.fn.name : `(${printExpr(e.fn, ind)})`}(${printExpr(e.arg, ind)})`;
    case 'call':
      return `${e.fn}(${e.args.map((a) => printExpr(a, ind)).join(', ')})`;
    case 'con': {
      const at = e.reuse === undefined ? '' : `@${e.reuse}`;
      if (e.args.length === 0) return e.con + at;
      return `${e.con}${at}(${e.args.map((a, i) => (e.keep?.[i] ? '=' : '') + printExpr(a, ind)).join(', ')})`;
    }
    case 'prim':
      if (e.op === 'not') return `!${operand(e.args[0]!)}`;
      if (INFIX[e.op]) return `${operand(e.args[0]!)} ${INFIX[e.op]} ${operand(e.args[1]!)}`;
      return `${e.op}(${e.args.map((a) => printExpr(a, ind)).join(', ')})`;
    case 'val': {
      const b = isSeq(e.bound) ? `{${nl}  ${printExpr(e.bound, ind + '  ')}${nl}}` : printExpr(e.bound, ind);
      return `val ${e.name} = ${b};${nl}${printExpr(e.body, ind)}`;
    }
    case 'dup':
    case 'drop': {
      // Consecutive instructions share a line, as in fig. 4.1.
      const rest = e.body.k === 'dup' || e.body.k === 'drop' || e.body.k === 'var' || e.body.k === 'lit' ? ' ' : nl;
      return `${e.k} ${e.name};${rest}${printExpr(e.body, ind)}`;
    }
    case 'dropreuse':
      return `val ${e.token} = drop-reuse ${e.name};${nl}${printExpr(e.body, ind)}`;
    case 'dropspec': {
      const uniq = `${ops(e.unique)}${e.token === undefined ? `free(${e.name})` : `&${e.name}`}`;
      const shared = `${ops(e.shared)}decref(${e.name})${e.token === undefined ? '' : '; NULL'}`;
      const head = e.token === undefined ? '' : `val ${e.token} = `;
      return `${head}if is-unique(${e.name}) then { ${uniq} } else { ${shared} };${nl}${printExpr(e.body, ind)}`;
    }
    case 'match': {
      const inner = ind + '  ';
      const bs = e.branches.map((b) => {
        const pat = b.binders.length ? `${b.con}(${b.binders.join(', ')})` : b.con;
        const body = isSeq(b.body) ? `${'\n' + inner}  ${printExpr(b.body, inner + '  ')}` : ` ${printExpr(b.body, inner + '  ')}`;
        return `${'\n' + inner}${pat}${b.token === undefined ? '' : ` {${b.token}}`} ->${body}`;
      });
      return `match ${printExpr(e.scrut, ind)} {${bs.join('')}${nl}}`;
    }
    case 'if': {
      const br = (x: Expr) => (isSeq(x) ? `{${nl}  ${printExpr(x, ind + '  ')}${nl}}` : printExpr(x, ind));
      return `if ${printExpr(e.cond, ind)} then ${br(e.then)} else ${br(e.else)}`;
    }
  }
}

export function printProgram(p: Program): string {
  const types = p.types.map(
    (t) => `type ${t.name} { ${t.cons.map((k) => (k.arity ? `${k.name}(${(k.fields ?? Array.from({ length: k.arity }, (_, i) => `f${i + 1}`)).join(', ')})` : k.name)).join('; ')} }`,
  );
  const funs = p.funs.map((f) => `fun ${f.name}(${f.params.join(', ')}) {\n  ${printExpr(f.body, '  ')}\n}`);
  return [...types, ...funs].join('\n') + '\n';
}
