// Recursive-descent parsing of expressions, and the token cursor that every front end builds on.
// Sugar removed here (documented in spec/expr.md): a <= b is ¬(a > b), a >= b is ¬(a < b),
// a != b is ¬(a = b), and -e is 0 − e (a minus sign directly before a literal makes a negative
// constant).
import { type Loc, UserError } from '../diag.js';
import { type Expr, type Hole, type OpName, type RefLabel } from './ast.js';
import { type Token, lex } from './lexer.js';
import { E_MEM, E_RDOM, intFromString } from './value.js';

export type ExprMode = 'alg' | 'tgt';

/** Names that are operators or literals, never variables or funcs. */
export const RESERVED = new Set(['select', 'min', 'max', 'err.rdom', 'err.mem']);

/**
 * How deep any source may nest (spec/syntax.md, [SYNTAX-DEPTH]). The front ends and the evaluators
 * behind them recurse over the syntax tree, so the limit keeps every one of them well inside
 * Node's default call stack; far deeper than anything written by hand.
 */
export const MAX_NESTING = 256;
const DEPTH_RULE = 'SYNTAX-DEPTH';

export class Cursor {
  pos = 0;
  /** Levels open at the current token ([SYNTAX-DEPTH]). */
  private depth = 0;
  /** The deepest level reached so far, read by `mark` / `reached`. */
  private peak = 0;
  constructor(readonly toks: readonly Token[]) {}

  // The depth bookkeeping below is done by pairs of calls (open/close, mark/reached) rather than
  // by wrapping the parse in a closure: the parsers recurse once per level, and every extra stack
  // frame per level would lower the nesting they survive. A parse that throws leaves the counts
  // behind, which is harmless: no front end resumes parsing after an error.

  /** Refuses the source at `loc` when `levels` more levels would pass MAX_NESTING. */
  private reach(levels: number, loc: Loc): void {
    const level = this.depth + levels;
    if (level > MAX_NESTING) {
      throw new UserError(
        `nesting deeper than ${MAX_NESTING} levels [${DEPTH_RULE}]`,
        loc,
        `split the deeply nested or very long part into smaller pieces (separate funcs, let or val bindings); spec/syntax.md allows at most ${MAX_NESTING} levels`,
      );
    }
    if (level > this.peak) this.peak = level;
  }

  /**
   * Opens a level at the current token (a bracket, an argument, a prefix operator, a nested
   * statement) until `close`; past MAX_NESTING the source is refused at that token, before the
   * recursion can exhaust the call stack.
   */
  open(): void {
    this.reach(1, this.loc);
    this.depth++;
  }
  close(): void {
    this.depth--;
  }

  /** Starts measuring how deep the next parse reaches; pass the mark to `reached`. */
  mark(): number {
    const outer = this.peak;
    this.peak = this.depth;
    return outer;
  }
  /** How many levels below the current one the parse since `mark` reached. */
  reached(mark: number): number {
    const d = this.peak - this.depth;
    if (mark > this.peak) this.peak = mark;
    return d;
  }

  /**
   * One more operator of a left-associative chain `a op b op c …`, the tree `((a op b) op c) …`:
   * from the depth of the chain so far and of the operand just read (measured with mark /
   * reached), the depth of the chain with the operator at `loc` on top. A sum of thousands of
   * terms is thus refused at the operator where it passes the limit.
   */
  link(tree: number, operand: number, loc: Loc): number {
    const t = Math.max(tree, operand) + 1;
    this.reach(t, loc);
    return t;
  }

  static of(src: string, file: string): Cursor {
    return new Cursor(lex(src, file));
  }

  peek(k = 0): Token {
    return this.toks[Math.min(this.pos + k, this.toks.length - 1)]!;
  }
  get loc(): Loc {
    return this.peek().loc;
  }
  next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }
  is(text: string, k = 0): boolean {
    const t = this.peek(k);
    return (t.kind === 'punct' || t.kind === 'ident') && t.text === text;
  }
  accept(text: string): boolean {
    if (this.is(text)) {
      this.pos++;
      return true;
    }
    return false;
  }
  fail(what: string, hint?: string, t: Token = this.peek()): never {
    throw new UserError(`expected ${what} but found ${describe(t)}`, t.loc, hint);
  }
  expect(text: string, hint?: string): Token {
    if (!this.is(text)) this.fail(`'${text}'`, hint);
    return this.next();
  }
  ident(what = 'a name'): Token {
    const t = this.peek();
    if (t.kind !== 'ident') this.fail(what);
    return this.next();
  }
  /** A plain identifier: no dots, not reserved. */
  name(what = 'a name'): Token {
    const t = this.ident(what);
    if (t.text.includes('.') || RESERVED.has(t.text)) {
      throw new UserError(`'${t.text}' cannot be used as ${what}`, t.loc, 'names are letters, digits, _ and \' and may not be reserved words (select, min, max)');
    }
    return t;
  }
  integer(what = 'an integer'): bigint {
    const neg = this.accept('-');
    const t = this.peek();
    if (t.kind !== 'int') this.fail(what);
    this.next();
    return neg ? -BigInt(t.text) : BigInt(t.text);
  }
  atEnd(): boolean {
    return this.peek().kind === 'eof';
  }
}

