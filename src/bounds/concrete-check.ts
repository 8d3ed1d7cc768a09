// Checking 𝓑(T)[Γ] on one input (def. 2.15): the query with the holes replaced by Γ, its
// parameters by the input, every ∀ enumerated, every let bound. A func access inside the query
// has the value the algorithm gives it: for a func with a single store whose indices are distinct
// variables (every pure func after lowering), that store's value expression; for other funcs the
// value is unknown and a constraint that depends on it is reported as undecided, not as passed.
import { type Expr, type Hole, holeKey } from '../expr/ast.js';
import { evalExpr } from '../expr/eval.js';
import { printExpr } from '../expr/print.js';
import { type Int, type Value, isError, showValue } from '../expr/value.js';
import { add, mul } from '../expr/ops.js';
import type { Input } from '../alg-semantics/ast.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { bindInput } from '../target-semantics/check.js';
import { visitStmts } from '../target-semantics/walk.js';
import type { Completion } from '../target-semantics/holes.js';
import { UserError } from '../diag.js';
import { type HolePair, type QNode, type Query, pairEnds, pairHole, pairKey } from './query.js';

export interface Violation {
  readonly rule: string;
  /** the constraint as printed in the query, with the values that broke it */
  readonly constraint: string;
  readonly detail: string;
  /** the values of the query's variables at the violation */
  readonly env: readonly (readonly [string, string])[];
}

export interface ConcreteReport {
  /** true: the query holds; false: a violation was found; undefined: undecided (unknown func values) or budget */
  readonly holds: boolean | undefined;
  readonly violation?: Violation;
  readonly undecided: number;
  /** the first index that evaluated to an error value (the algorithm's error), if any */
  readonly errorIndex?: string;
  readonly budgetExceeded: boolean;
  /** Σ over executed allocations (∃ ?mem) of the number of allocated points */
  readonly allocatedPoints: Int;
  /** the distinct concrete (min, len) of each hole pair, in order of first occurrence (at most 8 each) */
  readonly instances: ReadonlyMap<string, readonly (readonly [Int, Int])[]>;
}

class Unknown {
  constructor(readonly why: string) {}
}
type CVal = Value | Unknown;

/** Funcs whose values the checker can compute: a single store with distinct variable indices. */
export function definitions(t: TgtProgram): Map<string, { vars: readonly string[]; value: Expr }> {
  const stores = new Map<string, Extract<Stmt, { k: 'store' }>[]>();
  visitStmts(t.body, (s) => {
    if (s.k === 'store') stores.set(s.func, [...(stores.get(s.func) ?? []), s]);
  });
  const params = new Set([...t.params, ...t.window.flatMap((w) => [w.min, w.len])]);
  const out = new Map<string, { vars: readonly string[]; value: Expr }>();
  for (const [f, ss] of stores) {
    if (ss.length !== 1) continue;
    const s = ss[0]!;
    const vars = s.idx.map((e) => (e.k === 'var' ? e.name : undefined));
    if (vars.some((v) => v === undefined) || new Set(vars).size !== vars.length) continue;
    let closed = true;
    const check = (e: Expr): void => {
      if (e.k === 'var' && !vars.includes(e.name) && !params.has(e.name)) closed = false;
      if (e.k === 'access' && e.func === f) closed = false;
      if (e.k === 'access' || e.k === 'op') e.args.forEach(check);
    };
    check(s.value);
    if (closed) out.set(f, { vars: vars as string[], value: s.value });
  }
  return out;
}

const MAX_INSTANCES = 8;

/**
 * Query nodes visited by default before the check gives up as undecided: each visit evaluates
 * expressions over exact integers, so this ends within seconds (a split by 10^8 asks for 10^8
 * iterations of its ∀).
 */
export const CONCRETE_MAX_STEPS = 2_000_000;

