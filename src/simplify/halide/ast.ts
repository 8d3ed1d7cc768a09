// Halide's rewrite rules as data (spec/simplify.md [HR-SYNTAX]): the operands of
// `rewrite(lhs, rhs[, predicate])` in Halide's C++ simplifier, kept as written so that a rule can be
// shown, measured and checked without a C++ compiler. Names the checker does not model stay in the
// tree as they are and are counted by construct (model.ts), never dropped.
import type { Loc } from '../../diag.js';

export type HBinOp = '+' | '-' | '*' | '/' | '%' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||';

export type HExpr =
  | { readonly k: 'int'; readonly v: bigint }
  | { readonly k: 'bool'; readonly v: boolean }
  /** a wildcard (`x`, `c0`), a C++ variable (`lanes`, `a`), or a qualified name (`IRMatcher::Overflow`) */
  | { readonly k: 'id'; readonly name: string }
  | { readonly k: 'bin'; readonly op: HBinOp; readonly a: HExpr; readonly b: HExpr }
  | { readonly k: 'un'; readonly op: '!' | '-'; readonly a: HExpr }
  /** min, max, select, fold, broadcast, ramp, the predicates' helpers, and anything else called */
  | { readonly k: 'call'; readonly f: string; readonly args: readonly HExpr[] }
  /** C++ the rule language has no reading for (`op->type.element_of()`): kept as text */
  | { readonly k: 'cxx'; readonly text: string };

/** One `rewrite(...)` call: where it is, the IR node whose visitor holds it, and its operands. */
export interface HRule {
  readonly file: string;
  readonly line: number;
  /** the IR node of the enclosing `Simplify::visit(const Node *op, …)`, or of the lhs root in a rule file */
  readonly node: string;
  readonly lhs: HExpr;
  readonly rhs: HExpr;
  readonly pred?: HExpr;
  /** C++ conditions the call sits behind (`no_overflow(op->type)`, `denominator_non_zero`) */
  readonly guards: readonly string[];
  /** the call as written, one line */
  readonly text: string;
  readonly loc: Loc;
}

/** Every subterm, parents first. */
export function walkH(e: HExpr, f: (x: HExpr) => void): void {
  f(e);
  if (e.k === 'bin') {
    walkH(e.a, f);
    walkH(e.b, f);
  } else if (e.k === 'un') walkH(e.a, f);
  else if (e.k === 'call') for (const a of e.args) walkH(a, f);
}

const PREC: Readonly<Record<HBinOp, number>> = {
  '||': 1, '&&': 2, '==': 3, '!=': 3, '<': 4, '<=': 4, '>': 4, '>=': 4, '+': 5, '-': 5, '*': 6, '/': 6, '%': 6,
};

/** The text of an expression in Halide's syntax, with the parentheses its precedences need. */
export function showH(e: HExpr, outer = 0): string {
  switch (e.k) {
    case 'int':
      return e.v < 0n ? `(${e.v})` : `${e.v}`;
    case 'bool':
      return `${e.v}`;
    case 'id':
      return e.name;
    case 'cxx':
      return e.text;
    case 'un':
      return `${e.op}${showH(e.a, 7)}`;
    case 'call':
      return `${e.f}(${e.args.map((a) => showH(a)).join(', ')})`;
    case 'bin': {
      const p = PREC[e.op];
      const s = `${showH(e.a, p)} ${e.op} ${showH(e.b, p + 1)}`;
      return p < outer ? `(${s})` : s;
    }
  }
}

export const showRuleH = (r: Pick<HRule, 'lhs' | 'rhs' | 'pred'>): string =>
  `rewrite(${showH(r.lhs)}, ${showH(r.rhs)}${r.pred ? `, ${showH(r.pred)}` : ''})`;

/** `c0`, `c1`, …: wildcards that match constants only, as in Halide's IRMatch.h. */
export const isConstWild = (name: string): boolean => /^c[0-9]+$/.test(name);