export function describe(t: Token): string {
  if (t.kind === 'eof') return 'the end of the input';
  if (t.kind === 'int') return `number ${t.text}`;
  return `'${t.text}'`;
}

const withLoc = (e: Expr, loc: Loc): Expr => ({ ...e, loc });
const mk = (o: OpName, args: Expr[], loc: Loc): Expr => ({ k: 'op', op: o, args, loc });

export function parseExpr(c: Cursor, mode: ExprMode): Expr {
  return parseOr(c, mode);
}

function binaryLevel(
  c: Cursor,
  mode: ExprMode,
  ops: Readonly<Record<string, (a: Expr, b: Expr, loc: Loc) => Expr>>,
  sub: (c: Cursor, mode: ExprMode) => Expr,
): Expr {
  const loc = c.loc;
  let m = c.mark();
  let left = sub(c, mode);
  let tree = c.reached(m);
  for (;;) {
    const t = c.peek();
    const build = t.kind === 'punct' ? ops[t.text] : undefined;
    if (!build) return left;
    c.next();
    m = c.mark();
    const right = sub(c, mode);
    tree = c.link(tree, c.reached(m), t.loc);
    left = build(left, right, loc);
  }
}

const bin = (o: OpName) => (a: Expr, b: Expr, loc: Loc) => mk(o, [a, b], loc);
// implements [SUGAR-CMP]: a <= b is ¬(a > b), a >= b is ¬(a < b), a != b is ¬(a = b)
const negated = (o: OpName) => (a: Expr, b: Expr, loc: Loc) => mk('not', [mk(o, [a, b], loc)], loc);

const parseOr = (c: Cursor, m: ExprMode): Expr => binaryLevel(c, m, { '||': bin('or') }, parseAnd);
const parseAnd = (c: Cursor, m: ExprMode): Expr => binaryLevel(c, m, { '&&': bin('and') }, parseEq);
const parseEq = (c: Cursor, m: ExprMode): Expr =>
  binaryLevel(c, m, { '==': bin('='), '!=': negated('=') }, parseRel);
const parseRel = (c: Cursor, m: ExprMode): Expr =>
  binaryLevel(c, m, { '<': bin('<'), '>': bin('>'), '<=': negated('>'), '>=': negated('<') }, parseAdd);
const parseAdd = (c: Cursor, m: ExprMode): Expr =>
  binaryLevel(c, m, { '+': bin('+'), '-': bin('-') }, parseMul);
const parseMul = (c: Cursor, m: ExprMode): Expr =>
  binaryLevel(c, m, { '*': bin('*'), '/': bin('div'), '%': bin('mod') }, parseUnary);

function parseUnary(c: Cursor, mode: ExprMode): Expr {
  const loc = c.loc;
  if (c.accept('!')) {
    c.open();
    const e = parseUnary(c, mode);
    c.close();
    return mk('not', [e], loc);
  }
  // implements [SUGAR-NEG]: -e is 0 − e; a minus directly before a literal is a negative literal
  if (c.is('-')) {
    if (c.peek(1).kind === 'int') {
      c.next();
      return { k: 'const', value: intFromString('-' + c.next().text), loc };
    }
    c.next();
    c.open();
    const e = parseUnary(c, mode);
    c.close();
    return mk('-', [{ k: 'const', value: 0, loc }, e], loc);
  }
  return parseAtom(c, mode);
}

const CALL_OPS: Readonly<Record<string, OpName>> = { select: 'select', min: 'min', max: 'max' };

function parseArgs(c: Cursor, mode: ExprMode, open: string, close: string): Expr[] {
  c.expect(open);
  const args: Expr[] = [];
  if (!c.accept(close)) {
    do {
      c.open();
      args.push(parseExpr(c, mode));
      c.close();
    } while (c.accept(','));
    // A lone `=` after an argument is almost always a comparison written as in mathematics.
    c.expect(close, c.is('=') ? "equality is written '==' (a single '=' is not an operator of expressions)" : `close the argument list with '${close}'`);
  }
  return args;
}

