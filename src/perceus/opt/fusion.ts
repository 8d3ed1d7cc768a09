// Dup push-down and dup/drop fusion (§4.2.3), rule 'OPT-FUSION'. The dups right before a
// specialized drop are pushed into both of its paths; on the unique path each meets the drop of the
// same field and the pair cancels (fig. 4.1d), on the shared path it stays. A `dup x` directly
// followed by `drop x` also cancels. The node records the pushed names, so it still means
// `dup pushed; drop x` for the checks (its consumption is unchanged).
import { type Expr, type Program, type RcOp, mapBodies, wrapRc, mapChildren } from '../syntax.js';

/** The rule this module implements, for rule coverage (rules-fired.ts). */
export const OPT_FUSION = 'OPT-FUSION';

function fuse(e: Expr): Expr {
  switch (e.k) {
    case 'dup': {
      const dups: string[] = [];
      let cur: Expr = e;
      while (cur.k === 'dup') {
        dups.push(cur.name);
        cur = cur.body;
      }
      const rest = fuse(cur);
      if (rest.k === 'drop' && dups.includes(rest.name)) {
        // dup x; … dup x′; drop x  ⇒  the other dups only.
        const i = dups.lastIndexOf(rest.name);
        return wrapRc('dup', dups.filter((_, j) => j !== i), rest.body);
      }
      if (rest.k !== 'dropspec') return wrapRc('dup', dups, rest);
      let unique: RcOp[] = [...rest.unique];
      const pushed: string[] = [...rest.pushed];
      const shared: RcOp[] = [...rest.shared];
      const outside: string[] = [];
      for (const y of dups) {
        const k = unique.findIndex((o) => o.op === 'drop' && o.name === y);
        if (k < 0) {
          outside.push(y);
          continue;
        }
        unique = unique.filter((_, j) => j !== k);
        pushed.push(y);
        shared.push({ op: 'dup', name: y });
      }
      return wrapRc('dup', outside, { ...rest, unique, shared, pushed });
    }
    default:
      return mapChildren(e, fuse);
  }
}

export function dupDropFusion(p: Program): Program {
  return mapBodies(p, fuse);
}
