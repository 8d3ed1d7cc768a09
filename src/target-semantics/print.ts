// Printing Tgt / Tgt? in the concrete syntax of parse.ts; parseTgt(printTgt(p)) = p up to
// locations (property-tested in test/target-semantics/syntax.test.ts).
import { refKey } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import type { BoundsHint, Stmt, TgtProgram } from './ast.js';

const ex = (e: Parameters<typeof printExpr>[0]) => printExpr(e, 'tgt');

export function printTgt(p: TgtProgram, mark: Mark = noMark): string {
  const win = p.window.map((w) => `${w.dim} in (${w.min}, ${w.len})`).join(', ');
  const head = `pipeline ${p.output}(${p.params.join(', ')}${win ? `; ${win}` : ''})`;
  const hints = (p.hints ?? []).map((h) => `\n  hint ${printHint(h)}`).join('');
  return `${head}${hints}:\n${printStmt(p.body, 0, mark)}\n`;
}

function printHint(h: BoundsHint): string {
  switch (h.k) {
    case 'bound':
      return `bound ${h.func}.${h.dim} in (${ex(h.min)}, ${ex(h.len)})`;
    case 'bound-extent':
      return `bound-extent ${h.func}.${h.dim} ${ex(h.len)}`;
    case 'align-bounds':
      return `align-bounds ${h.func}.${h.dim} (${ex(h.modulus)}, ${ex(h.remainder)})`;
  }
}

/**
 * The program's text and the line (from 0) each statement starts on, for views that follow a run
 * through the program ([REPORT-STEPPER]). Printing marks where each statement starts; the marks
 * are read off and removed, so the text is exactly `printTgt`'s.
 */
export function printTgtLines(p: TgtProgram): { text: string; lineOf: Map<Stmt, number> } {
  const marked: Stmt[] = [];
  const mark = (s: Stmt) => `\u0001${marked.push(s) - 1}\u0002`;
  const lineOf = new Map<Stmt, number>();
  const lines = printTgt(p, mark)
    .split('\n')
    .map((line, n) => line.replace(/\u0001(\d+)\u0002/g, (_, i: string) => (lineOf.set(marked[Number(i)]!, n), '')));
  return { text: lines.join('\n'), lineOf };
}

/** Text put where a statement starts (`printTgtLines`); none in plain printing. */
type Mark = (s: Stmt) => string;
const noMark: Mark = () => '';

/** A statement, indented by `ind` spaces, nested statements two more. */
export function printStmt(s: Stmt, ind = 0, mark: Mark = noMark): string {
  const pad = ' '.repeat(ind);
  return pad + printBare(s, ind, false, mark);
}

/** `open`: an `else` follows this statement, so a trailing `if` must print its own else. */
function printBare(s: Stmt, ind: number, open: boolean, mark: Mark): string {
  return mark(s) + printBody(s, ind, open, mark);
}

function printBody(s: Stmt, ind: number, open: boolean, mark: Mark): string {
  switch (s.k) {
    case 'nop':
      return 'nop';
    case 'assert':
      return `assert ${ex(s.cond)}`;
    case 'seq': {
      if (s.body.length === 0) return '{}';
      const pad = ' '.repeat(ind);
      return `{\n${s.body.map((b) => printStmt(b, ind + 2, mark)).join(';\n')}\n${pad}}`;
    }
    case 'allocate':
      return `allocate ${s.func}(${s.dims.map((d) => `${d.dim} in (${ex(d.min)}, ${ex(d.len)})`).join(', ')})`;
    case 'store':
      return `${s.func}${refKey(s.ref)}[${s.idx.map(ex).join(', ')}] <- ${ex(s.value)}`;
    case 'if': {
      // A nop else branch is the parser's default and is omitted, unless an outer else follows.
      const withElse = open || s.else.k !== 'nop';
      const head = `if ${ex(s.cond)} then ${printBare(s.then, ind, withElse, mark)}`;
      return withElse ? `${head} else ${printBare(s.else, ind, open, mark)}` : head;
    }
    case 'for':
      return `for ${s.trav === 'serial' ? '' : s.trav + ' '}${s.var} in (${ex(s.min)}, ${ex(s.len)}) do${nested(s.body, ind, open, mark)}`;
    case 'let':
      return `let ${s.var} = ${ex(s.value)} in${nested(s.body, ind, open, mark)}`;
    case 'label':
      return `label ${s.name}:${nested(s.body, ind, open, mark)}`;
  }
}

/** The body of a loop, let or label: a block or a simple statement stays on the line, a compound one is indented below. */
function nested(s: Stmt, ind: number, open: boolean, mark: Mark): string {
  const inline = s.k !== 'for' && s.k !== 'let' && s.k !== 'label' && s.k !== 'if';
  return inline ? ` ${printBare(s, ind, open, mark)}` : `\n${' '.repeat(ind + 2)}${printBare(s, ind + 2, open, mark)}`;
}

/** The head of a statement, for stuck-state sites and traces: nested statements shown as `…`. */
export function printHead(s: Stmt): string {
  switch (s.k) {
    case 'seq':
      return '{ … }';
    case 'if':
      return `if ${ex(s.cond)} then …`;
    case 'for':
      return `for ${s.trav === 'serial' ? '' : s.trav + ' '}${s.var} in (${ex(s.min)}, ${ex(s.len)}) do …`;
    case 'let':
      return `let ${s.var} = ${ex(s.value)} in …`;
    case 'label':
      return `label ${s.name}: …`;
    default:
      return printBare(s, 0, false, noMark);
  }
}
