// A small lexer shared by every concrete syntax in the project (algorithms, target programs,
// schedules). Identifiers may contain dots so that qualified names such as `f.s0.x` are single
// tokens; each front end decides which identifiers it accepts.
import { type Loc, UserError } from '../diag.js';

export type TokKind = 'ident' | 'int' | 'punct' | 'eof';

export interface Token {
  readonly kind: TokKind;
  readonly text: string;
  readonly loc: Loc;
}

// Longest punctuation first, so `<-` wins over `<`.
const PUNCT = ['<-', '<=', '>=', '==', '!=', '&&', '||', '->', '=>',
  '(', ')', '[', ']', '{', '}', ',', ';', ':', '=', '<', '>', '+', '-', '*', '/', '%', '!', '?', '@', '.', '|', '\\'];

export function lex(src: string, file: string): Token[] {
  const toks: Token[] = [];
  // A byte-order mark is how some editors start a UTF-8 file; it is not part of the text, so the
  // first character after it is still line 1, column 1.
  let i = src.startsWith('\uFEFF') ? 1 : 0;
  let line = 1;
  let col = 1;
  const adv = (n: number) => {
    for (let k = 0; k < n; k++) {
      if (src[i] === '\n') {
        line++;
        col = 1;
      } else col++;
      i++;
    }
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      adv(1);
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') adv(1);
      continue;
    }
    const loc = { file, line, col };
    if (/[0-9]/.test(c)) {
      let j = i;
      while (j < src.length && /[0-9]/.test(src[j]!)) j++;
      if (j < src.length && /[A-Za-z_]/.test(src[j]!)) {
        throw new UserError(`malformed number '${src.slice(i, j + 1)}'`, loc, 'separate numbers from names with a space or an operator');
      }
      toks.push({ kind: 'int', text: src.slice(i, j), loc });
      adv(j - i);
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      for (;;) {
        while (j < src.length && /[A-Za-z0-9_']/.test(src[j]!)) j++;
        if (src[j] === '.' && j + 1 < src.length && /[A-Za-z0-9_]/.test(src[j + 1]!)) {
          j++;
          continue;
        }
        break;
      }
      toks.push({ kind: 'ident', text: src.slice(i, j), loc });
      adv(j - i);
      continue;
    }
    const p = PUNCT.find((q) => src.startsWith(q, i));
    if (p === undefined) {
      const shown = c.codePointAt(0)! < 32 ? `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}` : c;
      throw new UserError(`unexpected character '${shown}'`, loc);
    }
    toks.push({ kind: 'punct', text: p, loc });
    adv(p.length);
  }
  toks.push({ kind: 'eof', text: '<end of input>', loc: { file, line, col } });
  return toks;
}
