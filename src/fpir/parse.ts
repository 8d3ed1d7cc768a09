// FPIR's concrete syntax (spec/fpir.md, [FPIR-SYNTAX]): C-like infix for the primitive operations,
// `u8(x)` for a wrapping cast, `saturating_cast<u8>(x)` and `op(a, b, …)` for instructions, and
// variables whose type is their suffix (`x_u8`, Pitchfork's wildcard notation of §3.2). A literal
// takes the type of the operand it meets; a literal nothing gives a type to is an error.
import { UserError, type Loc } from '../diag.js';
import { FP_OPS, type FExpr, type FpOp, type PrimOp } from './ast.js';
import { TYPING, mkCast, mkFp, mkPrim, mkSelect } from './typing.js';
import { INT_TYPES, type ScalarType, inRange, typeName, typeNamed, withSign } from './types.js';

const SYNTAX = 'FPIR-SYNTAX';

interface Token {
  readonly t: 'int' | 'id' | 'sym' | 'end';
  readonly s: string;
  readonly loc: Loc;
}

const SYMS = ['<<', '>>', '<=', '>=', '==', '!=', '+', '-', '*', '/', '%', '&', '|', '^', '<', '>', '(', ')', ','];

function lex(text: string, file: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  let col = 1;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      col = 1;
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      col++;
      continue;
    }
    const loc = { file, line, col };
    const m = /^(?:[0-9]+|[A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i));
    const sym = m ? undefined : SYMS.find((s) => text.startsWith(s, i));
    const s = m?.[0] ?? sym;
    if (s === undefined) throw new UserError(`[${SYNTAX}] unexpected character '${c}'`, loc);
    out.push({ t: m ? (/^[0-9]/.test(s) ? 'int' : 'id') : 'sym', s, loc });
    i += s.length;
    col += s.length;
  }
  out.push({ t: 'end', s: '', loc: { file, line, col } });
  return out;
}

/** A parsed node whose type may still be open: an untyped literal. */
type Node = FExpr | { readonly k: 'lit'; readonly value: bigint; readonly loc: Loc };

const BINARY: readonly (readonly PrimOp[])[] = [['<', '<=', '>', '>=', '==', '!='], ['|'], ['^'], ['&'], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];

/** The narrowest type that holds `v`, unsigned first at each width: what a hint may suggest. */
const narrowestHolding = (v: bigint): ScalarType | undefined => INT_TYPES.find((t) => inRange(v, t));

/** A literal with the narrowest type that holds it, as a hint writes it: `u16(300)`. */
function typedExample(v: bigint): string {
  const t = narrowestHolding(v);
  return t ? `${typeName(t)}(${v})` : `a value within i64 or u64 (${v} fits no integer type)`;
}

/** A literal given the type `t`: it must fit. */
function typed(n: Node, t: ScalarType): FExpr {
  if (n.k !== 'lit') return n;
  if (!inRange(n.value, t)) {
    const fit = narrowestHolding(n.value);
    const hint = fit ? `use a value within ${typeName(t)}, or make the other operand ${typeName(fit)} or wider (e.g. ${typeName(fit)}(…) around it)` : `${n.value} fits no integer type; use a value within ${typeName(t)}`;
    throw new UserError(`[${TYPING}] literal ${n.value} does not fit ${typeName(t)}`, n.loc, hint);
  }
  return { k: 'const', value: n.value, type: t, loc: n.loc };
}

function closed(n: Node): FExpr {
  if (n.k === 'lit') throw new UserError(`[${TYPING}] cannot tell the type of literal ${n.value}`, n.loc, `give it one, e.g. ${typedExample(n.value)}`);
  return n;
}

/** The type a literal operand of a shift-like position takes: the operand's width, signed if negative. */
const amountType = (x: FExpr, lit: Node): ScalarType => withSign(x.type, lit.k === 'lit' && lit.value < 0n ? true : x.type.signed);

class Parser {
  private pos = 0;
  constructor(private readonly toks: readonly Token[]) {}

  private peek(): Token {
    return this.toks[this.pos]!;
  }
  private next(): Token {
    return this.toks[this.pos++]!;
  }
  private expect(s: string): Token {
    const t = this.next();
    if (t.s !== s || t.t === 'end') throw new UserError(`[${SYNTAX}] expected '${s}', found ${t.t === 'end' ? 'the end' : `'${t.s}'`}`, t.loc);
    return t;
  }

  top(): FExpr {
    const e = closed(this.expr(0));
    const t = this.peek();
    if (t.t !== 'end') throw new UserError(`[${SYNTAX}] unexpected '${t.s}' after the expression`, t.loc);
    return e;
  }

  private expr(level: number): Node {
    if (level === BINARY.length) return this.unary();
    let a = this.expr(level + 1);
    for (;;) {
      const t = this.peek();
      const op = BINARY[level]!.find((o) => o === t.s && t.t === 'sym');
      if (!op) return a;
      this.next();
      const b = this.expr(level + 1);
      a = this.binary(op, a, b, t.loc);
      // Comparisons do not chain: `a < b < c` compares a bool with an integer.
      if (level === 0) return a;
    }
  }

