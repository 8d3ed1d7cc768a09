// Generated λ1 programs for property tests and fuzz campaigns: well scoped and
// terminating by construction — recursion is structural (on a list or tree argument's own
// fields) and lambdas are only applied, never self-applied. Programs are built from a list of
// choices, so shrinking the choices shrinks the program.
//
// Besides lists and pairs the programs use a tree type with constructors of three to five fields
// (two of them of the same size, with their fields in other positions), so that every rule of
// spec/perceus.md has programs that reach it: matches rebuilt as the same constructor with
// permuted fields or as another constructor of the same size (reuse and its specialization),
// lambdas built inside a branch that holds a reuse token, closures capturing variables that are
// used again afterwards (borrowed when the closure is built), bindings never used, and values
// shared deeply (the same subtree in several places of a tree that is then rebuilt).
import fc from 'fast-check';
import { NameSupply } from './names.js';

type Kind = 'int' | 'list' | 'fn' | 'pair' | 'tree';

const PRELUDE = `type list { Nil; Cons(head, tail) }
type pair { P(fst, snd) }
type tree { Leaf; Two(l, v, r); Pat(v, l, r); Four(l, v, w, r); Five(l, v, w, x, r) }

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

fun tsum(t) {
  match t {
    Leaf -> 0
    Two(l, v, r) -> tsum(l) + v + tsum(r)
    Pat(v, l, r) -> v + tsum(l) + tsum(r)
    Four(l, v, w, r) -> tsum(l) + v + w + tsum(r)
    Five(l, v, w, x, r) -> tsum(l) + v + w + x + tsum(r)
  }
}
`;

/** The tree constructors and the kinds of their fields. */
const TREE: readonly (readonly [string, readonly Kind[]])[] = [
  ['Two', ['tree', 'int', 'tree']],
  ['Pat', ['int', 'tree', 'tree']],
  ['Four', ['tree', 'int', 'int', 'tree']],
  ['Five', ['tree', 'int', 'int', 'int', 'tree']],
];

/**
 * Choices for one part of a program: the choice sequence read from `start` on, wrapping once;
 * every pick after that is 0 (the simplest form), so shorter sequences make smaller programs.
 */
class Gen {
  private i = 0;
  constructor(
    private readonly choices: readonly number[],
    private readonly names: NameSupply,
    private readonly start = 0,
  ) {}
  pick(k: number): number {
    const n = this.choices.length;
    if (this.i++ >= n) return 0;
    return this.choices[(this.start + this.i) % n]! % k;
  }
  fresh(stem: string): string {
    return this.names.numbered(stem);
  }
}

type Scope = readonly { name: string; kind: Kind }[];

/** What recursion an expression may make: the function and the variables it may recurse on. */
interface Rec {
  readonly fn: string;
  readonly on: readonly string[];
}

function vars(sc: Scope, k: Kind): string[] {
  return sc.filter((v) => v.kind === k).map((v) => v.name);
}

/** A tree built from the fields of a matched constructor: permuted, changed, or another constructor of its size. */
function rebuild(g: Gen, con: string, binders: readonly string[], sc: Scope, depth: number, rec?: Rec): string {
  const kinds = TREE.find(([c]) => c === con)![1];
  const same = TREE.filter(([, ks]) => ks.length === kinds.length).map(([c]) => c);
  const target = same[g.pick(same.length)]!;
  const tkinds = TREE.find(([c]) => c === target)![1];
  // Each field of the target takes a binder of its kind (any position: permutations), or a new value.
  const on = rec?.on.filter((x) => binders.includes(x)) ?? [];
  const args = tkinds.map((k) => {
    const bs = binders.filter((_, i) => kinds[i] === k);
    // Inside the recursive tree function a subtree field is often the recursion on a matched subtree.
    if (k === 'tree' && on.length > 0 && g.pick(2) === 0) return `tw(${on[g.pick(on.length)]}, ${expr(g, 'int', sc, depth - 1, rec)})`;
    return bs.length > 0 && g.pick(4) !== 0 ? bs[g.pick(bs.length)]! : expr(g, k, sc, depth - 1, rec);
  });
  return `${target}(${args.join(', ')})`;
}

