// Reading Halide's rewrite rules (spec/simplify.md [HR-SYNTAX]): the `rewrite(lhs, rhs[, pred])`
// calls of a Halide source tree's `src/Simplify_*.cpp`, and plain rule files in the same syntax
// (one call per line, `#` comments). Operands are parsed with C++'s precedences; C++ that is not
// part of the rule language is kept as text for model.ts to count.
import { type Loc, UserError } from '../../diag.js';
import type { HBinOp, HExpr, HRule } from './ast.js';

interface Tok {
  readonly t: string;
  readonly kind: 'id' | 'num' | 'p' | 'eof';
  readonly off: number;
}

const PUNCT = ['&&', '||', '<=', '>=', '==', '!=', '+', '-', '*', '/', '%', '<', '>', '!', '(', ')', ','];

function lex(src: string, base: number): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    // An identifier may be qualified or reach into an object (`IRMatcher::likely`, `op->type.bits`).
    const id = /^[A-Za-z_][A-Za-z_0-9]*(?:(?:::|->|\.)[A-Za-z_][A-Za-z_0-9]*)*/.exec(src.slice(i));
    if (id) {
      out.push({ t: id[0], kind: 'id', off: base + i });
      i += id[0].length;
      continue;
    }
    const num = /^[0-9][0-9A-Za-z_.']*/.exec(src.slice(i));
    if (num) {
      out.push({ t: num[0], kind: 'num', off: base + i });
      i += num[0].length;
      continue;
    }
    const p = PUNCT.find((q) => src.startsWith(q, i));
    if (!p) throw new SyntaxAt(`unexpected character '${ch}'`, base + i);
    out.push({ t: p, kind: 'p', off: base + i });
    i += p.length;
  }
  out.push({ t: '', kind: 'eof', off: base + src.length });
  return out;
}

/** A syntax error at an offset of the file; the callers turn it into a located error or a count. */
class SyntaxAt extends Error {
  constructor(
    message: string,
    readonly off: number,
  ) {
    super(message);
  }
}

const LEVELS: readonly (readonly HBinOp[])[] = [['||'], ['&&'], ['==', '!='], ['<', '<=', '>', '>='], ['+', '-'], ['*', '/', '%']];
const MAX_DEPTH = 200;

/** The operands of one call: its comma-separated arguments, each an expression. */
function parseArgs(toks: readonly Tok[]): HExpr[] {
  let pos = 0;
  let depth = 0;
  const peek = () => toks[pos]!;
  const fail = (what: string): never => {
    const t = peek();
    throw new SyntaxAt(`expected ${what} but found ${t.kind === 'eof' ? 'the end of the call' : `'${t.t}'`}`, t.off);
  };
  const expect = (p: string) => (peek().t === p && peek().kind === 'p' ? pos++ : fail(`'${p}'`));
  const level = (i: number): HExpr => {
    if (i === LEVELS.length) return unary();
    let a = level(i + 1);
    for (;;) {
      const t = peek();
      const op = LEVELS[i]!.find((o) => t.kind === 'p' && t.t === o);
      if (!op) return a;
      pos++;
      a = { k: 'bin', op, a, b: level(i + 1) };
    }
  };
  const unary = (): HExpr => {
    const t = peek();
    if (t.kind === 'p' && (t.t === '!' || t.t === '-')) {
      pos++;
      if (++depth > MAX_DEPTH) throw new SyntaxAt('expression nested too deeply', t.off);
      const a = unary();
      depth--;
      return t.t === '-' && a.k === 'int' ? { k: 'int', v: -a.v } : { k: 'un', op: t.t, a };
    }
    return primary();
  };
  const primary = (): HExpr => {
    const t = peek();
    if (t.kind === 'p' && t.t === '(') {
      pos++;
      if (++depth > MAX_DEPTH) throw new SyntaxAt('expression nested too deeply', t.off);
      const e = level(0);
      depth--;
      expect(')');
      return e;
    }
    if (t.kind === 'num') {
      pos++;
      return /^[0-9]+$/.test(t.t) ? { k: 'int', v: BigInt(t.t) } : { k: 'cxx', text: t.t };
    }
    if (t.kind !== 'id') return fail('an expression');
    pos++;
    if (t.t === 'true' || t.t === 'false') return { k: 'bool', v: t.t === 'true' };
    if (peek().t !== '(' || peek().kind !== 'p') return { k: 'id', name: t.t };
    pos++;
    if (++depth > MAX_DEPTH) throw new SyntaxAt('expression nested too deeply', t.off);
    const args: HExpr[] = [];
    if (!(peek().kind === 'p' && peek().t === ')')) {
      for (;;) {
        args.push(level(0));
        if (peek().kind === 'p' && peek().t === ',') pos++;
        else break;
      }
    }
    depth--;
    expect(')');
    return { k: 'call', f: t.t, args };
  };
  const args: HExpr[] = [];
  for (;;) {
    args.push(level(0));
    if (peek().kind === 'p' && peek().t === ',') pos++;
    else break;
  }
  if (peek().kind !== 'eof') fail("',' or the end of the call");
  return args;
}

