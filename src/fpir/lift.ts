// Lifting (Pitchfork §3.2; spec/fpir.md, [FPIR-LIFT]): rewrites integer code into FPIR with the
// lifting rules, bottom-up: children first, then the node, again and again while a rule applies
// (a rewritten node may enable another rule, as saturating_cast over widening_add does).
import type { FExpr } from './ast.js';
import { provedFor } from './bounds.js';
import { LIFTING_RULES, type RewriteRule } from './lift-rules.js';
import { type Binding, instantiate, match } from './match.js';
import { parseFpir } from './parse.js';
import { printFpir } from './print.js';

/** A rule's left side and precondition, parsed (lowering rules have intrinsic trees on the right). */
export interface ParsedLeft {
  readonly name: string;
  readonly lhs: FExpr;
  readonly pre?: FExpr;
}

export interface ParsedRule extends ParsedLeft {
  readonly rhs: FExpr;
}

export interface Rewrite {
  readonly rule: string;
  readonly before: string;
  readonly after: string;
}

const lefts = new WeakMap<RewriteRule, ParsedLeft>();
/** A rule's left side and precondition, parsed once (errors are located in the rule's name). */
export function parseLeft(r: RewriteRule): ParsedLeft {
  let p = lefts.get(r);
  if (!p) {
    p = { name: r.name, lhs: parseFpir(r.lhs, `${r.name} (left)`), ...(r.pre ? { pre: parseFpir(r.pre, `${r.name} (precondition)`) } : {}) };
    lefts.set(r, p);
  }
  return p;
}

const rights = new WeakMap<RewriteRule, FExpr>();
/** A lifting rule, both sides parsed once. */
export function parseRule(r: RewriteRule): ParsedRule {
  let rhs = rights.get(r);
  if (!rhs) rights.set(r, (rhs = parseFpir(r.rhs, `${r.name} (right)`)));
  return { ...parseLeft(r), rhs };
}

/** The most rewrites one lifting makes (the rules shrink or lift, so this is never reached). */
const MAX_REWRITES = 1000;

// implements [FPIR-LIFT]
export function lift(e: FExpr, rules: readonly RewriteRule[] = LIFTING_RULES): { expr: FExpr; applied: Rewrite[] } {
  const applied: Rewrite[] = [];
  const ps = rules.map(parseRule);
  const atRoot = (x: FExpr): FExpr => {
    for (const r of ps) {
      const b: Binding = new Map();
      if (!match(r.lhs, x, b) || !provedFor(r.pre, b)) continue;
      const y = instantiate(r.rhs, b);
      if (!y) continue;
      applied.push({ rule: r.name, before: printFpir(x), after: printFpir(y) });
      if (applied.length > MAX_REWRITES) throw new Error(`lifting did not terminate: ${r.name}`);
      return go(y);
    }
    return x;
  };
  const go = (x: FExpr): FExpr => {
    switch (x.k) {
      case 'var':
      case 'const':
        return x;
      case 'cast':
        return atRoot({ ...x, arg: go(x.arg) });
      default:
        return atRoot({ ...x, args: x.args.map(go) } as FExpr);
    }
  };
  return { expr: go(e), applied };
}
