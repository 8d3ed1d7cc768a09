// Parser for the concrete syntax of algorithms (fig. 2.5a; grammar in spec/syntax.md). Expressions
// are read by the shared expression parser in 'alg' mode; this module reads the structure around
// them. Every error is a UserError carrying the file:line:col of the offending token.
import { UserError } from '../diag.js';
import { type Expr } from '../expr/ast.js';
import { Cursor, parseExpr } from '../expr/parse.js';
import type { Token } from '../expr/lexer.js';
import type { Func, Pipeline, RVar, Stage } from './ast.js';

/** Words with a fixed meaning in the algorithm syntax; they may not name anything. */
export const KEYWORDS = new Set(['pipeline', 'func', 'rdom', 'in', 'if']);

const TRUE: Expr = { k: 'const', value: 1 };

function name(c: Cursor, what: string): Token {
  const t = c.name(what);
  if (KEYWORDS.has(t.text)) {
    throw new UserError(`'${t.text}' is a keyword and cannot be used as ${what}`, t.loc, 'choose another name');
  }
  return t;
}

/** `( a, b, … )` of names; the list may be empty. */
function nameList(c: Cursor, what: string): string[] {
  c.expect('(');
  const out: string[] = [];
  if (!c.accept(')')) {
    do out.push(name(c, what).text);
    while (c.accept(','));
    c.expect(')', `separate ${what}s with ',' and close the list with ')'`);
  }
  return out;
}

function exprList(c: Cursor): Expr[] {
  c.expect('(');
  const out: Expr[] = [];
  if (!c.accept(')')) {
    do out.push(parseExpr(c, 'alg'));
    while (c.accept(','));
    c.expect(')', "separate coordinates with ',' and close the list with ')'");
  }
  return out;
}

/** `r = (min, len)` (§2.4.1: an interval is a minimum and an extent). */
function rvar(c: Cursor): RVar {
  const t = name(c, 'a reduction variable');
  c.expect('=', 'write each reduction variable as r = (min, len)');
  c.expect('(', 'write each reduction variable as r = (min, len)');
  const min = parseExpr(c, 'alg');
  c.expect(',', 'an rdom interval is (min, len)');
  const len = parseExpr(c, 'alg');
  c.expect(')', 'an rdom interval is (min, len)');
  return { name: t.text, min, len, loc: t.loc };
}

/** `[rdom(r̄ = Ī) in] (ē) <- e_b [if e_p];` */
function update(c: Cursor): Stage {
  const loc = c.loc;
  const rdom: RVar[] = [];
  if (c.accept('rdom')) {
    c.expect('(');
    if (!c.accept(')')) {
      do rdom.push(rvar(c));
      while (c.accept(','));
      c.expect(')', "separate reduction variables with ',' and close the rdom with ')'");
    }
    c.expect('in', "an rdom is followed by 'in (coordinates) <- value'");
  }
  if (!c.is('(')) c.fail("an update stage '(coordinates) <- value;'");
  const lhs = exprList(c);
  c.expect('<-', "an update stage is written '(coordinates) <- value'");
  const rhs = parseExpr(c, 'alg');
  const pred = c.accept('if') ? parseExpr(c, 'alg') : { ...TRUE, loc };
  c.expect(';', "end each stage with ';'");
  return { pure: false, rdom, lhs, rhs, pred, loc };
}

/** The pure stage U_0 = e, read as rdom() in (x̄) <- e if 1 (§2.4.1). */
function pureStage(c: Cursor, vars: readonly string[]): Stage {
  const loc = c.loc;
  const rhs = parseExpr(c, 'alg');
  if (c.is('<-')) {
    throw new UserError('the first stage of a func must be pure: an expression, not an update', c.loc,
      'def. 2.10: write the initial value first, e.g. `0;`, then the update stages');
  }
  c.expect(';', "end each stage with ';'");
  const lhs: Expr[] = vars.map((v) => ({ k: 'var', name: v, loc }));
  return { pure: true, rdom: [], lhs, rhs, pred: { ...TRUE, loc }, loc };
}

/** `func f(x̄) = e;` or `func f(x̄) { e; U; … }` */
function func(c: Cursor): Func {
  const loc = c.expect('func', "a pipeline body is a list of 'func' definitions").loc;
  const fname = name(c, 'a func name').text;
  const vars = nameList(c, 'a pure variable');
  const stages: Stage[] = [];
  if (c.accept('=')) stages.push(pureStage(c, vars));
  else if (c.accept('{')) {
    stages.push(pureStage(c, vars));
    while (!c.accept('}')) {
      if (c.atEnd() || c.is('func')) c.fail("'}' to close the func body");
      stages.push(update(c));
    }
  } else c.fail("'=' or '{' after the func's variables");
  return { name: fname, vars, stages, loc };
}

export function parsePipeline(src: string, file: string): Pipeline {
  const c = Cursor.of(src, file);
  const loc = c.expect('pipeline', 'a program starts with `pipeline NAME(params) { … }`').loc;
  const output = name(c, 'the output func name').text;
  const params = nameList(c, 'a parameter');
  c.expect('{', "the pipeline's funcs are enclosed in '{ … }'");
  const funcs: Func[] = [];
  while (!c.accept('}')) {
    if (c.atEnd()) c.fail("'}' to close the pipeline");
    funcs.push(func(c));
  }
  if (!c.atEnd()) c.fail('the end of the program', 'only one pipeline per file');
  return { output, params, funcs, loc };
}