/** Blanks out C++ comments, keeping every offset and line break. */
function blankComments(src: string): string {
  return src.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '));
}

/** The offset just past the `)` closing the parenthesis open before `from`, or -1. */
function closing(src: string, from: number): number {
  let d = 1;
  for (let j = from; j < src.length; j++) {
    if (src[j] === '(') d++;
    else if (src[j] === ')' && --d === 0) return j;
  }
  return -1;
}

const lineAt = (src: string, off: number): number => src.slice(0, off).split('\n').length;
const locAt = (src: string, file: string, off: number): Loc => {
  const before = src.slice(0, off);
  return { file, line: before.split('\n').length, col: off - before.lastIndexOf('\n') };
};

/** A call of `rewrite` that could not be read: counted with the rules as the construct `syntax`. */
export interface Unreadable {
  readonly file: string;
  readonly line: number;
  readonly node: string;
  readonly text: string;
  readonly error: string;
}

/** The IR node of a right-hand-side-free lhs root, for rule files (where no visitor names it). */
const NODE_OF: Readonly<Record<string, string>> = {
  '+': 'Add', '-': 'Sub', '*': 'Mul', '/': 'Div', '%': 'Mod', '<': 'LT', '<=': 'LE', '>': 'GT', '>=': 'GE', '==': 'EQ', '!=': 'NE',
  '&&': 'And', '||': 'Or', '!': 'Not', min: 'Min', max: 'Max', select: 'Select', broadcast: 'Broadcast', ramp: 'Ramp',
};

export function nodeOfLhs(e: HExpr): string {
  const key = e.k === 'bin' || e.k === 'un' ? e.op : e.k === 'call' ? e.f : '';
  return NODE_OF[key] ?? (e.k === 'call' ? e.f : 'Unknown');
}

/**
 * The C++ conditions a call sits behind: walking out of each enclosing parenthesis up to the
 * `if`, the operands joined to it by `&&` before it (`(ty.is_float() && rewrite(…))`).
 */
export function guardsOf(src: string, start: number): string[] {
  const guards: string[] = [];
  let i = start;
  for (;;) {
    // Find the parenthesis that encloses position i, and the start of the item holding i.
    let d = 0;
    let j = i - 1;
    let itemStart = -1;
    for (; j >= 0; j--) {
      const ch = src[j];
      if (ch === ')') d++;
      else if (ch === '(') {
        if (d === 0) break;
        d--;
      } else if (d === 0 && itemStart < 0 && (src.startsWith('||', j - 1) || ch === ';' || ch === '{')) itemStart = j + 1;
    }
    if (j < 0 || /\b(if|while)\s*$/.test(src.slice(Math.max(0, j - 8), j))) return guards;
    const head = src.slice(itemStart >= 0 && itemStart > j ? itemStart : j + 1, i);
    for (const g of head.split('&&')) {
      const t = g.replace(/\s+/g, ' ').trim();
      // EVAL_IN_LAMBDA only wraps the rules in a lambda for the compiler's sake.
      if (t !== '' && !t.includes('rewrite') && !t.startsWith('EVAL_IN_LAMBDA')) guards.push(t);
    }
    i = j;
  }
}

