// Elaboration of [SMATCH] output into the per-branch form of footnote 4 (§4.3.3): instead of
// (match_r) duplicating all fields and dropping the scrutinee at run time, each branch starts with
// `dup` of the fields it uses, then `drop x` (or `val ru = drop-reuse x` when reuse analysis gave the
// branch a token), then the drops [SMATCH] emitted for the other owned names. A field the branch
// does not use is neither duplicated nor dropped: that is (match_r) followed by cancelling
// `dup y; … drop y` for it (rule 'ELAB-MATCH'). Drop specialization, fusion and reuse work on this form.
import { type Expr, type Program, mapBodies, wrapRc, mapChildren } from './syntax.js';

/** The rule this module implements, for rule coverage (rules-fired.ts). */
export const ELAB_MATCH = 'ELAB-MATCH';

function peelDrops(e: Expr): [string[], Expr] {
  const names: string[] = [];
  let x = e;
  while (x.k === 'drop') {
    names.push(x.name);
    x = x.body;
  }
  return [names, x];
}

function elab(e: Expr): Expr {
  switch (e.k) {
    case 'match': {
      const x = (e.scrut as { name: string }).name;
      return {
        ...e,
        elab: true,
        branches: e.branches.map(({ token, ...b }) => {
          const [dropped, rest] = peelDrops(b.body);
          const used = b.binders.filter((y) => !dropped.includes(y));
          const others = dropped.filter((y) => !b.binders.includes(y));
          const after = wrapRc('drop', others, elab(rest));
          const consume: Expr = token === undefined ? { k: 'drop', name: x, body: after } : { k: 'dropreuse', name: x, token, body: after };
          return { ...b, body: wrapRc('dup', used, consume) };
        }),
      };
    }
    default:
      return mapChildren(e, elab);
  }
}

export function elaborate(p: Program): Program {
  return mapBodies(p, elab);
}