function parseAtom(c: Cursor, mode: ExprMode): Expr {
  const t = c.peek();
  const loc = t.loc;
  if (t.kind === 'int') {
    c.next();
    return { k: 'const', value: intFromString(t.text), loc };
  }
  if (c.is('(')) {
    c.open();
    c.next();
    const e = parseExpr(c, mode);
    c.expect(')', 'parentheses must balance');
    c.close();
    return e;
  }
  if (mode === 'tgt' && c.is('?')) return parseHole(c);
  if (t.kind !== 'ident') c.fail('an expression');
  c.next();
  if (t.text === 'err.rdom') return { k: 'const', value: E_RDOM, loc };
  if (t.text === 'err.mem') return { k: 'const', value: E_MEM, loc };
  const o = CALL_OPS[t.text];
  if (o !== undefined) {
    const args = parseArgs(c, mode, '(', ')');
    const want = o === 'select' ? 3 : 2;
    if (args.length !== want) {
      throw new UserError(`${t.text} takes ${want} arguments, not ${args.length}`, loc);
    }
    return mk(o, args, loc);
  }
  if (mode === 'alg') {
    if (c.is('(')) return { k: 'access', func: t.text, args: parseArgs(c, mode, '(', ')'), loc };
  } else if (c.is('[') || c.is('@')) {
    const ref = c.accept('@') ? parseStageTag(c) : undefined;
    const args = parseArgs(c, mode, '[', ']');
    return ref ? { k: 'access', func: t.text, args, ref, loc } : { k: 'access', func: t.text, args, loc };
  }
  if (t.text.includes('.') && mode === 'alg') {
    throw new UserError(`'${t.text}' is not a valid name here`, loc, 'algorithm names may not contain dots');
  }
  return withLoc({ k: 'var', name: t.text }, loc);
}

/**
 * `s<i>` or `s<i>.k<j>`: a stage and optional specialization (def. 2.14); or `k<j>` alone, the
 * final stage inside specialization j (a store's label, see RefLabel).
 */
export function parseStageTag(c: Cursor): RefLabel {
  const t = c.ident('a stage tag such as s0 or s1.k2');
  const fin = /^k([1-9]\d*)$/.exec(t.text);
  if (fin) return { spec: Number(fin[1]) };
  const m = /^s(\d+)(?:\.k(\d+))?$/.exec(t.text);
  if (!m) {
    throw new UserError(`'${t.text}' is not a stage tag`, t.loc, 'write s<stage> or s<stage>.k<specialization>, e.g. s0 or s1.k2');
  }
  const stage = Number(m[1]);
  const spec = m[2] === undefined ? 0 : Number(m[2]);
  return spec ? { stage, spec } : { stage };
}

/** `?mem.min(f.x)`, `?cpu.len(f.x@s0)`, `?cpu.min(f.x@s1.k2)` */
function parseHole(c: Cursor): Expr {
  const loc = c.expect('?').loc;
  const kind = c.ident('a hole kind such as cpu.min or mem.len');
  const m = /^(mem|cpu)\.(min|len)$/.exec(kind.text);
  if (!m) throw new UserError(`'${kind.text}' is not a hole kind`, kind.loc, 'use cpu.min, cpu.len, mem.min or mem.len');
  c.expect('(');
  const fd = c.ident('func.dimension');
  const parts = fd.text.split('.');
  if (parts.length !== 2) throw new UserError(`'${fd.text}' is not of the form func.dimension`, fd.loc);
  let tag: RefLabel = {};
  if (c.accept('@')) tag = parseStageTag(c);
  c.expect(')');
  if (tag.stage === undefined && tag.spec !== undefined) {
    throw new UserError('a final-stage hole is shared by all specializations', fd.loc, 'write ?cpu.min(f.x) for the final stage, or @s<i>.k<j> for an earlier one');
  }
  if (m[1] === 'mem' && tag.stage !== undefined) {
    throw new UserError('allocation holes have no stage', fd.loc, 'only cpu holes carry @s<stage>');
  }
  const h: Hole = { kind: m[1] as 'mem' | 'cpu', end: m[2] as 'min' | 'len', func: parts[0]!, dim: parts[1]!, ...tag };
  return { k: 'hole', hole: h, loc };
}

/** Parses a whole string as one expression (used by the CLI and tests). */
export function parseExprText(src: string, mode: ExprMode, file = '<expr>'): Expr {
  const c = Cursor.of(src, file);
  const e = parseExpr(c, mode);
  if (!c.atEnd()) c.fail('the end of the expression');
  return e;
}
