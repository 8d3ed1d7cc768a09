// Planted Perceus faults: rewrites between the stages of the translation (StageHooks), each
// imitating a mistake an implementation of §4.2–4.3 can make. The perceus property must find
// each one on generated programs.
import type { StageHooks } from '../../perceus/pipeline.js';
import { type Expr, type Program, mapBodies, mapChildren } from '../../perceus/syntax.js';

/** Rewrites every node `f` recognizes, bottom-up. */
function everywhere(p: Program, f: (e: Expr) => Expr | undefined): Program {
  const go = (e: Expr): Expr => {
    const inner = mapChildren(e, go);
    return f(inner) ?? inner;
  };
  return mapBodies(p, go);
}

/** [SLAM] forgets `dup Δ1`: a closure captures a borrowed variable without taking a reference. */
export const skipCaptureDup: StageHooks = {
  perceus: (p) => everywhere(p, (e) => (e.k === 'dup' && e.body.k === 'lam' ? e.body : undefined)),
};

/** [SBIND-D] drops an unused binding twice. */
export const doubleDropUnused: StageHooks = {
  perceus: (p) => everywhere(p, (e) => (e.k === 'val' && e.body.k === 'drop' && e.body.name === e.name ? { ...e, body: { k: 'drop', name: e.name, body: e.body } } : undefined)),
};

/** [OPT-REUSESPEC] keeps a field whose argument is a variable of the matched cell bound at another position. */
export const keepOtherPosition: StageHooks = {
  reusespec: (p) =>
    mapBodies(p, (body) => {
      const go = (e: Expr, origin: ReadonlyMap<string, readonly string[]>): Expr => {
        if (e.k === 'con' && e.reuse !== undefined && origin.has(e.reuse)) {
          const bs = origin.get(e.reuse)!;
          const keep = e.args.map((a, i) => (e.keep?.[i] ?? false) || (a.k === 'var' && bs.includes(a.name)));
          return keep.some(Boolean) ? { ...e, keep } : e;
        }
        if (e.k === 'match') {
          return { ...e, branches: e.branches.map((b) => ({ ...b, body: go(b.body, b.token === undefined ? origin : new Map(origin).set(b.token, b.binders)) })) };
        }
        return mapChildren(e, (x) => go(x, origin));
      };
      return go(body, new Map());
    }),
};

/** [OPT-REUSE] lets a constructor inside a lambda take the token of the enclosing branch. */
export const tokenInLambda: StageHooks = {
  reuse: (p) => {
    let n = 0;
    /** The body with the first constructor of `arity` fields inside a lambda paired with `ru`. */
    const pair = (e: Expr, arity: number, ru: string, inLambda: boolean): [Expr, boolean] => {
      if (inLambda && e.k === 'con' && e.args.length === arity && e.reuse === undefined) return [{ ...e, reuse: ru }, true];
      let done = false;
      const out = mapChildren(e, (c) => {
        if (done) return c;
        const [x, d] = pair(c, arity, ru, inLambda || e.k === 'lam');
        done = d;
        return x;
      });
      return [out, done];
    };
    return everywhere(p, (e) => {
      if (e.k !== 'match') return undefined;
      return {
        ...e,
        branches: e.branches.map((b) => {
          if (b.binders.length === 0) return b;
          const ru = b.token ?? `ru'λ${++n}`;
          const [body, done] = pair(b.body, b.binders.length, ru, false);
          return done ? { ...b, body, token: ru } : b;
        }),
      };
    });
  },
};
