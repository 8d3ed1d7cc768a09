// The text form of rules (spec/simplify.md [SIMP-RULE]): one rule per `;`, written
//
//     DOMAIN NAME: LHS -> RHS [if PRED];
//
// with DOMAIN `values` or `integers`, NAME words joined by dashes, and LHS, RHS and PRED in the
// expression language of spec/expr.md. Errors are located in the rule text, like every other
// front end's.
import { type Loc, UserError } from '../diag.js';
import type { Expr } from '../expr/ast.js';
import { Cursor, parseExpr } from '../expr/parse.js';
import { walkExpr } from '../expr/ast.js';
import { type Domain, type Rule, isConstWildcard, wildcards } from './rule.js';

const DOMAINS: readonly Domain[] = ['values', 'integers'];
const OPERATOR_HINT = 'the operators are + - * / % && || ! < > == <= >= != and select, min, max';

/** A rule name: words joined by dashes, written without spaces (`add-zero`, `min-self`). */
function ruleName(c: Cursor): string {
  const first = c.ident('a rule name');
  if (first.text.includes('.')) throw new UserError(`'${first.text}' cannot be used as a rule name`, first.loc, 'rule names are words of letters and digits joined by dashes');
  let name = first.text;
  for (;;) {
    const dash = c.peek();
    const word = c.peek(1);
    const adjacent = (a: Loc, b: Loc, len: number) => a.line === b.line && a.col + len === b.col;
    if (!c.is('-') || (word.kind !== 'ident' && word.kind !== 'int') || !adjacent(dash.loc, word.loc, 1)) return name;
    c.next();
    name += `-${c.next().text}`;
  }
}

/** Only the operators of fig. 2.5b may appear: a call of anything else is an unknown operator. */
function operatorsOnly(e: Expr): void {
  walkExpr(e, (x) => {
    if (x.k === 'access') throw new UserError(`unknown operator '${x.func}'`, x.loc, OPERATOR_HINT);
  });
}

// implements [SIMP-RULE]: the rule format and the conditions every rule must meet
function parseRule(c: Cursor, seen: Set<string>): Rule {
  const dt = c.ident(`a domain (${DOMAINS.join(' or ')})`);
  const domain = DOMAINS.find((d) => d === dt.text);
  if (domain === undefined) throw new UserError(`unknown domain '${dt.text}'`, dt.loc, `a rule starts with its domain: ${DOMAINS.join(' or ')}`);
  const nameLoc = c.loc;
  const name = ruleName(c);
  if (seen.has(name)) throw new UserError(`a second rule named '${name}'`, nameLoc, 'rule names must be unique: traces and reports name rules by them');
  seen.add(name);
  c.expect(':', 'write DOMAIN NAME: LHS -> RHS');
  const lhs = parseExpr(c, 'alg');
  c.expect('->', 'a rule rewrites its left-hand side to its right-hand side: LHS -> RHS');
  const rhs = parseExpr(c, 'alg');
  const pred = c.accept('if') ? parseExpr(c, 'alg') : undefined;
  c.expect(';', 'end each rule with a semicolon');
  for (const e of [lhs, rhs, ...(pred ? [pred] : [])]) operatorsOnly(e);
  if (lhs.k !== 'op') {
    throw new UserError(`the left-hand side of '${name}' is not an operator application`, lhs.loc ?? nameLoc, 'a rule rewrites an operator applied to patterns, not a bare wildcard or constant');
  }
  const l = wildcards(lhs);
  const r = wildcards(rhs);
  for (const v of [...r.terms, ...r.consts]) {
    if (!l.terms.has(v) && !l.consts.has(v)) throw new UserError(`'${v}' occurs on the right of '${name}' but not on its left`, rhs.loc ?? nameLoc, 'every wildcard of the right-hand side must be bound by the left-hand side');
  }
  if (pred) {
    walkExpr(pred, (x) => {
      if (x.k !== 'var') return;
      if (!isConstWildcard(x.name)) throw new UserError(`the predicate of '${name}' names '${x.name}', which is not a constant wildcard`, x.loc ?? nameLoc, 'predicates may only test constant wildcards (c0, c1, …)');
      if (!l.consts.has(x.name)) throw new UserError(`the predicate of '${name}' names '${x.name}', which its left-hand side does not bind`, x.loc ?? nameLoc);
    });
  }
  return { name, domain, lhs, rhs, ...(pred ? { pred } : {}), loc: dt.loc };
}

/** Parses a whole rule file. */
export function parseRules(src: string, file: string): Rule[] {
  const c = Cursor.of(src, file);
  const seen = new Set<string>();
  const rules: Rule[] = [];
  while (!c.atEnd()) rules.push(parseRule(c, seen));
  return rules;
}
