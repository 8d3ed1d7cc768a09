// The concrete syntax of swizzle programs (spec/swizzle.md, [SWZ-SYNTAX]); every error names its
// place in the file.
import { type Loc, UserError } from '../diag.js';
import { type Token, lex } from '../expr/lexer.js';
import type { Goal, Rhs, Stmt, SwzProgram } from './ast.js';
import { type OptVal, type Opts, buildGather, buildSet } from './gathers.js';
import { buildGoal } from './goals.js';
import { type Shape, showShape, sizeOf } from './shape.js';
import { BOTTOM, Terms, ZERO } from './term.js';

/** The largest array a program may declare: a bound that keeps a typo from exhausting memory. */
export const MAX_CELLS = 1 << 16;
/** The most choices one hole may have. */
export const MAX_CHOICES = 1 << 17;

class P {
  private i = 0;
  constructor(private readonly toks: readonly Token[]) {}
  peek(k = 0): Token {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)]!;
  }
  next(): Token {
    const t = this.peek();
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }
  is(text: string): boolean {
    const t = this.peek();
    return t.kind !== 'eof' && t.text === text;
  }
  eat(text: string): boolean {
    if (!this.is(text)) return false;
    this.next();
    return true;
  }
  want(text: string, what: string): Token {
    const t = this.peek();
    if (t.kind === 'eof' || t.text !== text) throw new UserError(`expected '${text}' ${what}, found ${show(t)}`, t.loc);
    return this.next();
  }
  ident(what: string): Token {
    const t = this.peek();
    if (t.kind !== 'ident') throw new UserError(`expected ${what}, found ${show(t)}`, t.loc);
    return this.next();
  }
  int(what: string): number {
    const t = this.peek();
    const neg = t.kind === 'punct' && t.text === '-';
    if (neg) this.next();
    const n = this.peek();
    if (n.kind !== 'int') throw new UserError(`expected ${what}, found ${show(n)}`, n.loc);
    this.next();
    const v = Number(n.text);
    if (!Number.isSafeInteger(v) || v > 1e9) throw new UserError(`number ${n.text} is too large`, n.loc);
    return neg ? -v : v;
  }
}

function show(t: Token): string {
  return t.kind === 'eof' ? 'the end of the file' : `'${t.text}'`;
}

// implements [SWZ-SYNTAX]
export function parseSwizzle(src: string, file: string): SwzProgram {
  const p = new P(lex(src, file));
  const terms = new Terms();
  const stmts: Stmt[] = [];
  const byName = new Map<string, number>();
  let goal: Goal | undefined;
  while (p.peek().kind !== 'eof') {
    const head = p.ident('a statement (NAME: [shape] = …) or a goal (goal NAME = …)');
    if (head.text === 'goal' && p.peek().kind === 'ident') {
      if (goal) throw new UserError('a second goal', head.loc, 'a program has one goal');
      goal = parseGoal(p, terms, stmts, byName, head.loc);
      continue;
    }
    if (goal) throw new UserError(`statement '${head.text}' after the goal`, head.loc, 'the goal comes last');
    p.want(':', `after '${head.text}'`);
    const shape = parseShape(p);
    p.want('=', 'after the shape');
    const rhs = parseRhs(p, terms, stmts, byName, shape);
    stmts.push({ name: head.text, shape, rhs, loc: head.loc });
    byName.set(head.text, stmts.length - 1);
  }
  return { file, terms, stmts, ...(goal ? { goal } : {}) };
}

function parseShape(p: P): Shape {
  const open = p.want('[', 'to start a shape such as [32, 3]');
  const dims: number[] = [];
  do {
    const d = p.int('a dimension');
    if (d < 1) throw new UserError(`dimension ${d} must be at least 1`, open.loc);
    dims.push(d);
  } while (p.eat(','));
  p.want(']', 'to close the shape');
  if (sizeOf(dims) > MAX_CELLS) throw new UserError(`array ${showShape(dims)} has more than ${MAX_CELLS} cells`, open.loc, 'swizzle problems are small fixed-size kernels');
  return dims;
}

function parseOpts(p: P): Opts {
  const m = new Map<string, OptVal>();
  if (!p.eat('{')) return m;
  if (p.eat('}')) return m;
  do {
    const k = p.ident('an option name');
    if (m.has(k.text)) throw new UserError(`option '${k.text}' given twice`, k.loc);
    p.want('=', `after option '${k.text}'`);
    if (p.eat('[')) {
      const xs: number[] = [];
      if (!p.is(']')) do xs.push(p.int('a number')); while (p.eat(','));
      p.want(']', 'to close the list');
      m.set(k.text, xs);
    } else m.set(k.text, p.int(`a number for option '${k.text}'`));
  } while (p.eat(','));
  p.want('}', 'to close the options');
  return m;
}

function argRef(p: P, stmts: readonly Stmt[], byName: ReadonlyMap<string, number>): number {
  const t = p.ident('an array name');
  const i = byName.get(t.text);
  if (i === undefined) throw new UserError(`unknown array '${t.text}'`, t.loc, stmts.length ? `defined so far: ${[...new Set(stmts.map((s) => s.name))].join(', ')}` : 'define it before its use');
  return i;
}

