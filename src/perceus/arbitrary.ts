// Generated λ1 programs for property tests and fuzz campaigns: well scoped and
// terminating by construction — recursion is structural (on a list argument) and lambdas are
// only applied, never self-applied. Programs are built from a list of choices, so shrinking
// the choices shrinks the program.
import fc from 'fast-check';
import { NameSupply } from './names.js';

type Kind = 'int' | 'list' | 'fn' | 'pair';

const PRELUDE = `type list { Nil; Cons(head, tail) }
type pair { P(fst, snd) }

fun sum(xs) {
  match xs {
    Cons(x, xx) -> x + sum(xx)
    Nil -> 0
  }
}

fun len(xs) {
  match xs {
    Cons(x, xx) -> 1 + len(xx)
    Nil -> 0
  }
}

fun map(xs, f) {
  match xs {
    Cons(x, xx) -> Cons(f(x), map(xx, f))
    Nil -> Nil
  }
}
`;

class Gen {
  private i = 0;
  private readonly names = new NameSupply();
  constructor(private readonly choices: readonly number[]) {}
  pick(k: number): number {
    const c = this.choices[this.i++ % Math.max(1, this.choices.length)] ?? 0;
    return this.i > this.choices.length ? 0 : c % k;
  }
  fresh(stem: string): string {
    return this.names.numbered(stem);
  }
}

type Scope = readonly { name: string; kind: Kind }[];

function vars(sc: Scope, k: Kind): string[] {
  return sc.filter((v) => v.kind === k).map((v) => v.name);
}

function expr(g: Gen, k: Kind, sc: Scope, depth: number, rec?: string): string {
  const leaf = depth <= 0;
  const vs = vars(sc, k);
  const useVar = vs.length > 0 && g.pick(3) === 0;
  if (useVar) return vs[g.pick(vs.length)]!;
  const d = depth - 1;
  if (!leaf) {
    const form = g.pick(10);
    if (form === 0) {
      const bk: Kind = (['int', 'list', 'fn', 'pair'] as const)[g.pick(4)]!;
      const x = g.fresh('v');
      return `{ val ${x} = ${expr(g, bk, sc, d, rec)}; ${expr(g, k, [...sc, { name: x, kind: bk }], d, rec)} }`;
    }
    const ls = vars(sc, 'list');
    if (form === 1 && ls.length > 0) {
      const h = g.fresh('h');
      const t = g.fresh('t');
      const inner = [...sc, { name: h, kind: 'int' as Kind }, { name: t, kind: 'list' as Kind }];
      return `(match ${ls[g.pick(ls.length)]} { Nil -> ${expr(g, k, sc, d, rec)}; Cons(${h}, ${t}) -> ${expr(g, k, inner, d, rec)} })`;
    }
    const ps = vars(sc, 'pair');
    if (form === 2 && ps.length > 0) {
      const a = g.fresh('a');
      const b = g.fresh('b');
      return `(match ${ps[g.pick(ps.length)]} { P(${a}, ${b}) -> ${expr(g, k, [...sc, { name: a, kind: 'list' }, { name: b, kind: 'int' }], d, rec)} })`;
    }
    if (form === 3) return `(if (${expr(g, 'int', sc, d, rec)}) < (${expr(g, 'int', sc, d, rec)}) then ${expr(g, k, sc, d, rec)} else ${expr(g, k, sc, d, rec)})`;
    if (form === 4 && k !== 'fn') {
      const fs = vars(sc, 'fn');
      if (k === 'int' && fs.length > 0) return `${fs[g.pick(fs.length)]}(${expr(g, 'int', sc, d, rec)})`;
    }
  }
  switch (k) {
    case 'int': {
      const c = leaf ? g.pick(2) : g.pick(6);
      if (c === 0 || vs.length === 0 && c === 1) return String(g.pick(5));
      if (c === 1) return vs[g.pick(vs.length)]!;
      if (c === 2) return `(${expr(g, 'int', sc, depth - 1, rec)}) + (${expr(g, 'int', sc, depth - 1, rec)})`;
      if (c === 3) return `sum(${expr(g, 'list', sc, depth - 1, rec)})`;
      if (c === 4) return `len(${expr(g, 'list', sc, depth - 1, rec)})`;
      // Structural recursion only on the tail bound by the recursive function's own match.
      if (rec !== undefined && sc.some((v) => v.name === 't0')) return `${rec}(t0, ${expr(g, 'int', sc, depth - 1, rec)})`;
      return String(g.pick(5));
    }
    case 'list': {
      const c = leaf ? 0 : g.pick(3);
      if (c === 1) return `Cons(${expr(g, 'int', sc, depth - 1, rec)}, ${expr(g, 'list', sc, depth - 1, rec)})`;
      if (c === 2) return `map(${expr(g, 'list', sc, depth - 1, rec)}, ${expr(g, 'fn', sc, depth - 1, rec)})`;
      return vs.length > 0 && g.pick(2) === 0 ? vs[g.pick(vs.length)]! : 'Nil';
    }
    case 'fn': {
      const x = g.fresh('x');
      return `(\\${x} -> ${expr(g, 'int', [...sc, { name: x, kind: 'int' }], Math.max(0, depth - 1), rec)})`;
    }
    case 'pair':
      return `P(${expr(g, 'list', sc, depth - 1, rec)}, ${expr(g, 'int', sc, depth - 1, rec)})`;
  }
}

/** A program from a choice sequence: the prelude, one structurally recursive function, main. */
export function programFromChoices(choices: readonly number[], depth = 4): string {
  const g = new Gen(choices);
  const recBody = `match xs { Nil -> ${expr(g, 'int', [{ name: 'y', kind: 'int' }], 2)}; Cons(h0, t0) -> ${expr(
    g,
    'int',
    [{ name: 'y', kind: 'int' }, { name: 'h0', kind: 'int' }, { name: 't0', kind: 'list' }],
    3,
    'walk',
  )} }`;
  const main = expr(g, (['int', 'list', 'pair'] as const)[g.pick(3)]!, [], depth, undefined);
  return `${PRELUDE}
fun walk(xs, y) {
  ${recBody}
}

fun main() {
  val m0 = ${main};
  val l0 = Cons(1, Cons(2, Cons(3, Nil)));
  val r0 = walk(l0, 1);
  P(Cons(r0, Nil), m0)
}
`;
}

/**
 * Well-scoped, terminating λ1 programs (source text, parseable by loadProgram), drawn from at most
 * `maxChoices` generator choices (the program's size grows with them).
 */
export function arbLambdaProgram(maxChoices = 120): fc.Arbitrary<string> {
  return fc.array(fc.nat(999), { minLength: 8, maxLength: maxChoices }).map((cs) => programFromChoices(cs));
}
