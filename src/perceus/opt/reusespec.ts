// Reuse specialization (§4.2.5), rule 'OPT-REUSESPEC': a C@ru keeps in place every field that
// already holds the value it would write, instead of writing it. A field is unchanged when its
// argument is the pattern variable bound at the same position of the match the token came from,
// or a nullary constructor that variable is known to be (it was matched against that constructor
// on the way: Koka's constant sub-pattern, such as `Red` in `Node(Red, l, k, v, r)`). As Koka does,
// a constructor is specialized only when it saves enough writes: unchanged fields, plus one when
// the tag stays the same, must reach 1 + ⌊(1 + n)/4⌋ for n fields; the token may come from another
// constructor of the same size. Runs after reuse analysis and before reference-count insertion.
import { type Expr, type Program, mapBodies, mapChildren } from '../syntax.js';

/** The rule this module implements, for rule coverage (rules-fired.ts). */
export const OPT_REUSESPEC = 'OPT-REUSESPEC';

interface Origin {
  readonly con: string;
  readonly binders: readonly string[];
}

/** What a walk knows: where each token came from, and which variables are known nullary constructors. */
interface Facts {
  readonly tokens: ReadonlyMap<string, Origin>;
  /** variable → the nullary constructor it was matched against on the current path */
  readonly constant: ReadonlyMap<string, string>;
  /** `val x = y` copies (the normal form's scrutinee copies): x → y */
  readonly alias: ReadonlyMap<string, string>;
}

const root = (f: Facts, x: string): string => {
  let r = x;
  while (f.alias.has(r)) r = f.alias.get(r)!;
  return r;
};

/** Koka's threshold: unchanged fields, plus one for an unchanged tag, must save a quarter of the writes. */
export function worthSpecializing(sameTag: boolean, unchanged: number, arity: number): boolean {
  return (sameTag ? 1 : 0) + unchanged >= 1 + Math.floor((1 + arity) / 4);
}

function unchangedField(a: Expr, binder: string | undefined, f: Facts): boolean {
  if (binder === undefined) return false;
  if (a.k === 'var') return root(f, a.name) === root(f, binder);
  return a.k === 'con' && a.args.length === 0 && f.constant.get(root(f, binder)) === a.con;
}

function spec(e: Expr, f: Facts): Expr {
  const go = (x: Expr) => spec(x, f);
  switch (e.k) {
    case 'con': {
      const o = e.reuse === undefined ? undefined : f.tokens.get(e.reuse);
      if (!o) return e;
      const keep = e.args.map((a, i) => unchangedField(a, o.binders[i], f));
      const unchanged = keep.filter(Boolean).length;
      return unchanged > 0 && worthSpecializing(o.con === e.con, unchanged, e.args.length) ? { ...e, keep } : e;
    }
    case 'val':
      if (e.bound.k === 'var') return { ...e, body: spec(e.body, { ...f, alias: new Map(f.alias).set(e.name, e.bound.name) }) };
      return mapChildren(e, go);
    case 'match': {
      const x = e.scrut.k === 'var' ? root(f, e.scrut.name) : undefined;
      return {
        ...e,
        branches: e.branches.map((b) => {
          const tokens = b.token === undefined ? f.tokens : new Map(f.tokens).set(b.token, { con: b.con, binders: b.binders });
          const constant = b.binders.length === 0 && x !== undefined ? new Map(f.constant).set(x, b.con) : f.constant;
          return { ...b, body: spec(b.body, { ...f, tokens, constant }) };
        }),
      };
    }
    default:
      return mapChildren(e, go);
  }
}

export function reuseSpecialization(p: Program): Program {
  return mapBodies(p, (body) => spec(body, { tokens: new Map(), constant: new Map(), alias: new Map() }));
}