function parseRhs(p: P, terms: Terms, stmts: readonly Stmt[], byName: ReadonlyMap<string, number>, shape: Shape): Rhs {
  const t = p.peek();
  if (t.kind === 'punct' && t.text === '[') return { k: 'lit', terms: literal(p, terms, shape) };
  if (t.kind === 'ident' && t.text === 'fold' && p.peek(1).kind === 'ident') {
    p.next();
    const argTok = p.peek();
    const arg = argRef(p, stmts, byName);
    const a = stmts[arg]!.shape;
    const want = a.slice(0, -1);
    if (a.length < 2 || want.length !== shape.length || want.some((d, i) => d !== shape[i])) {
      throw new UserError(`fold of ${showShape(a)} gives ${a.length < 2 ? 'no array' : showShape(want)}, not ${showShape(shape)}`, argTok.loc, 'fold packs the last dimension into multisets');
    }
    return { k: 'fold', arg };
  }
  if (t.kind === 'ident' && t.text === 'iota' && p.peek(1).text === '(') {
    p.next();
    p.next();
    const prefix = p.ident('a symbol prefix such as x').text;
    p.want(',', 'after the prefix');
    let from = p.int('a count');
    let to = from;
    if (p.eat(',')) to = p.int('the end of the range');
    else from = 0;
    p.want(')', 'to close iota');
    if (from < 0 || to - from !== sizeOf(shape)) throw new UserError(`iota gives ${to - from} symbols, the array ${showShape(shape)} has ${sizeOf(shape)} cells`, t.loc);
    return { k: 'lit', terms: Int32Array.from({ length: to - from }, (_, i) => terms.symbol(`${prefix}${from + i}`)) };
  }
  const hole = p.eat('?');
  const name = p.ident(hole ? 'the name of a set of gathers' : 'a gather, fold, iota or a literal');
  const opts = parseOpts(p);
  p.want('(', `before the arguments of '${name.text}'`);
  const args: number[] = [];
  if (!p.is(')')) do args.push(argRef(p, stmts, byName)); while (p.eat(','));
  p.want(')', 'to close the arguments');
  const ctx = { args: args.map((a) => stmts[a]!.shape), out: shape, opts, loc: name.loc };
  const choices = hole ? buildSet(name.text, ctx) : [buildGather(name.text, ctx)];
  if (choices.length > MAX_CHOICES) throw new UserError(`?${name.text} has ${choices.length} choices, more than ${MAX_CHOICES}`, name.loc, 'narrow it with options (level, consts, dims)');
  return { k: 'gather', ...(hole ? { hole: name.text } : {}), fn: name.text, opts, args, choices };
}

function term(p: P, terms: Terms): number {
  const t = p.peek();
  if (p.eat('{')) {
    const es: number[] = [];
    if (!p.is('}')) do es.push(term(p, terms)); while (p.eat(','));
    p.want('}', 'to close the fold');
    return terms.fold(es);
  }
  if (t.kind === 'int') {
    p.next();
    if (t.text !== '0') throw new UserError(`number ${t.text} is not a term`, t.loc, 'terms are symbols (x0), 0, _ (undefined) or {…} folds');
    return ZERO;
  }
  if (t.kind === 'ident') {
    p.next();
    return t.text === '_' ? BOTTOM : terms.symbol(t.text);
  }
  throw new UserError(`expected a term, found ${show(t)}`, t.loc, 'terms are symbols (x0), 0, _ (undefined) or {…} folds');
}

/** A nested literal, read row-major; its nesting must match the shape. */
function literal(p: P, terms: Terms, shape: Shape): Int32Array {
  const out: number[] = [];
  const level = (d: number): void => {
    const open = p.want('[', 'to start a row of the literal');
    let n = 0;
    do {
      if (d + 1 < shape.length) level(d + 1);
      else out.push(term(p, terms));
      n++;
    } while (p.eat(','));
    p.want(']', 'to close a row of the literal');
    if (n !== shape[d]) throw new UserError(`row has ${n} entries, the shape ${showShape(shape)} wants ${shape[d]} in dimension ${d}`, open.loc);
  };
  level(0);
  return Int32Array.from(out);
}

function parseGoal(p: P, terms: Terms, stmts: readonly Stmt[], byName: ReadonlyMap<string, number>, loc: Loc): Goal {
  const stmt = argRef(p, stmts, byName);
  if (stmt !== stmts.length - 1) throw new UserError(`the goal must name the last array, '${stmts[stmts.length - 1]!.name}'`, loc, 'arrays after the goal array cannot affect it: remove them');
  p.want('=', 'after the goal array');
  const shape = stmts[stmt]!.shape;
  if (p.is('[')) return { stmt, terms: literal(p, terms, shape), loc };
  const name = p.ident('a builtin goal or a literal');
  const opts = parseOpts(p);
  const spelled = `${name.text}${opts.size ? `{${[...opts].map(([k, v]) => `${k}=${v}`).join(', ')}}` : ''}`;
  return { stmt, terms: buildGoal(name.text, opts, terms, shape, name.loc), builtin: spelled, loc };
}
