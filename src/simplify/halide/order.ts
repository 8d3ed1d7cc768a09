// The TRS paper's reduction order over Halide's full signature (its appendix; spec/simplify.md
// [HR-ORDER]), checked for each rule, and the rules an earlier rule of the same visitor already
// covers ([HR-SUBSUME]). The order is the one of order.ts with the paper's whole strength list:
// ramp and broadcast above select, and each comparison a class of its own.
import { type HExpr, type HRule, isConstWild, showH } from './ast.js';
import { TERM_WILDS } from './model.js';

/** Strength classes, strongest first (the paper's appendix). */
export const H_STRENGTH: readonly (readonly string[])[] = [
  ['ramp'], ['broadcast'], ['select'], ['/'], ['*'], ['%'], ['-'], ['+'], ['max', 'min'], ['!'], ['||'], ['&&'], ['>='], ['>'], ['<='], ['<'], ['!='], ['=='],
];

const classOf = (e: HExpr): number => {
  const sym = e.k === 'bin' || e.k === 'un' ? e.op : e.k === 'call' ? e.f : '';
  return H_STRENGTH.findIndex((g) => g.includes(sym));
};

export interface HMeasure {
  readonly histogram: readonly number[];
  readonly occurrences: ReadonlyMap<string, number>;
  readonly root: number;
  /** parts computed when the rule fires (`fold(…)`) */
  readonly folds: number;
}

/** The measure of a side; `fold(e)` is the constant it computes, as the paper's fold is. */
export function hMeasure(e: HExpr): HMeasure {
  const histogram = H_STRENGTH.map(() => 0);
  const occurrences = new Map<string, number>();
  let folds = 0;
  const visit = (x: HExpr): void => {
    if (x.k === 'call' && x.f === 'fold') {
      folds++;
      return;
    }
    if (x.k === 'id' && TERM_WILDS.has(x.name)) occurrences.set(x.name, (occurrences.get(x.name) ?? 0) + 1);
    const k = classOf(x);
    if (k >= 0) histogram[k]!++;
    if (x.k === 'bin') [x.a, x.b].forEach(visit);
    else if (x.k === 'un') visit(x.a);
    else if (x.k === 'call') x.args.forEach(visit);
  };
  visit(e);
  const root = e.k === 'call' && e.f === 'fold' ? -1 : classOf(e);
  return { histogram, occurrences, root, folds };
}

/** A measure as reports print it: the non-zero classes and the root. */
export function showMeasure(m: HMeasure): string {
  const parts = m.histogram.flatMap((n, i) => (n > 0 ? [`${H_STRENGTH[i]!.join('/')}:${n}`] : []));
  return `{${parts.join(' ')}} root ${m.root >= 0 ? H_STRENGTH[m.root]!.join('/') : 'leaf'}`;
}

export type OrderVerdict =
  | { readonly status: 'decreases' }
  /** equal histograms, and the right side computes a constant: only that constant can decrease */
  | { readonly status: 'constants'; readonly lhs: string; readonly rhs: string }
  | { readonly status: 'violation'; readonly lhs: string; readonly rhs: string; readonly why: string };

// implements [HR-ORDER]
export function checkOrder(lhs: HExpr, rhs: HExpr): OrderVerdict {
  const ms = hMeasure(lhs);
  const mt = hMeasure(rhs);
  const shown = { lhs: showMeasure(ms), rhs: showMeasure(mt) };
  for (const [v, n] of mt.occurrences) {
    if ((ms.occurrences.get(v) ?? 0) < n) return { status: 'violation', ...shown, why: `'${v}' occurs ${n} times on the right but ${ms.occurrences.get(v) ?? 0} on the left` };
  }
  for (let i = 0; i < H_STRENGTH.length; i++) {
    const [a, b] = [ms.histogram[i]!, mt.histogram[i]!];
    if (a > b) return { status: 'decreases' };
    if (a < b) return { status: 'violation', ...shown, why: `more ${H_STRENGTH[i]!.join('/')} on the right (${b}) than on the left (${a})` };
  }
  if (ms.root >= 0 && mt.root >= 0 && ms.root > mt.root) return { status: 'decreases' };
  if (mt.folds > 0) return { status: 'constants', ...shown };
  return { status: 'violation', ...shown, why: 'equal histograms, and the right root is not stronger than the left root' };
}

/** Binds the wildcards of `pattern` to parts of `term` (term wildcards to any part, constant ones to constants). */
function matchH(pattern: HExpr, term: HExpr, b: Map<string, string>): boolean {
  if (pattern.k === 'id' && (TERM_WILDS.has(pattern.name) || isConstWild(pattern.name))) {
    const isConst = term.k === 'int' || (term.k === 'id' && isConstWild(term.name));
    if (isConstWild(pattern.name) && !isConst) return false;
    const text = showH(term);
    const prev = b.get(pattern.name);
    if (prev !== undefined) return prev === text;
    b.set(pattern.name, text);
    return true;
  }
  if (pattern.k !== term.k) return false;
  switch (pattern.k) {
    case 'bin':
      return term.k === 'bin' && pattern.op === term.op && matchH(pattern.a, term.a, b) && matchH(pattern.b, term.b, b);
    case 'un':
      return term.k === 'un' && pattern.op === term.op && matchH(pattern.a, term.a, b);
    case 'call':
      return term.k === 'call' && pattern.f === term.f && pattern.args.length === term.args.length && pattern.args.every((a, i) => matchH(a, term.args[i]!, b));
    default:
      return showH(pattern) === showH(term);
  }
}

/** `e` with its wildcards replaced by the bound text: the predicate a general rule has at a special one. */
function instantiate(e: HExpr, b: ReadonlyMap<string, string>): string {
  const sub = (x: HExpr): HExpr => {
    if (x.k === 'id' && b.has(x.name)) return { k: 'id', name: b.get(x.name)! };
    if (x.k === 'bin') return { ...x, a: sub(x.a), b: sub(x.b) };
    if (x.k === 'un') return { ...x, a: sub(x.a) };
    if (x.k === 'call') return { ...x, args: x.args.map(sub) };
    return x;
  };
  return showH(sub(e));
}

/** The conjuncts of a predicate. */
function conjuncts(e: HExpr | undefined): HExpr[] {
  if (!e) return [];
  if (e.k === 'bin' && e.op === '&&') return [...conjuncts(e.a), ...conjuncts(e.b)];
  return [e];
}

// implements [HR-SUBSUME]
/**
 * The earlier rule of the same file and visitor that matches everything `later` matches: its
 * left-hand side is more general, and its predicate, instantiated, is one of `later`'s conjuncts
 * (or it has none). The later rule can then never fire, unless a guard in the C++ between them
 * (`no_overflow(op->type) && …`) keeps the earlier one from being tried.
 */
export function subsumedBy(earlier: readonly HRule[], later: HRule): HRule | undefined {
  for (const r of earlier) {
    if (r.file !== later.file || r.node !== later.node || r.line >= later.line) continue;
    const b = new Map<string, string>();
    if (!matchH(r.lhs, later.lhs, b)) continue;
    if (!r.pred) return r;
    const have = new Set(conjuncts(later.pred).map((p) => showH(p)));
    if (conjuncts(r.pred).every((p) => have.has(instantiate(p, b)))) return r;
  }
  return undefined;
}
