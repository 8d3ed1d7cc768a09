// The "scoped" reference-counting baseline of §4.2.2: every binding owns one reference for its
// whole lexical scope and drops it when the scope ends; every use passes a fresh reference
// (`dup x; x`). It is sound and leaves no garbage (theorems 4.1, 4.2 hold), but it is not
// precise: values stay alive until their scope ends, so theorem 4.4 does not hold and is not
// checked for it. Matches are in elaborated form: the scrutinee is not consumed.
import { NameSupply } from './names.js';
import { type Expr, type Program, freeVars, mapBodies, wrapRc } from './syntax.js';

/** The rule this module implements, for rule coverage (rules-fired.ts). */
export const SCOPED_DROP = 'SCOPED-DROP';

/** Rule 'SCOPED-DROP': `val r = e; drop xs; r` ends a scope that owns `xs`. */
function endScope(owned: readonly string[], e: Expr, names: NameSupply): Expr {
  if (owned.length === 0) return e;
  const r = names.numbered('%');
  return { k: 'val', name: r, bound: e, body: wrapRc('drop', owned, { k: 'var', name: r }), loc: e.loc } satisfies Expr;
}

function dupArgs(args: readonly Expr[], node: Expr): Expr {
  return wrapRc('dup', args.filter((a) => a.k === 'var').map((a) => (a as { name: string }).name), node);
}

function scope(e: Expr, names: NameSupply): Expr {
  switch (e.k) {
    case 'var':
      return { k: 'dup', name: e.name, body: e };
    case 'lit':
      return e;
    case 'con':
    case 'call':
    case 'prim':
      return dupArgs(e.args, e);
    case 'app':
      return dupArgs([e.fn, e.arg], e);
    case 'lam': {
      // The closure gets its own references to what it captures; the body owns its parameter
      // and (after [APP-R] duplicates them) the captured values, until the body ends.
      const caps = [...new Set(freeVars(e))];
      return wrapRc('dup', caps, { ...e, body: endScope([e.param, ...caps], scope(e.body, names), names) });
    }
    case 'val':
      return { ...e, bound: scope(e.bound, names), body: endScope([e.name], scope(e.body, names), names) };
    case 'match':
      return {
        ...e,
        elab: true,
        branches: e.branches.map((b) => ({ ...b, body: wrapRc('dup', b.binders, endScope(b.binders, scope(b.body, names), names)) })),
      };
    case 'if':
      return { ...e, then: scope(e.then, names), else: scope(e.else, names) };
    default:
      throw new Error(`internal: the scoped baseline takes an erased program, found '${e.k}'`);
  }
}


/** The scoped baseline for every function: parameters are dropped when the body ends. */
export function scopedRc(p: Program): Program {
  return mapBodies(p, (body, f) => {
    // `%` cannot start a source name, so the supply needs no list of taken names.
    const names = new NameSupply();
    return endScope(f.params, scope(body, names), names);
  });
}
