// Location sets (def. 3.5) and the sets of locations an effect reads, writes, reduces and
// allocates (def. 3.7, §3.5.5). Buffers are named statically in refsem's target language, so the
// allocation set A is a set of buffer names and subtracting it prunes points of those buffers.
import type { OpName } from '../expr/ast.js';
import type { EffExpr, Effect } from './effect.js';

export type LocSet =
  | { readonly k: 'empty' }
  /** `val`: for a written point, the value written there ([EFF-VALUE]) */
  | { readonly k: 'pt'; readonly buf: string; readonly idx: readonly EffExpr[]; readonly val?: EffExpr }
  | { readonly k: 'whole'; readonly buf: string }
  | { readonly k: 'union'; readonly sets: readonly LocSet[] }
  | { readonly k: 'bigcup'; readonly v: string; readonly set: LocSet }
  | { readonly k: 'minus'; readonly a: LocSet; readonly b: LocSet }
  | { readonly k: 'filter'; readonly cond: EffExpr; readonly set: LocSet };

export const EMPTY: LocSet = { k: 'empty' };

function union(sets: LocSet[]): LocSet {
  const parts = sets.filter((s) => s.k !== 'empty');
  return parts.length === 0 ? EMPTY : parts.length === 1 ? parts[0]! : { k: 'union', sets: parts };
}

function minus(a: LocSet, b: LocSet): LocSet {
  return a.k === 'empty' || b.k === 'empty' ? a : { k: 'minus', a, b };
}

/** The buffers a set can contain a point of. */
export function buffersOf(l: LocSet, out: Set<string> = new Set()): Set<string> {
  switch (l.k) {
    case 'pt':
    case 'whole':
      out.add(l.buf);
      break;
    case 'union':
      for (const s of l.sets) buffersOf(s, out);
      break;
    case 'bigcup':
    case 'filter':
      buffersOf(l.set, out);
      break;
    case 'minus':
      buffersOf(l.a, out);
      break;
    default:
      break;
  }
  return out;
}

/** L − A for a set A of whole buffers: the points of those buffers removed. */
function withoutBuffers(l: LocSet, bufs: ReadonlySet<string>): LocSet {
  if (bufs.size === 0) return l;
  switch (l.k) {
    case 'empty':
      return l;
    case 'pt':
    case 'whole':
      return bufs.has(l.buf) ? EMPTY : l;
    case 'union':
      return union(l.sets.map((s) => withoutBuffers(s, bufs)));
    case 'bigcup': {
      const s = withoutBuffers(l.set, bufs);
      return s.k === 'empty' ? EMPTY : { ...l, set: s };
    }
    case 'filter': {
      const s = withoutBuffers(l.set, bufs);
      return s.k === 'empty' ? EMPTY : { ...l, set: s };
    }
    case 'minus':
      return minus(withoutBuffers(l.a, bufs), l.b);
  }
}

/** implements [EFF-ALLOC]: A (§3.5.5): the buffers an effect allocates for what follows it. */
export function allocated(a: Effect, out: Set<string> = new Set()): Set<string> {
  if (a.k === 'alloc') out.add(a.buf);
  else if (a.k === 'seq') for (const i of a.items) allocated(i, out);
  return out;
}

type Leaf = (a: Effect) => LocSet;

/** The common cases of def. 3.7 (guards filter, loops take the union over the variable). */
function collect(a: Effect, leaf: Leaf, seqOf: (items: readonly Effect[]) => LocSet): LocSet {
  switch (a.k) {
    case 'guard': {
      const s = collect(a.body, leaf, seqOf);
      return s.k === 'empty' ? EMPTY : { k: 'filter', cond: a.cond, set: s };
    }
    case 'loop': {
      const s = collect(a.body, leaf, seqOf);
      return s.k === 'empty' ? EMPTY : { k: 'bigcup', v: a.v, set: s };
    }
    case 'seq':
      return seqOf(a.items);
    default:
      return leaf(a);
  }
}

/** Wr_H (def. 3.7): Wr(a₁; a₂) = Wr(a₁) ∪ (Wr(a₂) − A(a₁)). */
export function writes(a: Effect): LocSet {
  const leaf: Leaf = (e) => (e.k === 'write' ? { k: 'pt', buf: e.buf, idx: e.idx, val: e.val } : e.k === 'cover' ? { k: 'whole', buf: e.buf } : EMPTY);
  const seqOf = (items: readonly Effect[]): LocSet => afterAllocs(items, (i) => collect(i, leaf, seqOf));
  return collect(a, leaf, seqOf);
}

/** R+_H for operator ⊕ (def. 3.7, one set per operator, [EFF-REDUCE]). */
export function reduces(a: Effect, op?: OpName): LocSet {
  const leaf: Leaf = (e) => (e.k === 'reduce' && (op === undefined || e.op === op) ? { k: 'pt', buf: e.buf, idx: e.idx } : EMPTY);
  const seqOf = (items: readonly Effect[]): LocSet => afterAllocs(items, (i) => collect(i, leaf, seqOf));
  return collect(a, leaf, seqOf);
}

/** Rd_H (def. 3.7): Rd(a₁; a₂) = Rd(a₁) ∪ (Rd(a₂) − Wr(a₁) − A(a₁)): the reads not satisfied by earlier writes. */
export function reads(a: Effect): LocSet {
  const leaf: Leaf = (e) => (e.k === 'read' ? { k: 'pt', buf: e.buf, idx: e.idx } : EMPTY);
  const seqOf = (items: readonly Effect[]): LocSet => {
    if (items.length === 0) return EMPTY;
    const [first, ...rest] = items as [Effect, ...Effect[]];
    const tail = withoutBuffers(seqOf(rest), allocated(first));
    return union([collect(first, leaf, seqOf), minus(tail, writes(first))]);
  };
  return collect(a, leaf, seqOf);
}

/** F(a₁; …; aₙ) = F(a₁) ∪ (F(a₂; …) − A(a₁)). */
function afterAllocs(items: readonly Effect[], f: (a: Effect) => LocSet): LocSet {
  if (items.length === 0) return EMPTY;
  const [first, ...rest] = items as [Effect, ...Effect[]];
  return union([f(first), withoutBuffers(afterAllocs(rest, f), allocated(first))]);
}

/** The six derived sets of §3.5.5 (refsem has no globals, so Rd = Rd_H and Wr = Wr_H). */
export interface DerivedSets {
  readonly Rd: LocSet;
  readonly Wr: LocSet;
  /** R+_H: every location reduced */
  readonly RH: LocSet;
  /** R+ = R+_H − Wr_H */
  readonly RPlus: LocSet;
  /** All = Rd ∪ Wr ∪ R+_H */
  readonly All: LocSet;
  /** Mod = Wr ∪ R+_H */
  readonly Mod: LocSet;
  readonly RW: LocSet;
}

/** implements [EFF-SETS]: the derived sets of an effect. */
export function derivedSets(a: Effect): DerivedSets {
  const Rd = reads(a);
  const Wr = writes(a);
  const RH = reduces(a);
  return { Rd, Wr, RH, RPlus: minus(RH, Wr), All: union([Rd, Wr, RH]), Mod: union([Wr, RH]), RW: union([Rd, Wr]) };
}

/** The operators an effect reduces with. */
export function reduceOps(a: Effect, out: Set<OpName> = new Set()): Set<OpName> {
  if (a.k === 'reduce') out.add(a.op);
  else if (a.k === 'seq') for (const i of a.items) reduceOps(i, out);
  else if (a.k === 'guard' || a.k === 'loop') reduceOps(a.body, out);
  return out;
}
