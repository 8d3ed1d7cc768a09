// Reuse analysis (§4.2.4), rule 'OPT-REUSE'. Runs before reference-count insertion, on the erased
// core. Every match branch `C(ys) -> e` makes the matched cell available as a token while e runs
// (the scrutinee is always dead in e: the normal form copies a scrutinee that is still needed, see
// spec/perceus.md, "Normal form"). Walking e in evaluation order, each constructor allocation takes
// an available token of its size (its arity: every field is one word), preferring a cell of the
// same constructor, then the most recently matched one — the pairing Koka's compiler makes, which
// lets reuse specialization (reusespec.ts) keep fields in place. Among cells of the same
// constructor, one whose fields the constructor leaves in place comes first (spec/perceus.md,
// [OPT-REUSE]: a default branch rebuilds the value it matched, and should get its own cell). A token is used at most once on
// every path; after an inner match or `if`, a token used in any of its branches is gone. The
// branch that made a used token binds it (`ru`); Perceus owns it like one more binder of the
// branch, so paths that do not use it drop it (freeing the reserved cell).
import { type Branch, type Expr, type Program, foldExpr, freeVars, mapBodies } from '../syntax.js';
import { NameSupply } from '../names.js';

/** The rule this module implements, for rule coverage (rules-fired.ts). */
export const OPT_REUSE = 'OPT-REUSE';

/** A matched cell available for reuse; named when a constructor first takes it. */
interface Token {
  readonly con: string;
  readonly binders: readonly string[];
  name?: string;
}

interface Walk {
  readonly fresh: () => string;
}

/** How many arguments are the variable the token's match bound at the same position. */
function inPlace(t: Token, args: readonly Expr[]): number {
  let n = 0;
  args.forEach((a, i) => {
    if (a.k === 'var' && a.name === t.binders[i]) n++;
  });
  return n;
}

/**
 * The token a constructor takes: one of its size; of the same constructor if there is one; among
 * those, the one whose fields it leaves most in place (a rebuilt matched value takes its own
 * cell), then the most recently matched.
 */
function choose(avail: readonly Token[], con: string, args: readonly Expr[]): Token | undefined {
  let best: Token | undefined;
  let bestScore = -1;
  for (const t of avail) {
    if (t.binders.length !== args.length) continue;
    // Later tokens are more recent: ties go to the later one.
    const score = t.con === con ? 1 + inPlace(t, args) : 0;
    if (score >= bestScore) {
      best = t;
      bestScore = score;
    }
  }
  return best;
}

/** The rewritten expression and the tokens it uses on some path. */
function go(e: Expr, avail: readonly Token[], w: Walk): [Expr, Set<Token>] {
  switch (e.k) {
    case 'con': {
      if (e.args.length === 0 || e.reuse !== undefined) return [e, new Set()];
      const t = choose(avail, e.con, e.args);
      if (!t) return [e, new Set()];
      t.name ??= w.fresh();
      return [{ ...e, reuse: t.name }, new Set([t])];
    }
    case 'lam':
      // A lambda's body runs in another activation: no token of this one may reach it.
      return [{ ...e, body: go(e.body, [], w)[0] }, new Set()];
    case 'val': {
      const [bound, u1] = go(e.bound, avail, w);
      const [body, u2] = go(e.body, avail.filter((t) => !u1.has(t)), w);
      return [{ ...e, bound, body }, new Set([...u1, ...u2])];
    }
    case 'if': {
      const [then, u1] = go(e.then, avail, w);
      const [els, u2] = go(e.else, avail, w);
      return [{ ...e, then, else: els }, new Set([...u1, ...u2])];
    }
    case 'match': {
      const used = new Set<Token>();
      const branches = e.branches.map((b): Branch => {
        const own: Token | undefined = b.binders.length > 0 ? { con: b.con, binders: b.binders } : undefined;
        const [body, u] = go(b.body, own ? [...avail, own] : avail, w);
        for (const t of u) if (t !== own) used.add(t);
        return { ...b, body, ...(own?.name !== undefined ? { token: own.name } : {}) };
      });
      return [{ ...e, branches }, used];
    }
    default:
      return [e, new Set()];
  }
}

/** Every name bound or free in a body, so that tokens get names of their own. */
function namesIn(body: Expr, out: Set<string>): void {
  for (const n of freeVars(body)) out.add(n);
  foldExpr(body, out, (acc, e) => {
    if (e.k === 'lam') acc.add(e.param);
    if (e.k === 'val') acc.add(e.name);
    if (e.k === 'match') for (const b of e.branches) b.binders.forEach((y) => acc.add(y));
    return acc;
  });
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
    namesIn(body, taken);
    const supply = new NameSupply(taken);
    return go(body, [], { fresh: () => supply.numbered('ru') })[0];
  });
}
