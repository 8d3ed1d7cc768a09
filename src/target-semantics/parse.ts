// Concrete syntax of Tgt / Tgt? (fig. 2.7), read by hand-written programs and printed by print.ts.
// The grammar is documented in spec/target.md ("Syntax"):
//
//   program ::= 'pipeline' f '(' params [';' dim 'in' '(' name ',' name ')' {',' …}] ')' {hint} ':' stmt
//   hint    ::= 'hint' 'bound' f.x 'in' '(' e ',' e ')' | 'hint' 'bound-extent' f.x e
//             | 'hint' 'align-bounds' f.x '(' e ',' e ')'
//   stmt    ::= 'nop' | 'assert' e | '{' [stmt {';' stmt} [';']] '}'
//             | 'allocate' f '(' x 'in' '(' e ',' e ')' {',' …} ')'
//             | f[@s<i>[.k<j>]] '[' e… ']' '<-' e
//             | 'if' e 'then' stmt ['else' stmt]
//             | 'for' [τ] x 'in' '(' e ',' e ')' 'do' stmt
//             | 'let' x '=' e 'in' stmt | 'label' ℓ ':' stmt
import { type Loc, UserError } from '../diag.js';
import { type Expr } from '../expr/ast.js';
import { Cursor, parseExpr, parseStageTag } from '../expr/parse.js';
import type { AllocDim, BoundsHint, Stmt, TgtProgram, Trav } from './ast.js';

const TRAVS: readonly Trav[] = ['serial', 'parallel', 'vectorize', 'unroll'];

/** Words that start statements or separate their parts; never variable names. */
export const TGT_KEYWORDS = new Set([
  'nop', 'assert', 'allocate', 'if', 'then', 'else', 'for', 'in', 'do', 'let', 'label', 'pipeline', 'hint',
]);

export function parseTgt(src: string, file: string): TgtProgram {
  const c = Cursor.of(src, file);
  const p = parseProgram(c);
  if (!c.atEnd()) c.fail('the end of the program', 'a program is one pipeline; group statements with { … ; … }');
  return p;
}

/** Parses one statement on its own (tests, the CLI's statement printer). */
export function parseStmtText(src: string, file = '<stmt>'): Stmt {
  const c = Cursor.of(src, file);
  const s = parseStmt(c);
  if (!c.atEnd()) c.fail('the end of the statement');
  return s;
}

function parseProgram(c: Cursor): TgtProgram {
  const loc = c.expect('pipeline', 'a target program starts with `pipeline f(params; x in (x.min, x.len), …):`').loc;
  const output = c.name('the output func name').text;
  c.expect('(');
  const params: string[] = [];
  const window: { dim: string; min: string; len: string }[] = [];
  const seen = new Set<string>();
  const declare = (t: { text: string; loc: Loc }) => {
    if (seen.has(t.text)) throw new UserError(`'${t.text}' is declared twice in the pipeline header`, t.loc);
    seen.add(t.text);
    return t.text;
  };
  if (!c.is(';') && !c.is(')')) {
    do params.push(declare(varName(c, 'a parameter name')));
    while (c.accept(','));
  }
  if (c.accept(';')) {
    do {
      const dim = c.name('an output dimension name').text;
      c.expect('in', "write each window dimension as `x in (x.min, x.len)`");
      c.expect('(');
      const min = declare(varName(c, 'the window min parameter'));
      c.expect(',');
      const len = declare(varName(c, 'the window len parameter'));
      c.expect(')');
      window.push({ dim, min, len });
    } while (c.accept(','));
  }
  c.expect(')', 'close the pipeline header');
  const hints: BoundsHint[] = [];
  while (c.is('hint')) hints.push(parseHint(c));
  c.expect(':', 'the pipeline header ends with `:` followed by the body');
  const body = parseStmt(c);
  return { output, ...(hints.length > 0 ? { hints } : {}), params, window, body, loc };
}

function varName(c: Cursor, what: string): { text: string; loc: Loc } {
  const t = c.ident(what);
  if (TGT_KEYWORDS.has(t.text) || t.text === 'err.rdom' || t.text === 'err.mem' || ['select', 'min', 'max'].includes(t.text)) {
    throw new UserError(`'${t.text}' is a reserved word and cannot be used as ${what}`, t.loc);
  }
  return t;
}

function funcDim(c: Cursor): { func: string; dim: string } {
  const t = c.ident('func.dimension');
  const parts = t.text.split('.');
  if (parts.length !== 2) throw new UserError(`'${t.text}' is not of the form func.dimension`, t.loc);
  return { func: parts[0]!, dim: parts[1]! };
}

function pair(c: Cursor): [Expr, Expr] {
  c.expect('(', 'an interval is written (min, len)');
  const a = parseExpr(c, 'tgt');
  c.expect(',', 'an interval is written (min, len)');
  const b = parseExpr(c, 'tgt');
  c.expect(')', 'an interval is written (min, len)');
  return [a, b];
}

