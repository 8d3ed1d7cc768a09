// The printer (spec/swizzle.md, [SWZ-SYNTAX]): prints a program, holes as written or filled with a
// chosen gather, in the syntax the parser reads back.
import type { Filling, SwzProgram } from './ast.js';
import type { OptVal } from './gathers.js';
import { type Shape, showShape } from './shape.js';
import type { Terms } from './term.js';

/** A nested literal of terms, row-major. */
export function showArray(terms: Terms, vals: ArrayLike<number>, shape: Shape): string {
  let k = 0;
  const level = (d: number): string => {
    const items: string[] = [];
    for (let i = 0; i < shape[d]!; i++) items.push(d + 1 < shape.length ? level(d + 1) : terms.show(vals[k++]!));
    return `[${items.join(', ')}]`;
  };
  return level(0);
}

function showOpts(opts: ReadonlyMap<string, OptVal>): string {
  if (opts.size === 0) return '';
  return `{${[...opts].map(([k, v]) => `${k}=${typeof v === 'number' ? v : `[${v.join(', ')}]`}`).join(', ')}}`;
}

/** The program; with a filling, each hole is replaced by its chosen gather. */
export function printSwizzle(p: SwzProgram, filling?: Filling): string {
  const lines: string[] = [];
  let h = 0;
  for (const s of p.stmts) {
    let rhs: string;
    switch (s.rhs.k) {
      case 'lit':
        rhs = showArray(p.terms, s.rhs.terms, s.shape);
        break;
      case 'fold':
        rhs = `fold ${p.stmts[s.rhs.arg]!.name}`;
        break;
      case 'gather': {
        const args = `(${s.rhs.args.map((a) => p.stmts[a]!.name).join(', ')})`;
        if (s.rhs.hole === undefined) rhs = `${s.rhs.choices[0]!.name}${args}`;
        else if (filling) rhs = `${s.rhs.choices[filling[h++]!]!.name}${args}`;
        else rhs = `?${s.rhs.fn}${showOpts(s.rhs.opts)}${args}`;
        break;
      }
    }
    lines.push(`${s.name}: ${showShape(s.shape)} = ${rhs}`);
  }
  const g = p.goal;
  if (g) lines.push(`goal ${p.stmts[g.stmt]!.name} = ${g.builtin ?? showArray(p.terms, g.terms, p.stmts[g.stmt]!.shape)}`);
  return `${lines.join('\n')}\n`;
}
