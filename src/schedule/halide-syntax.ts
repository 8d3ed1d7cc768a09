// The syntax of Halide-style schedules (`.halide` files; spec/halide-schedules.md, [HALIDE-STYLE]): the
// scheduling calls as a Halide user writes them in C++ or Python, one chain per func,
// `blur_x.compute_at(blur_y, xo).vectorize(x, 8);`. This module only reads the text into chains
// of calls with their locations; what the calls mean is halide-style.ts's business.
import { type Loc, UserError } from '../diag.js';

/**
 * An argument: an integer, a (possibly qualified) name, a call such as `LoopLevel(g, x, 1)`,
 * arithmetic, or a list: C++'s braces `{{r, u}, …}`, Python's `[(r, u), …]` (rfactor's list form).
 */
export type HalideArg =
  | { readonly k: 'int'; readonly value: bigint; readonly loc: Loc }
  | { readonly k: 'name'; readonly parts: readonly string[]; readonly loc: Loc }
  | { readonly k: 'call'; readonly parts: readonly string[]; readonly args: readonly HalideArg[]; readonly loc: Loc }
  | { readonly k: 'op'; readonly op: '+' | '-' | '*'; readonly args: readonly HalideArg[]; readonly loc: Loc }
  | { readonly k: 'list'; readonly items: readonly HalideArg[]; readonly loc: Loc };

export interface HalideCall {
  readonly name: string;
  readonly args: readonly HalideArg[];
  /** 0 for the pure definition; i + 1 after `.update(i)` in the chain. */
  readonly stage: number;
  readonly loc: Loc;
  /** The call as written, for messages. */
  readonly text: string;
  /** For a call chained after `rfactor(…)`: that call, whose intermediate func this call schedules. */
  readonly of?: HalideCall;
}

export interface HalideChain {
  readonly func: string;
  readonly loc: Loc;
  readonly calls: readonly HalideCall[];
}

interface Tok {
  readonly kind: 'name' | 'int' | 'punct' | 'eof';
  readonly text: string;
  readonly loc: Loc;
  readonly offset: number;
}

const PUNCT = ['::', '.', '(', ')', ',', ';', '+', '-', '*', '{', '}', '[', ']'];

/** Tokens of the text: `#` and `//` comments, whitespace and `\` line continuations are skipped. */
function lex(src: string, file: string): Tok[] {
  const out: Tok[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const loc = (at: number): Loc => ({ file, line, col: at - lineStart + 1 });
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
    } else if (/\s|\\/.test(c)) i++;
    else if (c === '#' || src.startsWith('//', i)) {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))![0];
      out.push({ kind: 'name', text: m, loc: loc(i), offset: i });
      i += m.length;
    } else if (/[0-9]/.test(c)) {
      const float = /^[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)|^[0-9]+\.[0-9]*/.exec(src.slice(i))?.[0];
      if (float !== undefined) {
        const v = Number(float);
        const exact = Number.isSafeInteger(v) ? ` (${BigInt(v)})` : '';
        throw new UserError(`'${float}' is a floating-point number; the arguments of schedule calls are integers`, loc(i), `write it as an integer${exact}`);
      }
      const m = /^[0-9]+/.exec(src.slice(i))![0];
      out.push({ kind: 'int', text: m, loc: loc(i), offset: i });
      i += m.length;
    } else {
      const p = PUNCT.find((q) => src.startsWith(q, i));
      if (!p) throw new UserError(`unexpected character '${c}' in a Halide schedule`, loc(i), 'a Halide-style schedule is a list of calls such as f.compute_root(); or g.split(x, xo, xi, 8)');
      out.push({ kind: 'punct', text: p, loc: loc(i), offset: i });
      i += p.length;
    }
  }
  out.push({ kind: 'eof', text: 'the end of the file', loc: loc(i), offset: i });
  return out;
}