  private binary(op: PrimOp, a: Node, b: Node, loc: Loc): FExpr {
    if (op === '<<' || op === '>>') {
      const x = closed(a);
      return mkPrim(op, x, typed(b, amountType(x, b)), loc);
    }
    if (a.k === 'lit' && b.k === 'lit') throw new UserError(`[${TYPING}] cannot tell the type of ${a.value} ${op} ${b.value}`, loc, `give one literal a type, e.g. ${typedExample(a.value)}`);
    const t = a.k !== 'lit' ? a.type : (b as FExpr).type;
    return mkPrim(op, typed(a, t), typed(b, t), loc);
  }

  private unary(): Node {
    const t = this.peek();
    if (t.s === '-' && t.t === 'sym') {
      this.next();
      const x = this.unary();
      if (x.k === 'lit') return { ...x, value: -x.value, loc: t.loc };
      return mkPrim('-', { k: 'const', value: 0n, type: x.type, loc: t.loc }, x, t.loc);
    }
    return this.primary();
  }

  private args(): Node[] {
    this.expect('(');
    const out: Node[] = [];
    if (this.peek().s !== ')') {
      out.push(this.expr(0));
      while (this.peek().s === ',') {
        this.next();
        out.push(this.expr(0));
      }
    }
    this.expect(')');
    return out;
  }

  private primary(): Node {
    const t = this.next();
    if (t.t === 'int') return { k: 'lit', value: BigInt(t.s), loc: t.loc };
    if (t.s === '(' && t.t === 'sym') {
      const e = this.expr(0);
      this.expect(')');
      return e;
    }
    if (t.t !== 'id') throw new UserError(`[${SYNTAX}] expected an expression, found ${t.t === 'end' ? 'the end' : `'${t.s}'`}`, t.loc);
    const castTo = typeNamed(t.s);
    if (castTo && castTo.bits !== 1) {
      const [x, ...rest] = this.args();
      if (!x || rest.length > 0) throw new UserError(`[${SYNTAX}] a cast takes one operand`, t.loc);
      return x.k === 'lit' ? typed(x, castTo) : mkCast(castTo, x, t.loc);
    }
    if (t.s === 'min' || t.s === 'max') {
      const xs = this.args();
      if (xs.length !== 2) throw new UserError(`[${SYNTAX}] ${t.s} takes two operands`, t.loc);
      return this.binary(t.s, xs[0]!, xs[1]!, t.loc);
    }
    if (t.s === 'select') {
      const xs = this.args();
      if (xs.length !== 3) throw new UserError(`[${SYNTAX}] select takes three operands`, t.loc);
      const c = closed(xs[0]!);
      const known = [xs[1]!, xs[2]!].find((x): x is FExpr => x.k !== 'lit');
      if (!known) throw new UserError(`[${TYPING}] cannot tell the type of select's branches`, t.loc, 'give a literal a type, e.g. u8(0)');
      return mkSelect(c, typed(xs[1]!, known.type), typed(xs[2]!, known.type), t.loc);
    }
    if ((FP_OPS as readonly string[]).includes(t.s)) return this.instruction(t.s as FpOp, t.loc);
    const m = /^([A-Za-z][A-Za-z0-9]*)_([a-z0-9]+)$/.exec(t.s);
    const vt = m ? typeNamed(m[2]!) : undefined;
    if (!vt) {
      throw new UserError(`[${SYNTAX}] '${t.s}' is no variable, type or instruction`, t.loc, `variables carry their type as a suffix (x_u8, y_i16); instructions: ${FP_OPS.join(', ')}`);
    }
    return { k: 'var', name: t.s, type: vt, loc: t.loc };
  }

  private instruction(op: FpOp, loc: Loc): FExpr {
    let target: ScalarType | undefined;
    if (this.peek().s === '<') {
      this.next();
      const tt = this.next();
      target = typeNamed(tt.s);
      if (!target || target.bits === 1) throw new UserError(`[${SYNTAX}] '${tt.s}' is no integer type`, tt.loc, 'the types are u8 i8 u16 i16 u32 i32 u64 i64');
      this.expect('>');
    }
    const raw = this.args();
    const first = raw.find((x): x is FExpr => x.k !== 'lit');
    if (!first) throw new UserError(`[${TYPING}] cannot tell the operand types of ${op}`, loc, 'give a literal a type, e.g. u8(3)');
    const args = raw.map((x, i) => {
      if (x.k !== 'lit') return x;
      // extending_*: the second operand has half the bits of the first.
      if (op.startsWith('extending_') && i === 1) return typed(x, { signed: first.type.signed, bits: (first.type.bits / 2) as 8 | 16 | 32 });
      return typed(x, amountType(first, x));
    });
    return mkFp(op, args, target, loc);
  }
}

/** Parses an FPIR expression; errors are located in `file`. */
export function parseFpir(text: string, file = '<fpir>'): FExpr {
  return new Parser(lex(text, file)).top();
}