/** 𝓑(T)[Γ] on input z; `maxSteps` bounds the number of query nodes visited. */
export function checkConcrete(t: TgtProgram, q: Query, gamma: Completion, input: Input, opts: { maxSteps?: number } = {}): ConcreteReport {
  const base = bindInput(t, input);
  const defs = definitions(t);
  const maxSteps = opts.maxSteps ?? CONCRETE_MAX_STEPS;
  let steps = 0;
  let undecided = 0;
  let allocated: Int = 0;
  let violation: Violation | undefined;
  let errorIndex: string | undefined;
  const instances = new Map<string, [Int, Int][]>();
  class Stop {}

  const access = (func: string, args: readonly Value[], depth: number): CVal => {
    const d = defs.get(func);
    if (!d) return new Unknown(`the values of ${func}`);
    if (args.some(isError)) return args.find(isError)!;
    if (depth > 64) return new Unknown(`the values of ${func} (definitions nested too deeply)`);
    const env = new Map<string, Value>(base);
    d.vars.forEach((v, i) => env.set(v, args[i]!));
    return evalC(d.value, env, depth + 1);
  };

  const evalC = (e: Expr, env: ReadonlyMap<string, Value>, depth = 0): CVal => {
    let unknown: Unknown | undefined;
    const v = evalExpr(e, env, {
      access: (func: string, args: readonly Value[]) => {
        const r = access(func, args, depth);
        if (r instanceof Unknown) {
          unknown ??= r;
          return 0;
        }
        return r;
      },
    });
    return unknown ?? v;
  };

  const holeExpr = (h: Hole): Expr => {
    const e = gamma.get(holeKey(h));
    if (!e) throw new UserError(`the completion has no value for ${holeKey(h)}, which the query needs`, undefined, 'a bounds engine must give every hole pair the query mentions, including those that occur only in it');
    return e;
  };
  /** Replaces the holes of an expression by their Γ values (expressions bind nothing). */
  const fill = (e: Expr): Expr => {
    if (e.k === 'hole') return holeExpr(e.hole);
    if (e.k === 'access' || e.k === 'op') return { ...e, args: e.args.map(fill) } as Expr;
    return e;
  };
  const pairValue = (p: HolePair, env: ReadonlyMap<string, Value>): [CVal, CVal] => {
    const ends = pairEnds(q, gamma, p);
    const min = ends ? fill(ends.min) : holeExpr(pairHole(p, 'min'));
    const len = ends ? fill(ends.len) : holeExpr(pairHole(p, 'len'));
    return [evalC(min, env), evalC(len, env)];
  };

  const fail = (n: QNode, constraint: string, detail: string, env: ReadonlyMap<string, Value>): never => {
    violation = {
      rule: n.rule,
      constraint,
      detail,
      env: [...env].filter(([k]) => !base.has(k) || k.includes('.')).map(([k, v]) => [k, showValue(v)] as const),
    };
    throw new Stop();
  };

  const go = (n: QNode, env: Map<string, Value>): void => {
    if (++steps > maxSteps) throw new Stop();
    switch (n.k) {
      case 'true':
        return;
      case 'pred': {
        const v = evalC(fill(n.e), env);
        if (v instanceof Unknown) undecided++;
        else if (isError(v) || v === 0) fail(n, printExpr(n.e, 'tgt'), `it evaluates to ${showValue(v)}`, env);
        return;
      }
      case 'in': {
        const v = evalC(fill(n.e), env);
        const [m, l] = pairValue(n.pair, env);
        if (v instanceof Unknown || m instanceof Unknown || l instanceof Unknown) {
          undecided++;
          return;
        }
        if (isError(v)) {
          // An index that is an error value comes from the algorithm's own errors (def. 2.6): no
          // completion can place it in bounds, and def. 2.3 excuses the algorithm's errors.
          undecided++;
          errorIndex ??= `${printExpr(n.e, 'tgt')} evaluates to ${showValue(v)}`;
          return;
        }
        const inside = !isError(v) && !isError(m) && !isError(l) && v >= m && v < add(m, l);
        if (!inside) {
          fail(n, `${printExpr(n.e, 'tgt')} ∈ ${pairKey(n.pair)}`, `${showValue(v)} is outside ${isError(m) || isError(l) ? `(${showValue(m)}, ${showValue(l)})` : `[${showValue(m)}, ${showValue(add(m, l))})`}`, env);
        }
        return;
      }
      case 'and':
        return n.parts.forEach((p) => go(p, env));
      case 'implies': {
        const c = evalC(fill(n.cond), env);
        if (c instanceof Unknown) {
          // The antecedent may hold: a violation of the body would only be possible, not certain.
          const before = violation;
          try {
            go(n.body, env);
          } catch (e) {
            if (!(e instanceof Stop) || steps > maxSteps) throw e;
            violation = before;
            undecided++;
          }
          return;
        }
        if (!isError(c) && c !== 0) go(n.body, env);
        return;
      }
      case 'forall': {
        const m = evalC(fill(n.min), env);
        const l = evalC(fill(n.len), env);
        if (m instanceof Unknown || l instanceof Unknown || isError(m) || isError(l)) {
          undecided++;
          return;
        }
        const inner = new Map(env);
        for (let i: Int = 0; i < l; i = add(i, 1)) {
          inner.set(n.v, add(m, i));
          go(n.body, inner);
        }
        return;
      }
      case 'let': {
        const v = evalC(fill(n.e), env);
        if (v instanceof Unknown) {
          undecided++;
          return;
        }
        const inner = new Map(env);
        inner.set(n.v, v);
        return go(n.body, inner);
      }
      case 'exists': {
        let points: Int = 1;
        for (const p of n.pairs) {
          const [m, l] = pairValue(p, env);
          if (m instanceof Unknown || l instanceof Unknown || isError(m) || isError(l)) continue;
          const key = pairKey(p);
          const seen = instances.get(key) ?? [];
          if (seen.length < MAX_INSTANCES && !seen.some(([a, b]) => a === m && b === l)) seen.push([m, l]);
          instances.set(key, seen);
          if (p.kind === 'mem') points = mul(points, l < 0 ? 0 : l);
        }
        if (n.pairs.some((p) => p.kind === 'mem')) allocated = add(allocated, points);
        return go(n.body, env);
      }
    }
  };

  let budgetExceeded = false;
  try {
    go(q.body, new Map(base));
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    budgetExceeded = violation === undefined;
  }
  return {
    holds: violation ? false : budgetExceeded || undecided > 0 ? undefined : true,
    ...(violation ? { violation } : {}),
    undecided,
    ...(errorIndex ? { errorIndex } : {}),
    budgetExceeded,
    allocatedPoints: allocated,
    instances,
  };
}

/** The rule of spec/bounds.md this check implements, printed before its verdicts. */
export const CONCRETE_RULE = 'CHECK-CONCRETE';

/** One line per hole pair with its concrete intervals, for `refsem bounds --window`. */
export function showInstances(r: ConcreteReport): string {
  return [...r.instances]
    .map(([k, ivs]) => `${k}: ${ivs.map(([m, l]) => `[${m}, ${add(m, l)})`).join(' ')}${ivs.length === MAX_INSTANCES ? ' …' : ''}`)
    .join('\n');
}

/** The violation, printed for users: which constraint, which values, where. */
export function showViolation(v: Violation): string {
  const where = v.env.length ? ` with ${v.env.map(([k, x]) => `${k} = ${x}`).join(', ')}` : '';
  return `[${v.rule}] ${v.constraint} fails${where}: ${v.detail}`;
}
