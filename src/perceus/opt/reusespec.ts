// Reuse specialization (§4.2.5), rule 'OPT-REUSESPEC': a C@ru that rebuilds the constructor it
// reuses, with some field equal to the pattern variable bound at the same position, keeps that
// field in place instead of writing it. Only constructors where at least one field stays the
// same are specialized. Runs after reuse analysis and before reference-count insertion.
import { type Expr, type Program, mapBodies, mapChildren } from '../syntax.js';

interface Origin {
  readonly con: string;
  readonly binders: readonly string[];
}

function spec(e: Expr, tokens: ReadonlyMap<string, Origin>): Expr {
  const go = (x: Expr) => spec(x, tokens);
  switch (e.k) {
    case 'con': {
      const o = e.reuse === undefined ? undefined : tokens.get(e.reuse);
      if (!o || o.con !== e.con) return e;
      const keep = e.args.map((a, i) => a.k === 'var' && a.name === o.binders[i]);
      return keep.some(Boolean) ? { ...e, keep } : e;
    }
    case 'match':
      return {
        ...e,
        branches: e.branches.map((b) => {
          if (b.token === undefined) return { ...b, body: go(b.body) };
          const t = new Map(tokens);
          t.set(b.token, { con: b.con, binders: b.binders });
          return { ...b, body: spec(b.body, t) };
        }),
      };
    default:
      return mapChildren(e, go);
  }
}

export function reuseSpecialization(p: Program): Program {
  return mapBodies(p, (body) => spec(body, new Map()));
}