/** Reads a Halide-style schedule into one chain per statement. */
export function parseHalideSchedule(src: string, file: string): HalideChain[] {
  // implements [HALIDE-STYLE]
  const toks = lex(src, file);
  let pos = 0;
  const peek = () => toks[pos]!;
  const is = (text: string) => peek().kind === 'punct' && peek().text === text;
  const fail = (what: string, hint?: string): never => {
    const t = peek();
    throw new UserError(`expected ${what}, found ${t.kind === 'eof' ? t.text : `'${t.text}'`}`, t.loc, hint);
  };
  const expect = (text: string, hint?: string) => (is(text) ? toks[pos++]! : fail(`'${text}'`, hint));
  const name = (what: string) => (peek().kind === 'name' ? toks[pos++]! : fail(what));

  const qualified = (): string[] => {
    const parts = [name('a name').text];
    while ((is('.') || is('::')) && toks[pos + 1]?.kind === 'name') {
      pos++;
      parts.push(toks[pos++]!.text);
    }
    return parts;
  };
  /** The arguments of call `of`, from its '(' to its ')'. */
  const args = (of: string): HalideArg[] => {
    expect('(');
    const out: HalideArg[] = [];
    if (!is(')')) {
      do out.push(sum());
      while (is(',') && ++pos);
    }
    if (!is(')')) fail(`',' or ')' after an argument of ${of}(…)`, 'arguments are separated by commas and closed by )');
    pos++;
    return out;
  };
  const atom = (): HalideArg => {
    const t = peek();
    if (t.kind === 'int') {
      pos++;
      return { k: 'int', value: BigInt(t.text), loc: t.loc };
    }
    if (is('{') || is('[')) {
      const close = is('{') ? '}' : ']';
      pos++;
      return { k: 'list', items: items(close), loc: t.loc };
    }
    if (is('(')) {
      pos++;
      const e = sum();
      // `(r, u)`: a Python tuple, a list of its items
      if (is(',')) return { k: 'list', items: [e, ...(pos++, items(')'))], loc: t.loc };
      expect(')');
      return e;
    }
    if (is('-')) {
      pos++;
      // A negated literal is the literal it reads as (echoed as -4, not 0 - 4); other negations are 0 - e.
      const e = atom();
      return e.k === 'int' ? { k: 'int', value: -e.value, loc: t.loc } : { k: 'op', op: '-', args: [{ k: 'int', value: 0n, loc: t.loc }, e], loc: t.loc };
    }
    if (t.kind !== 'name') return fail('an argument (a name, an integer or an expression)');
    const parts = qualified();
    return is('(') ? { k: 'call', parts, args: args(parts.join('.')), loc: t.loc } : { k: 'name', parts, loc: t.loc };
  };
  /** The items of a list up to its closing bracket `close`. */
  const items = (close: string): HalideArg[] => {
    const out: HalideArg[] = [];
    while (!is(close)) {
      out.push(sum());
      if (!is(close)) expect(',', `the items of a list are separated by commas and closed by ${close}`);
    }
    pos++;
    return out;
  };
  const binary = (ops: readonly ('+' | '-' | '*')[], next: () => HalideArg) => (): HalideArg => {
    let e = next();
    for (let o = ops.find(is); o; o = ops.find(is)) {
      pos++;
      e = { k: 'op', op: o, args: [e, next()], loc: e.loc };
    }
    return e;
  };
  const sum = binary(['+', '-'], binary(['*'], atom));

  const chains: HalideChain[] = [];
  while (peek().kind !== 'eof') {
    if (is(';')) {
      pos++;
      continue;
    }
    const head = name('a func name starting a chain of calls, such as blur_x.compute_root()');
    const calls: HalideCall[] = [];
    let stage = 0;
    // Halide's rfactor returns its intermediate func: the calls chained after it schedule that func.
    let of: HalideCall | undefined;
    while (is('.')) {
      pos++;
      const n = name('the name of a scheduling call after .');
      if (!is('(')) fail(`'(' after ${n.text}`, `scheduling calls are written ${n.text}(…)`);
      const a = args(n.text);
      const text = src.slice(n.offset, toks[pos - 1]!.offset + 1);
      if (n.text === 'update') {
        const i = a.length === 0 ? 0n : a.length === 1 && a[0]!.k === 'int' ? a[0]!.value : undefined;
        if (i === undefined) throw new UserError(`${text}: update takes the index of an update definition, an integer`, n.loc, 'write .update() or .update(1)');
        stage = Number(i) + 1;
        continue;
      }
      const call: HalideCall = { name: n.text, args: a, stage, loc: n.loc, text, ...(of ? { of } : {}) };
      calls.push(call);
      if (n.text === 'rfactor' && !of) (of = call), (stage = 0);
    }
    if (calls.length === 0) fail(`a scheduling call after '${head.text}'`, `write ${head.text}.compute_root() or another scheduling call`);
    chains.push({ func: head.text, loc: head.loc, calls });
  }
  return chains;
}