function treeMatch(g: Gen, k: Kind, t: string, sc: Scope, depth: number, rec?: Rec): string {
  const d = depth - 1;
  const branches = TREE.map(([con, kinds]) => {
    const bs = kinds.map((bk) => g.fresh(bk === 'tree' ? 's' : 'n'));
    const inner: Scope = [...sc, ...bs.map((name, i) => ({ name, kind: kinds[i]! }))];
    let body: string;
    const form = g.pick(5);
    if (k === 'tree' && form === 0) body = rebuild(g, con, bs, inner, depth, rec);
    else if (k === 'tree' && form === 2) {
      // The token is used on one path only: the other drops it.
      body = `(if (${expr(g, 'int', inner, d, rec)}) < (${expr(g, 'int', inner, d, rec)}) then ${rebuild(g, con, bs, inner, depth, rec)} else ${expr(g, k, inner, d, rec)})`;
    }
    else if (k === 'tree' && form === 1) {
      // A lambda built where the branch holds a reuse token: it must not take the token.
      const x = g.fresh('x');
      const f = g.fresh('f');
      body = `{ val ${f} = \\${x} -> ${rebuild(g, con, bs, [...inner, { name: x, kind: 'int' }], depth, undefined)}; ${f}(${expr(g, 'int', inner, d, rec)}) }`;
    } else body = expr(g, k, inner, d, rec);
    return `${con}(${bs.join(', ')}) -> ${body}`;
  });
  return `(match ${t} { Leaf -> ${expr(g, k, sc, d, rec)}; ${branches.join('; ')} })`;
}

