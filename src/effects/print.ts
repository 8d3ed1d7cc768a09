// Effects and location sets as text, for `refsem effects` (spec/effects.md, [EFF-SHOW]).
import { type Expr, cst, op, vr } from '../expr/ast.js';
import { normBig } from '../expr/value.js';
import { printExpr } from '../expr/print.js';
import type { EffExpr, Effect } from './effect.js';
import type { LocSet } from './locset.js';
import { derivedSets, allocated } from './locset.js';

function asExpr(e: EffExpr): Expr {
  switch (e.k) {
    case 'int':
      return cst(normBig(e.v));
    case 'var':
      return vr(e.name);
    case 'bot':
      return vr('⊥');
    case 'fn':
      return vr(e.args.length === 0 ? e.name : `${e.name}@(${e.args.map((a) => printExpr(asExpr(a), 'tgt')).join(', ')})`);
    case 'load':
      return vr(`${e.buf}[${e.args.map((a) => printExpr(asExpr(a), 'tgt')).join(', ')}]`);
    case 'op':
      return op(e.op, ...e.args.map(asExpr));
  }
}

export const showEffExpr = (e: EffExpr): string => printExpr(asExpr(e), 'tgt');

const point = (buf: string, idx: readonly EffExpr[]): string => `${buf}[${idx.map(showEffExpr).join(', ')}]`;

/** An effect (def. 3.6), one node per line, indented by nesting. */
export function showEffect(a: Effect, indent = 0): string[] {
  const pad = '  '.repeat(indent);
  switch (a.k) {
    case 'seq':
      return a.items.length === 0 ? [`${pad}∅`] : a.items.flatMap((i) => showEffect(i, indent));
    case 'guard':
      return [`${pad}Guard(${showEffExpr(a.cond)}):`, ...showEffect(a.body, indent + 1)];
    case 'loop':
      return [`${pad}Loop(${a.v}):`, ...showEffect(a.body, indent + 1)];
    case 'read':
      return [`${pad}Read(${point(a.buf, a.idx)})`];
    case 'write':
      return [`${pad}Write(${point(a.buf, a.idx)}, ${showEffExpr(a.val)})`];
    case 'reduce':
      return [`${pad}Reduce(${a.op}, ${point(a.buf, a.idx)})`];
    case 'alloc':
      return [`${pad}Alloc(${a.buf})`];
    case 'cover':
      return [`${pad}Cover(${a.buf})`];
  }
}

/** A location set (def. 3.5) as one line. */
export function showLocSet(l: LocSet): string {
  switch (l.k) {
    case 'empty':
      return '∅';
    case 'pt':
      return `{${point(l.buf, l.idx)}}`;
    case 'whole':
      return `{${l.buf}[*]}`;
    case 'union':
      return l.sets.map(showLocSet).join(' ∪ ');
    case 'bigcup':
      return `⋃${l.v}. (${showLocSet(l.set)})`;
    case 'minus':
      return `(${showLocSet(l.a)}) − (${showLocSet(l.b)})`;
    case 'filter':
      return `filter(${showEffExpr(l.cond)}, ${showLocSet(l.set)})`;
  }
}

/** implements [EFF-SHOW]: the effect and its derived sets (§3.5.5), as `refsem effects` prints them. */
export function showEffectReport(a: Effect): string {
  const s = derivedSets(a);
  const a_ = [...allocated(a)];
  return [
    'effect:', ...showEffect(a, 1),
    `A   = ${a_.length ? `{${a_.join(', ')}}` : '∅'}`,
    `Rd  = ${showLocSet(s.Rd)}`,
    `Wr  = ${showLocSet(s.Wr)}`,
    `R+  = ${showLocSet(s.RPlus)}`,
    `Mod = ${showLocSet(s.Mod)}`,
    `All = ${showLocSet(s.All)}`,
    '',
  ].join('\n');
}