function ruleFromCall(src: string, file: string, open: number, close: number, node: string | undefined): HRule {
  const body = src.slice(open, close);
  const args = parseArgs(lex(body, open));
  if (args.length < 2 || args.length > 3) throw new SyntaxAt(`rewrite takes a left-hand side, a right-hand side and an optional predicate, but this call has ${args.length} operands`, open);
  const [lhs, rhs, pred] = args as [HExpr, HExpr, HExpr | undefined];
  const start = src.lastIndexOf('rewrite', open);
  const guards = guardsOf(src, start);
  return {
    file, line: lineAt(src, start), node: node ?? nodeOfLhs(lhs), lhs, rhs, ...(pred ? { pred } : {}), guards,
    text: `rewrite(${body.replace(/\s+/g, ' ').trim()})`, loc: locAt(src, file, start),
  };
}

// implements [HR-SYNTAX]
/** Every `rewrite(...)` of one of Halide's `Simplify_*.cpp` files, with the visitor it sits in. */
export function readHalideSource(text: string, file: string): { rules: HRule[]; unreadable: Unreadable[] } {
  const src = blankComments(text);
  const visits = [...src.matchAll(/\bvisit\s*\(\s*const\s+([A-Za-z_]+)\s*\*/g)].map((m) => ({ off: m.index, node: m[1]! }));
  const rules: HRule[] = [];
  const unreadable: Unreadable[] = [];
  for (const m of src.matchAll(/(?<![A-Za-z_0-9.>:])rewrite\s*\(/g)) {
    const open = m.index + m[0].length;
    const close = closing(src, open);
    const node = visits.filter((v) => v.off < m.index).at(-1)?.node ?? 'Unknown';
    const line = lineAt(src, m.index);
    if (close < 0) {
      unreadable.push({ file, line, node, text: src.slice(m.index, m.index + 80), error: 'the call is not closed' });
      continue;
    }
    try {
      rules.push(ruleFromCall(src, file, open, close, node));
    } catch (err) {
      if (!(err instanceof SyntaxAt)) throw err;
      unreadable.push({ file, line, node, text: src.slice(m.index, close + 1).replace(/\s+/g, ' '), error: err.message });
    }
  }
  return { rules, unreadable };
}

/**
 * A plain rule file: one `rewrite(lhs, rhs[, pred])` per line (a trailing `||`, `,` or `;` is
 * allowed, so that lines copied from a visitor read as they are), `#` starting a comment. Unlike
 * a C++ source, a file written for refsem must be well formed: an error stops the reading.
 */
export function readRuleFile(text: string, file: string): HRule[] {
  const rules: HRule[] = [];
  let off = 0;
  for (const raw of text.split('\n')) {
    const at = off;
    off += raw.length + 1;
    const line = raw.replace(/#.*$/, '').replace(/\s*(\|\||[,;])\s*$/, '');
    if (line.trim() === '') continue;
    const m = /^\s*rewrite\s*\(/.exec(line);
    const fail = (msg: string, o: number, hint?: string): never => {
      throw new UserError(msg, locAt(text, file, o), hint);
    };
    if (!m) fail('expected rewrite(lhs, rhs[, predicate])', at + (line.length - line.trimStart().length), 'each line holds one rule in Halide syntax; # starts a comment');
    const open = at + m![0].length;
    const close = closing(text, open);
    if (close < 0 || close > at + line.length) fail("this rule's parenthesis is not closed on its line", open - 1);
    if (text.slice(close + 1, at + line.length).trim() !== '') fail('unexpected text after the rule', close + 1, 'one rule per line');
    try {
      rules.push(ruleFromCall(text, file, open, close, undefined));
    } catch (err) {
      if (err instanceof SyntaxAt) fail(err.message, err.off);
      throw err;
    }
  }
  return rules;
}
