// Symbolic checking of 𝓑(T)[Γ] with Z3 (def. 2.15): is the query true for every parameter value
// in the given ranges? The query has only positive structure (∧, ⇒, ∀ over loop ranges, let), so
// its negation is existential: some path through ∀s and ⇒s, with its loop variables inside their
// ranges and its antecedents true, reaches a false atom. That is one quantifier-free problem over
// the integers, with SMT-LIB's Euclidean div/mod (x div 0 and x mod 0 made 0 explicitly, §2.9).
// Funcs defined by a single store are inlined; other funcs are uninterpreted, so a model may rely
// on values no program computes: every counterexample is replayed concretely before it is
// reported as a refutation.
import { UserError } from '../diag.js';
import { type Expr, type Hole, holeKey } from '../expr/ast.js';
import { type BoolE, type Ctx, type IntE, intOp, withZ3 } from '../expr/smt.js';
import { type Int, isError, normBig } from '../expr/value.js';
import type { Input } from '../alg-semantics/ast.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import type { Completion } from '../target-semantics/holes.js';
import { checkConcrete, definitions } from './concrete-check.js';
import { type HolePair, type QNode, type Query, extractQuery, pairEnds, pairHole } from './query.js';
import { withAssertions } from './completion.js';
import type { CoverAssertion } from './beta0.js';

/** The rule of spec/bounds.md this check implements, printed before its verdicts. */
export const Z3_RULE = 'CHECK-Z3';

export type VerifyResult =
  | { readonly status: 'proved' }
  | { readonly status: 'refuted'; readonly input: Input }
  | { readonly status: 'unknown'; readonly reason: string };

export interface VerifyOptions {
  /** inclusive ranges of parameters (and window parameters); missing ones get the defaults */
  readonly ranges?: ReadonlyMap<string, readonly [Int, Int]>;
  readonly timeoutMs?: number;
  /** covering assertions of bounds hints, inserted before the query is extracted */
  readonly assertions?: readonly CoverAssertion[];
}

/** Default ranges: window lengths in [0, 64], every other parameter in [−64, 64]. */
export function defaultRange(name: string, t: TgtProgram): readonly [Int, Int] {
  return t.window.some((w) => w.len === name) ? [0, 64] : [-64, 64];
}

class Unsupported extends Error {}

/** Encodes the negation of the query: true iff some atom fails on some path. */
function encode(c: Ctx, t: TgtProgram, q: Query, gamma: Completion): { violation: BoolE; params: Map<string, IntE> } {
  const defs = definitions(t);
  const params = new Map(q.params.map((p) => [p, c.Int.const(p)] as const));
  const funcs = new Map<string, ReturnType<typeof c.Function.declare>>();
  let fresh = 0;
  const zero = c.Int.val(0);
  const truth = (e: IntE): BoolE => e.neq(zero);

  const hole = (h: Hole): Expr => {
    const e = gamma.get(holeKey(h));
    if (!e) throw new UserError(`the completion has no value for ${holeKey(h)}, which the query needs`);
    return e;
  };

  const ex = (e: Expr, env: ReadonlyMap<string, IntE>, depth = 0): IntE => {
    switch (e.k) {
      case 'const':
        if (isError(e.value)) throw new Unsupported('the query contains an error constant');
        return c.Int.val(e.value);
      case 'var': {
        const v = env.get(e.name) ?? params.get(e.name);
        if (!v) throw new Unsupported(`variable '${e.name}' is not bound where the query uses it`);
        return v;
      }
      case 'hole':
        return ex(hole(e.hole), env, depth);
      case 'access': {
        const args = e.args.map((a) => ex(a, env, depth));
        const d = defs.get(e.func);
        if (d && depth < 16) {
          const inner = new Map<string, IntE>(d.vars.map((v, i) => [v, args[i]!] as const));
          return ex(d.value, inner, depth + 1);
        }
        let f = funcs.get(e.func);
        if (!f) {
          const sorts = e.args.map(() => c.Int.sort());
          f = c.Function.declare(`func.${e.func}`, ...(sorts as [ReturnType<typeof c.Int.sort>]), c.Int.sort());
          funcs.set(e.func, f);
        }
        return f.call(...(args as [IntE])) as IntE;
      }
      case 'op':
        return intOp(c, e.op, e.args.map((x) => ex(x, env, depth)));
    }
  };

  const member = (e: Expr, p: HolePair, env: ReadonlyMap<string, IntE>): BoolE => {
    const v = ex(e, env);
    const ends = pairEnds(q, gamma, p);
    const m = ex(ends?.min ?? hole(pairHole(p, 'min')), env);
    const l = ex(ends?.len ?? hole(pairHole(p, 'len')), env);
    return c.And(m.le(v), v.lt(m.add(l)));
  };

  const neg = (n: QNode, env: ReadonlyMap<string, IntE>): BoolE => {
    switch (n.k) {
      case 'true':
        return c.Bool.val(false);
      case 'pred':
        return ex(n.e, env).eq(zero);
      case 'in':
        return c.Not(member(n.e, n.pair, env));
      case 'and':
        return c.Or(...n.parts.map((p) => neg(p, env)));
      case 'implies':
        return c.And(truth(ex(n.cond, env)), neg(n.body, env));
      case 'exists':
        return neg(n.body, env);
      case 'forall': {
        const v = c.Int.const(`${n.v}#${fresh++}`);
        const m = ex(n.min, env);
        const l = ex(n.len, env);
        const inner = new Map(env);
        inner.set(n.v, v);
        return c.And(m.le(v), v.lt(m.add(l)), neg(n.body, inner));
      }
      case 'let': {
        const inner = new Map(env);
        inner.set(n.v, ex(n.e, env));
        return neg(n.body, inner);
      }
    }
  };
  return { violation: neg(q.body, new Map()), params };
}

