// Drop specialization (§4.2.3), rule 'OPT-DROPSPEC', on the elaborated form: in a branch
// `dup ys′; drop x; e` of `match x { C(ys) -> … }` the drop is inlined for the known constructor C:
// `if is-unique(x) then { drop ys; free(x) } else { decref(x) }`. As the thesis does, this is only
// done when the branch uses some field (ys′ non-empty). A `val ru = drop-reuse x` is specialized the
// same way (fig. 4.1f): `&x` on the unique path, `decref(x); NULL` otherwise.
import { type Expr, type Program, mapBodies, mapChildren } from '../syntax.js';

/** The rule this module implements, for rule coverage (rules-fired.ts). */
export const OPT_DROPSPEC = 'OPT-DROPSPEC';

function specializeBranch(body: Expr, x: string, binders: readonly string[]): Expr {
  // Walk the leading dups of used fields to the instruction consuming the scrutinee.
  const dups: Expr[] = [];
  let cur = body;
  while (cur.k === 'dup') {
    dups.push(cur);
    cur = cur.body;
  }
  let out: Expr | undefined;
  const unique = binders.map((y) => ({ op: 'drop' as const, name: y }));
  if (cur.k === 'drop' && cur.name === x && dups.length > 0) {
    out = { k: 'dropspec', name: x, unique, shared: [], pushed: [], body: spec(cur.body), ...(cur.loc ? { loc: cur.loc } : {}) };
  } else if (cur.k === 'dropreuse' && cur.name === x && binders.length > 0) {
    out = { k: 'dropspec', name: x, unique, shared: [], pushed: [], token: cur.token, body: spec(cur.body), ...(cur.loc ? { loc: cur.loc } : {}) };
  }
  if (!out) return spec(body);
  for (let i = dups.length - 1; i >= 0; i--) out = { ...(dups[i] as Extract<Expr, { k: 'dup' }>), body: out };
  return out;
}

function spec(e: Expr): Expr {
  switch (e.k) {
    case 'match': {
      if (!e.elab) return e;
      const x = (e.scrut as { name: string }).name;
      return { ...e, branches: e.branches.map((b) => ({ ...b, body: specializeBranch(b.body, x, b.binders) })) };
    }
    default:
      return mapChildren(e, spec);
  }
}

export function dropSpecialization(p: Program): Program {
  return mapBodies(p, spec);
}
