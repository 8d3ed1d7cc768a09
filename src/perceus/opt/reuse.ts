// Reuse analysis (§4.2.4), rule 'OPT-REUSE'. Runs before reference-count insertion, on the erased
// core: each match branch `C(ys) -> e` whose scrutinee is dead in e is paired with a constructor of
// the same arity allocated in e; the branch gets a reuse token ru and the constructor becomes
// C@ru. Perceus then treats ru as one more owned binder of the branch, so on a path that does not
// use it the token is dropped (freeing the reserved cell) by the ordinary [SMATCH]/[SIF] drops.
// A token is used at most once on every path, so it is never duplicated.
import { type Branch, type Expr, type Program, freeVars, mapBodies } from '../syntax.js';
import { NameSupply } from '../names.js';

function names(e: Expr, out: Set<string>): void {
  for (const n of freeVars(e)) out.add(n);
  const walk = (x: Expr): void => {
    if (x.k === 'lam') out.add(x.param);
    if (x.k === 'val') out.add(x.name);
    if (x.k === 'match') x.branches.forEach((b) => b.binders.forEach((y) => out.add(y)));
    for (const k of kids(x)) walk(k);
  };
  walk(e);
}

function kids(e: Expr): Expr[] {
  switch (e.k) {
    case 'lam':
      return [e.body];
    case 'val':
      return [e.bound, e.body];
    case 'match':
      return e.branches.map((b) => b.body);
    case 'if':
      return [e.then, e.else];
    default:
      return [];
  }
}

/** Pairs `ru` with the first constructor of `arity` fields on every path; lambdas are other activations. */
function assign(e: Expr, arity: number, ru: string): [Expr, boolean] {
  switch (e.k) {
    case 'con':
      if (e.args.length === arity && e.reuse === undefined) return [{ ...e, reuse: ru }, true];
      return [e, false];
    case 'val': {
      const [b, used] = assign(e.bound, arity, ru);
      if (used) return [{ ...e, bound: b }, true];
      const [body, u2] = assign(e.body, arity, ru);
      return [{ ...e, body }, u2];
    }
    case 'match': {
      let any = false;
      const branches = e.branches.map((b) => {
        const [body, u] = assign(b.body, arity, ru);
        any ||= u;
        return { ...b, body };
      });
      return [{ ...e, branches }, any];
    }
    case 'if': {
      const [t, u1] = assign(e.then, arity, ru);
      const [f, u2] = assign(e.else, arity, ru);
      return [{ ...e, then: t, else: f }, u1 || u2];
    }
    default:
      return [e, false];
  }
}

function analyse(e: Expr, fresh: () => string): Expr {
  switch (e.k) {
    case 'lam':
      return { ...e, body: analyse(e.body, fresh) };
    case 'val':
      return { ...e, bound: analyse(e.bound, fresh), body: analyse(e.body, fresh) };
    case 'if':
      return { ...e, then: analyse(e.then, fresh), else: analyse(e.else, fresh) };
    case 'match': {
      const x = (e.scrut as { name: string }).name;
      const branches = e.branches.map((b): Branch => {
        let body = b.body;
        let token: string | undefined;
        if (b.binders.length > 0 && !freeVars(body).has(x)) {
          const ru = fresh();
          const [paired, used] = assign(body, b.binders.length, ru);
          if (used) {
            body = paired;
            token = ru;
          }
        }
        // Inner matches pair with the constructors that are still unpaired.
        return { ...b, body: analyse(body, fresh), ...(token !== undefined ? { token } : {}) };
      });
      return { ...e, branches };
    }
    default:
      return e;
  }
}

export function reuseAnalysis(p: Program): Program {
  // Deterministic in the (immutable) program: the fuzz property asks for it once per reuse
  // configuration, so it is computed once per program.
  let known = ANALYSED.get(p);
  if (!known) ANALYSED.set(p, (known = analyseProgram(p)));
  return known;
}

const ANALYSED = new WeakMap<Program, Program>();

function analyseProgram(p: Program): Program {
  return mapBodies(p, (body, f) => {
    const taken = new Set<string>(f.params);
    names(body, taken);
    const supply = new NameSupply(taken);
    return analyse(body, () => supply.numbered('ru'));
  });
}
