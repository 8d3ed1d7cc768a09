// Concrete syntax of λ1 programs (spec/perceus.md, "Concrete syntax"). The parser only builds the
// tree; names are resolved (variable / constructor / top-level function) by scope.ts, because
// declarations may refer to each other in any order.
import { type Loc, UserError } from '../diag.js';
import type { OpName } from '../expr/ast.js';
import { Cursor } from '../expr/parse.js';
import { intFromString } from '../expr/value.js';
import type { Branch, Expr, Pattern } from './syntax.js';

export const KEYWORDS = new Set(['type', 'fun', 'val', 'match', 'if', 'then', 'else', 'dup', 'drop']);

/** A head applied to arguments before resolution: `f(a, b)` is a call, a constructor or applications. */
export interface RawFun {
  readonly name: string;
  readonly params: readonly string[];
  readonly body: Expr;
  readonly loc: Loc;
}
export interface RawType {
  readonly name: string;
  readonly cons: readonly { name: string; arity: number; fields: readonly string[]; loc: Loc }[];
  readonly loc: Loc;
}
export interface RawProgram {
  readonly file: string;
  readonly types: readonly RawType[];
  readonly funs: readonly RawFun[];
}

function name(c: Cursor, what: string): { text: string; loc: Loc } {
  const t = c.name(what);
  if (KEYWORDS.has(t.text)) throw new UserError(`'${t.text}' is a keyword and cannot be used as ${what}`, t.loc);
  return { text: t.text, loc: t.loc };
}

function list<T>(c: Cursor, item: () => T): T[] {
  c.expect('(');
  const out: T[] = [];
  if (!c.accept(')')) {
    do out.push(item());
    while (c.accept(','));
    c.expect(')', "close the list with ')'");
  }
  return out;
}

export function parseProgram(src: string, file: string): RawProgram {
  const c = Cursor.of(src, file);
  const types: RawType[] = [];
  const funs: RawFun[] = [];
  while (!c.atEnd()) {
    const loc = c.loc;
    if (c.accept('type')) {
      const n = name(c, 'a type name');
      c.expect('{', "a type lists its constructors in braces, e.g. type list { Nil; Cons(head, tail) }");
      const cons: { name: string; arity: number; fields: readonly string[]; loc: Loc }[] = [];
      while (!c.accept('}')) {
        const k = name(c, 'a constructor name');
        const fields = c.is('(') ? list(c, () => name(c, 'a field name').text) : [];
        cons.push({ name: k.text, arity: fields.length, fields, loc: k.loc });
        while (c.accept(';') || c.accept('|') || c.accept(','));
      }
      types.push({ name: n.text, cons, loc });
    } else if (c.accept('fun')) {
      const n = name(c, 'a function name');
      const params = list(c, () => name(c, 'a parameter name').text);
      const body = c.accept('=') ? parseExpr(c) : parseBlock(c);
      funs.push({ name: n.text, params, body, loc });
    } else c.fail("'type' or 'fun'", 'a program is a sequence of type and fun declarations');
  }
  return { file, types, funs };
}

function parseBlock(c: Cursor): Expr {
  c.expect('{');
  const e = parseExpr(c);
  c.expect('}', "close the block with '}'");
  return e;
}

/** One expression; each expression inside another is one level deeper ([SYNTAX-DEPTH]). */
export function parseExpr(c: Cursor): Expr {
  c.open();
  const e = expr(c);
  c.close();
  return e;
}

function expr(c: Cursor): Expr {
  const loc = c.loc;
  if (c.accept('val')) {
    const x = name(c, 'a variable name');
    c.expect('=');
    if (c.is('drop') && c.is('-', 1) && c.is('reuse', 2)) {
      c.pos += 3;
      const y = name(c, 'the variable to drop-reuse');
      c.expect(';', "a binding ends with ';' before its body");
      return { k: 'dropreuse', name: y.text, token: x.text, body: parseExpr(c), loc };
    }
    const bound = parseExpr(c);
    c.expect(';', "a binding ends with ';' before its body");
    return { k: 'val', name: x.text, bound, body: parseExpr(c), loc };
  }
  if (c.is('dup') || c.is('drop')) {
    const kind = c.next().text as 'dup' | 'drop';
    const x = name(c, `the variable to ${kind}`);
    c.expect(';', `'${kind} x' is followed by ';' and the rest of the expression`);
    return { k: kind, name: x.text, body: parseExpr(c), loc };
  }
  if (c.accept('match')) {
    const scrut = parseExpr(c);
    c.expect('{', 'the branches of a match are written in braces');
    const branches: Branch[] = [];
    while (!c.accept('}')) {
      const bloc = c.loc;
      const k = name(c, 'a constructor pattern');
      const pats = c.is('(') ? list(c, () => pattern(c)) : [];
      c.expect('->', "a branch is written 'C(x, y) -> expression'");
      const flat = pats.every((q) => q.k === 'name');
      const binders = pats.map((q) => (q.k === 'name' ? q.name : '_'));
      branches.push({ con: k.text, binders, ...(flat ? {} : { pats }), body: parseExpr(c), loc: bloc });
      while (c.accept(';') || c.accept(','));
    }
    return { k: 'match', scrut, branches, loc };
  }
  if (c.accept('if')) {
    const cond = parseExpr(c);
    c.expect('then');
    const then = parseExpr(c);
    c.expect('else', "an 'if' needs an 'else' branch");
    return { k: 'if', cond, then, else: parseExpr(c), loc };
  }
  if (c.accept('\\')) {
    const params: string[] = [];
    do params.push(name(c, 'a lambda parameter').text);
    while (!c.is('->'));
    c.expect('->');
    let body = parseExpr(c);
    for (let i = params.length - 1; i >= 0; i--) body = { k: 'lam', param: params[i]!, body, loc };
    return body;
  }
  return parseBinary(c, 0);
}

