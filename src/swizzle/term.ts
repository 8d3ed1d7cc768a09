// Terms of the swizzle language (spec/swizzle.md, [SWZ-TERM]; the seed's §2): symbols, the identity
// 0, the undefined value ⊥, and folds — multisets of terms. Terms are interned so that a term is
// a small integer and equality of terms is equality of integers; arrays of terms are Int32Arrays.

// implements [SWZ-TERM]
export const ZERO = 0;
export const BOTTOM = 1;

/** An interning table of terms. Ids 0 and 1 are 0 and ⊥; every other id is a symbol or a fold. */
export class Terms {
  private readonly names: (string | undefined)[] = ['0', '_'];
  /** the sorted elements of a fold, undefined for symbols and the two constants */
  private readonly elems: (Int32Array | undefined)[] = [undefined, undefined];
  private readonly byKey = new Map<string, number>();
  private readonly subs: (Int32Array | undefined)[] = [];

  symbol(name: string): number {
    const key = `s:${name}`;
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const id = this.names.length;
    this.names.push(name);
    this.elems.push(undefined);
    this.byKey.set(key, id);
    return id;
  }

// implements [SWZ-FOLD]
  /**
   * [SWZ-FOLD] The fold of a list of terms: 0 is the identity and is dropped; the fold of nothing
   * is 0; otherwise the multiset of the rest (a fold of one term stays a multiset: folds nest as
   * distinct operations, the seed's §2, so {a} is not a).
   */
  fold(items: ArrayLike<number>): number {
    const kept: number[] = [];
    for (let i = 0; i < items.length; i++) if (items[i] !== ZERO) kept.push(items[i]!);
    if (kept.length === 0) return ZERO;
    kept.sort((a, b) => a - b);
    const key = `f:${kept.join(',')}`;
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const id = this.names.length;
    this.names.push(undefined);
    this.elems.push(Int32Array.from(kept));
    this.byKey.set(key, id);
    return id;
  }

  isFold(t: number): boolean {
    return this.elems[t] !== undefined;
  }

  elements(t: number): Int32Array {
    return this.elems[t] ?? new Int32Array(0);
  }

  /** Every subterm of t, t included, each once. */
  subterms(t: number): Int32Array {
    const known = this.subs[t];
    if (known) return known;
    const seen = new Set<number>([t]);
    const es = this.elems[t];
    if (es) for (const e of es) for (const s of this.subterms(e)) seen.add(s);
    const out = Int32Array.from(seen);
    this.subs[t] = out;
    return out;
  }

  /** How many times a occurs in t, counting a multiset's repeated elements (the copies of Algorithm 4). */
  occurrences(a: number, t: number): number {
    if (a === t) return 1;
    const es = this.elems[t];
    if (!es) return 0;
    let n = 0;
    for (const e of es) n += this.occurrences(a, e);
    return n;
  }

  show(t: number): string {
    const es = this.elems[t];
    if (!es) return this.names[t]!;
    return `{${Array.from(es, (e) => this.show(e)).join(', ')}}`;
  }

  get size(): number {
    return this.names.length;
  }
}