function expr(g: Gen, k: Kind, sc: Scope, depth: number, rec?: Rec): string {
  const leaf = depth <= 0;
  const vs = vars(sc, k);
  const useVar = vs.length > 0 && g.pick(3) === 0;
  if (useVar) return vs[g.pick(vs.length)]!;
  const d = depth - 1;
  if (!leaf) {
    const form = g.pick(13);
    if (form === 0) {
      const bk: Kind = (['int', 'list', 'fn', 'pair', 'tree'] as const)[g.pick(5)]!;
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
    const ts = vars(sc, 'tree');
    if (form === 5 && ts.length > 0) return treeMatch(g, k, ts[g.pick(ts.length)]!, sc, depth, rec);
    if (form === 6) {
      // A binding never used: dropped right after it is made ([SBIND-D]).
      const u = g.fresh('u');
      const bk: Kind = (['list', 'tree', 'fn'] as const)[g.pick(3)]!;
      return `{ val ${u} = ${expr(g, bk, sc, d, rec)}; ${expr(g, k, sc, d, rec)} }`;
    }
    const heap = [...vars(sc, 'list'), ...vars(sc, 'tree')];
    if (form === 7 && heap.length > 0) {
      // A closure capturing a variable that is used again afterwards (borrowed when captured).
      const y = heap[g.pick(heap.length)]!;
      const f = g.fresh('f');
      const x = g.fresh('x');
      const measure = vars(sc, 'list').includes(y) ? `len(${y})` : `tsum(${y})`;
      return `{ val ${f} = \\${x} -> ${x} + ${measure}; ${expr(g, k, [...sc, { name: f, kind: 'fn' }], d, rec)} }`;
    }
  }
  switch (k) {
    case 'int': {
      const c = leaf ? g.pick(2) : g.pick(7);
      if (c === 0 || (vs.length === 0 && c === 1)) return String(g.pick(5));
      if (c === 1) return vs[g.pick(vs.length)]!;
      if (c === 2) return `(${expr(g, 'int', sc, depth - 1, rec)}) + (${expr(g, 'int', sc, depth - 1, rec)})`;
      if (c === 3) return `sum(${expr(g, 'list', sc, depth - 1, rec)})`;
      if (c === 4) return `len(${expr(g, 'list', sc, depth - 1, rec)})`;
      if (c === 5) return `tsum(${expr(g, 'tree', sc, depth - 1, rec)})`;
      // Structural recursion only on the fields bound by the recursive function's own match.
      const on = rec?.fn === 'walk' ? rec.on.filter((x) => sc.some((v) => v.name === x)) : [];
      if (on.length > 0) return `walk(${on[0]}, ${expr(g, 'int', sc, depth - 1, rec)})`;
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
    case 'tree': {
      const c = leaf ? 0 : g.pick(4);
      const on = rec?.fn === 'tw' ? rec.on.filter((x) => sc.some((v) => v.name === x)) : [];
      if (c === 1 && on.length > 0) return `tw(${on[g.pick(on.length)]}, ${expr(g, 'int', sc, depth - 1, rec)})`;
      if (c === 2) {
        // Deep sharing: one subtree in several places.
        const s = g.fresh('sh');
        return `{ val ${s} = ${expr(g, 'tree', sc, depth - 1, rec)}; Four(${s}, 1, 2, Pat(3, ${s}, ${s})) }`;
      }
      if (c === 3) {
        const [con, kinds] = TREE[g.pick(TREE.length)]!;
        return `${con}(${kinds.map((fk) => expr(g, fk, sc, depth - 1, rec)).join(', ')})`;
      }
      return vs.length > 0 && g.pick(2) === 0 ? vs[g.pick(vs.length)]! : 'Leaf';
    }
  }
}

/** The recursive tree function: each branch rebuilds, recursing only on the subtrees it matched. */
function treeWalk(gen: (branch: number) => Gen): string {
  const sc: Scope = [{ name: 'y', kind: 'int' }];
  const branches = TREE.map(([con, kinds], branch) => {
    // Each branch reads the choices from its own place too.
    const g = gen(branch);
    const bs = kinds.map((_, i) => `q${i}`);
    const inner: Scope = [...sc, ...bs.map((name, i) => ({ name, kind: kinds[i]! }))];
    const rec: Rec = { fn: 'tw', on: bs.filter((_, i) => kinds[i] === 'tree') };
    const form = g.pick(5);
    const body =
      form === 0 ? expr(g, 'tree', inner, 3, rec)
      : form === 1 ? `(if (${expr(g, 'int', inner, 2, rec)}) < (${expr(g, 'int', inner, 2, rec)}) then ${rebuild(g, con, bs, inner, 3, rec)} else ${expr(g, 'tree', inner, 2, rec)})`
      : form === 2 ? `{ val f = \\x -> ${rebuild(g, con, bs, [...inner, { name: 'x', kind: 'int' }], 3, undefined)}; f(${expr(g, 'int', inner, 2, rec)}) }`
      : rebuild(g, con, bs, inner, 3, rec);
    return `${con}(${bs.join(', ')}) -> ${body}`;
  });
  return `fun tw(t, y) {
  match t { Leaf -> ${expr(gen(TREE.length), 'tree', sc, 1)}; ${branches.join('; ')} }
}`;
}

/** A program from a choice sequence: the prelude, two structurally recursive functions, main. */
export function programFromChoices(choices: readonly number[], depth = 4): string {
  // Each part reads the choices from its own place, so that each gets a share of them.
  const names = new NameSupply();
  const third = Math.floor(choices.length / 3);
  const g = new Gen(choices, names);
  const main = expr(g, (['int', 'list', 'pair', 'tree'] as const)[g.pick(4)]!, [], depth, undefined);
  const gw = new Gen(choices, names, third);
  const walkScope: Scope = [{ name: 'y', kind: 'int' }, { name: 'h0', kind: 'int' }, { name: 't0', kind: 'list' }];
  const walkBody = expr(gw, 'int', walkScope, 3, { fn: 'walk', on: ['t0'] });
  const recBody = `match xs { Nil -> ${expr(gw, 'int', [{ name: 'y', kind: 'int' }], 2)}; Cons(h0, t0) -> ${gw.pick(2) === 0 ? `h0 + walk(t0, ${walkBody})` : walkBody} }`;
  const tw = treeWalk((branch) => new Gen(choices, names, 2 * third + 7 * branch));
  return `${PRELUDE}
fun walk(xs, y) {
  ${recBody}
}

${tw}

fun main() {
  val m0 = ${main};
  val l0 = Cons(1, Cons(2, Cons(3, Nil)));
  val r0 = walk(l0, 1);
  val s0 = Two(Leaf, 7, Leaf);
  val u0 = tw(Five(Two(Leaf, 1, Leaf), 2, 3, 4, Pat(5, Leaf, Two(Leaf, 6, Leaf))), 1);
  val w0 = tw(Four(s0, 1, 2, Pat(3, s0, Five(s0, 4, 5, 6, Leaf))), 2);
  P(P(Cons(r0, Nil), m0), Two(u0, 0, w0))
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