/**
 * Proves 𝓑(T)[Γ] for all parameters in `ranges`, or returns an input on which it fails (checked
 * concretely), or says why it could not decide.
 */
export function verifyCompletion(t: TgtProgram, gamma: Completion, ranges?: ReadonlyMap<string, readonly [Int, Int]>, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const tt = withAssertions(t, opts.assertions ?? []);
  const q = extractQuery(tt);
  const rs = new Map<string, readonly [Int, Int]>();
  for (const p of q.params) rs.set(p, ranges?.get(p) ?? opts.ranges?.get(p) ?? defaultRange(p, t));
  for (const [name, [lo, hi]] of [...(ranges ?? []), ...(opts.ranges ?? [])]) {
    if (!q.params.includes(name)) throw new UserError(`--range names '${name}', which is not a parameter`, undefined, `the parameters are ${q.params.join(', ') || '(none)'}`);
    if (lo > hi) throw new UserError(`the range of '${name}' is empty (${lo}..${hi})`, undefined, 'give LO..HI with LO ≤ HI');
  }
  return withZ3(async (c) => {
    let enc: ReturnType<typeof encode>;
    try {
      enc = encode(c, tt, q, gamma);
    } catch (e) {
      if (e instanceof Unsupported) return { status: 'unknown', reason: `the query cannot be encoded: ${e.message}` } as const;
      throw e;
    }
    const solver = new c.Solver();
    solver.set('timeout', opts.timeoutMs ?? 10_000);
    for (const [p, [lo, hi]] of rs) {
      const v = enc.params.get(p)!;
      solver.add(v.ge(c.Int.val(lo)), v.le(c.Int.val(hi)));
    }
    solver.add(enc.violation);
    const r = await solver.check();
    if (r === 'unsat') return { status: 'proved' } as const;
    if (r === 'unknown') return { status: 'unknown', reason: `the solver answered unknown (${solver.reasonUnknown?.() ?? 'no reason given'})` } as const;
    const model = solver.model();
    const val = (p: string): Int => {
      const v = model.eval(enc.params.get(p)!, true);
      if (c.isIntVal(v)) return normBig(v.value());
      throw new Error(`internal: Z3 gave no integer for ${p}: ${v.toString()}`);
    };
    const input: Input = {
      window: t.window.map((w) => [val(w.min), val(w.len)] as const),
      params: new Map(t.params.map((p) => [p, val(p)] as const)),
    };
    const replay = checkConcrete(tt, q, gamma, input);
    if (replay.holds === false) return { status: 'refuted', input } as const;
    const shown = [...input.params, ...t.window.flatMap((w, i) => [[w.min, input.window[i]![0]], [w.len, input.window[i]![1]]] as const)]
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    return {
      status: 'unknown',
      reason: `the solver's counterexample (${shown}) relies on func values no run computes; the concrete check there ${replay.holds === true ? 'passes' : 'is undecided'}`,
    } as const;
  });
}