// Binary operators, loosest first; comparison sugar as in src/expr/parse.ts.
const LEVELS: readonly (readonly string[])[] = [['||'], ['&&'], ['==', '!='], ['<', '>', '<=', '>='], ['+', '-'], ['*', '/', '%']];
const OPS: Readonly<Record<string, OpName>> = {
  '||': 'or', '&&': 'and', '==': '=', '!=': '=', '<': '<', '>': '>', '<=': '>', '>=': '<',
  '+': '+', '-': '-', '*': '*', '/': 'div', '%': 'mod',
};
const NEGATED = new Set(['!=', '<=', '>=']);

function parseBinary(c: Cursor, level: number): Expr {
  if (level === LEVELS.length) return parseUnary(c);
  // A chain ([SYNTAX-DEPTH]), measured as in src/expr/parse.ts.
  let m = c.mark();
  let left = parseBinary(c, level + 1);
  let tree = c.reached(m);
  for (;;) {
    const t = c.peek();
    if (t.kind !== 'punct' || !LEVELS[level]!.includes(t.text)) return left;
    c.next();
    m = c.mark();
    const right = parseBinary(c, level + 1);
    tree = c.link(tree, c.reached(m), t.loc);
    const e: Expr = { k: 'prim', op: OPS[t.text]!, args: [left, right], loc: t.loc };
    left = NEGATED.has(t.text) ? { k: 'prim', op: 'not', args: [e], loc: t.loc } : e;
  }
}

function parseUnary(c: Cursor): Expr {
  const loc = c.loc;
  if (c.accept('!')) {
    c.open();
    const e = parseUnary(c);
    c.close();
    return { k: 'prim', op: 'not', args: [e], loc };
  }
  if (c.is('-')) {
    if (c.peek(1).kind === 'int') {
      c.next();
      return { k: 'lit', value: intFromString('-' + c.next().text), loc };
    }
    c.next();
    c.open();
    const e = parseUnary(c);
    c.close();
    return { k: 'prim', op: '-', args: [{ k: 'lit', value: 0, loc }, e], loc };
  }
  return parsePostfix(c);
}

function parsePostfix(c: Cursor): Expr {
  // `f(a)(b)` is `(f(a))(b)`: a chain ([SYNTAX-DEPTH]) whose operators are argument lists.
  let m = c.mark();
  let e = parseAtom(c);
  let tree = c.reached(m);
  while (c.is('(')) {
    const loc = c.loc;
    m = c.mark();
    const args = list(c, () => parseExpr(c));
    tree = c.link(tree, c.reached(m), loc);
    // Resolved by scope.ts: a call of a top-level function, a constructor or applications.
    if (e.k === 'var') e = { k: 'call', fn: e.name, args, loc: e.loc ?? loc };
    else if (args.length === 0) throw new UserError('an application needs an argument', loc);
    else e = args.reduce<Expr>((f, a) => ({ k: 'app', fn: f, arg: a, loc }), e);
  }
  return e;
}

/** A sub-pattern: `x`, `_`, a constructor `C` or `C(p, …)`, or an integer. */
function pattern(c: Cursor): Pattern {
  const t = c.peek();
  if (t.kind === 'int' || (c.is('-') && c.peek(1).kind === 'int')) {
    const neg = c.accept('-');
    return { k: 'lit', value: intFromString((neg ? '-' : '') + c.next().text) };
  }
  const n = name(c, 'a pattern variable, _, a constructor or an integer').text;
  return c.is('(') ? { k: 'con', con: n, args: list(c, () => pattern(c)) } : { k: 'name', name: n };
}

function parseAtom(c: Cursor): Expr {
  const t = c.peek();
  if (t.kind === 'int') {
    c.next();
    return { k: 'lit', value: intFromString(t.text), loc: t.loc };
  }
  if (c.accept('(')) {
    const e = parseExpr(c);
    c.expect(')', 'parentheses must balance');
    return e;
  }
  if (c.is('{')) return parseBlock(c);
  if (t.kind !== 'ident' || KEYWORDS.has(t.text)) c.fail('an expression');
  const n = name(c, 'a name');
  if (c.accept('@')) {
    const ru = name(c, 'a reuse token');
    const args = c.is('(') ? list(c, () => parseExpr(c)) : [];
    return { k: 'con', con: n.text, args, reuse: ru.text, loc: n.loc };
  }
  return { k: 'var', name: n.text, loc: n.loc };
}