function parseHint(c: Cursor): BoundsHint {
  const loc = c.expect('hint').loc;
  const kw = c.ident('bound, bound-extent or align-bounds');
  // `bound-extent` and `align-bounds` lex as three tokens (name, '-', name).
  let word = kw.text;
  if (c.is('-') && c.peek(1).kind === 'ident' && c.peek(1).loc.col === c.peek().loc.col + 1) {
    c.next();
    word += '-' + c.next().text;
  }
  const { func, dim } = funcDim(c);
  switch (word) {
    case 'bound': {
      c.expect('in');
      const [min, len] = pair(c);
      return { k: 'bound', func, dim, min, len, loc };
    }
    case 'bound-extent':
      return { k: 'bound-extent', func, dim, len: parseExpr(c, 'tgt'), loc };
    case 'align-bounds': {
      const [modulus, remainder] = pair(c);
      return { k: 'align-bounds', func, dim, modulus, remainder, loc };
    }
    default:
      throw new UserError(`'${word}' is not a bounds hint`, kw.loc, 'use bound, bound-extent or align-bounds');
  }
}

/** One statement; each statement nested in another is one level deeper ([SYNTAX-DEPTH]). */
export function parseStmt(c: Cursor): Stmt {
  c.open();
  const s = stmt(c);
  c.close();
  return s;
}

function stmt(c: Cursor): Stmt {
  const t = c.peek();
  const loc = t.loc;
  if (c.accept('nop')) return { k: 'nop', loc };
  if (c.accept('assert')) return { k: 'assert', cond: parseExpr(c, 'tgt'), loc };
  if (c.accept('{')) {
    const body: Stmt[] = [];
    while (!c.accept('}')) {
      body.push(parseStmt(c));
      if (!c.accept(';')) {
        c.expect('}', "separate statements with ';' and close the block with '}'");
        break;
      }
    }
    return { k: 'seq', body, loc };
  }
  if (c.accept('allocate')) {
    const func = c.name('a func name').text;
    c.expect('(');
    const dims: AllocDim[] = [];
    if (!c.accept(')')) {
      do {
        const dim = c.name('a dimension name').text;
        c.expect('in', 'write each allocated dimension as `x in (min, len)`');
        const [min, len] = pair(c);
        dims.push({ dim, min, len });
      } while (c.accept(','));
      c.expect(')', 'close the allocation with )');
    }
    return { k: 'allocate', func, dims, loc };
  }
  if (c.accept('if')) {
    const cond = parseExpr(c, 'tgt');
    c.expect('then');
    const then = parseStmt(c);
    const els: Stmt = c.accept('else') ? parseStmt(c) : { k: 'nop' };
    return { k: 'if', cond, then, else: els, loc };
  }
  if (c.accept('for')) {
    let trav: Trav = 'serial';
    const t1 = c.peek();
    if (t1.kind === 'ident' && (TRAVS as readonly string[]).includes(t1.text) && !c.is('in', 1)) {
      trav = t1.text as Trav;
      c.next();
    }
    const v = varName(c, 'a loop variable').text;
    c.expect('in', 'a loop is written `for [parallel] x in (min, len) do s`');
    const [min, len] = pair(c);
    c.expect('do', 'a loop is written `for [parallel] x in (min, len) do s`');
    return { k: 'for', var: v, trav, min, len, body: parseStmt(c), loc };
  }
  if (c.accept('let')) {
    const v = varName(c, 'a let-bound name').text;
    c.expect('=');
    const value = parseExpr(c, 'tgt');
    c.expect('in', 'a let is written `let x = e in s`');
    return { k: 'let', var: v, value, body: parseStmt(c), loc };
  }
  if (c.accept('label')) {
    const name = c.ident('a label name').text;
    c.expect(':', 'a label is written `label name: s`');
    return { k: 'label', name, body: parseStmt(c), loc };
  }
  if (t.kind === 'ident' && (c.is('[', 1) || c.is('@', 1)) && !TGT_KEYWORDS.has(t.text)) {
    const func = c.name('a func name').text;
    const ref = c.accept('@') ? parseStageTag(c) : {};
    c.expect('[');
    const idx: Expr[] = [];
    if (!c.accept(']')) {
      do idx.push(parseExpr(c, 'tgt'));
      while (c.accept(','));
      c.expect(']', 'close the index list with ]');
    }
    c.expect('<-', 'a buffer update is written f[e, …] <- e');
    return { k: 'store', func, ref, idx, value: parseExpr(c, 'tgt'), loc };
  }
  return c.fail('a statement (nop, assert, allocate, f[…] <- e, if, for, let, label or { … })');
}
