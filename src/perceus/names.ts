// Fresh names for the λ1 passes. Every pass that invents a binder (A-normal form, reuse tokens,
// the scoped baseline's results, generated programs) takes one supply for the function it works
// on, created with the names already taken there; no pass keeps a counter of its own, so the
// names a program gets depend only on that program.
export class NameSupply {
  private readonly used = new Set<string>();
  private n = 0;

  constructor(taken: Iterable<string> = []) {
    for (const t of taken) this.used.add(t);
  }

  /** Marks more names as taken (names met while walking a body). */
  take(names: Iterable<string>): void {
    for (const x of names) this.used.add(x);
  }

  /** `base` itself when it is free and plain, else `stem'k` (a source binder keeps its name when it can). */
  fresh(base: string): string {
    const stem = base.replace(/'.*$/, '') || 't';
    let name = base.startsWith('_') || this.used.has(base) || base.includes("'") ? `${stem}'${++this.n}` : base;
    while (this.used.has(name)) name = `${stem}'${++this.n}`;
    this.used.add(name);
    return name;
  }

  /** `prefix` followed by the next number, e.g. `ru1` (names no source program can spell or that are free). */
  numbered(prefix: string): string {
    let name = `${prefix}${++this.n}`;
    while (this.used.has(name)) name = `${prefix}${++this.n}`;
    this.used.add(name);
    return name;
  }
}
