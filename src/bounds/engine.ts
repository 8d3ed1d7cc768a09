// Bounds engines (def. 2.4) and the plug-in API. An engine answers the oracle query 𝓑(T)
// (def. 2.15) with a completion Γ or a failure with an explanation; `completeProgram` lifts it to
// a map Tgt? → Tgt (§2.7.2): [Γ]T on success, the body replaced by `assert 0` on failure.
import { UserError } from '../diag.js';
import { type Expr, type OpName, OP_ARITY, holeKey } from '../expr/ast.js';
import { parseExprText } from '../expr/parse.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { boundNames } from '../schedule/loops.js';
import { type Completion, holesOf } from '../target-semantics/holes.js';
import { type CoverAssertion, beta0 } from './beta0.js';
import { beta1 } from './beta1.js';
import { applyCompletion, failedProgram } from './completion.js';
import { type Query, extractQuery } from './query.js';

export type EngineResult =
  | { readonly ok: true; readonly completion: Completion; readonly assertions?: readonly CoverAssertion[] }
  | { readonly ok: false; readonly explanation: string; readonly hole?: string };

export interface BoundsEngine {
  readonly name: string;
  complete(t: TgtProgram, q: Query): EngineResult;
}

/** What a plug-in may return: a Map or a plain object from hole keys to expressions or their text. */
export type EngineAnswer =
  | EngineResult
  | { readonly ok: true; readonly completion: ReadonlyMap<string, Expr | string> | Readonly<Record<string, Expr | string>> };

/**
 * Defines an engine from a plug-in's `complete`, checking every answer: a malformed substitution
 * or an exception becomes a UserError naming the engine (exit code 2), never a crash.
 */
export function defineBoundsEngine(spec: { name: string; complete: (t: TgtProgram, q: Query) => EngineAnswer }): BoundsEngine {
  if (!spec || typeof spec.name !== 'string' || spec.name === '' || typeof spec.complete !== 'function') {
    throw new UserError('a bounds engine needs a non-empty `name` and a `complete(t, q)` function');
  }
  const { name } = spec;
  return {
    name,
    complete(t, q) {
      let raw: unknown;
      try {
        raw = spec.complete(t, q);
      } catch (e) {
        throw new UserError(`bounds engine '${name}' threw: ${(e as Error)?.message ?? String(e)}`, undefined, 'fix the engine; a failing engine should return { ok: false, explanation }');
      }
      return checkAnswer(name, t, raw);
    },
  };
}

const bad = (name: string, what: string): UserError =>
  new UserError(`bounds engine '${name}' returned a malformed answer: ${what}`, undefined, 'return { ok: true, completion: Map<holeKey, Expr> } or { ok: false, explanation: string }');

function checkAnswer(name: string, t: TgtProgram, raw: unknown): EngineResult {
  if (raw === null || typeof raw !== 'object' || typeof (raw as { ok?: unknown }).ok !== 'boolean') throw bad(name, 'not an object with a boolean `ok`');
  const r = raw as { ok: boolean; explanation?: unknown; hole?: unknown; completion?: unknown; assertions?: unknown };
  if (!r.ok) {
    if (typeof r.explanation !== 'string') throw bad(name, 'a failure needs a string `explanation`');
    return typeof r.hole === 'string' ? { ok: false, explanation: r.explanation, hole: r.hole } : { ok: false, explanation: r.explanation };
  }
  const entries: [string, unknown][] =
    r.completion instanceof Map ? [...r.completion.entries()] : r.completion && typeof r.completion === 'object' ? Object.entries(r.completion) : [];
  if (!(r.completion instanceof Map) && (r.completion === null || typeof r.completion !== 'object')) throw bad(name, '`completion` is not a Map or an object');
  const scope = boundNames(t);
  const gamma = new Map<string, Expr>();
  for (const [k, v] of entries) {
    let e: Expr;
    if (typeof v === 'string') {
      try {
        e = parseExprText(v, 'tgt', `<engine ${name}: ${k}>`);
      } catch (err) {
        throw bad(name, `the value of ${k} does not parse: ${(err as Error).message}`);
      }
    } else if (isExpr(v)) e = v;
    else throw bad(name, `the value of ${k} is not an expression`);
    const problem = exprProblem(e, scope);
    if (problem) throw bad(name, `the value of ${k} ${problem}`);
    gamma.set(k, e);
  }
  const missing = holesOf(t).map(holeKey).filter((k) => !gamma.has(k));
  if (missing.length) throw bad(name, `no value for ${missing.slice(0, 4).join(' ')}${missing.length > 4 ? ` … (${missing.length} in all)` : ''}`);
  if (r.assertions !== undefined && !Array.isArray(r.assertions)) throw bad(name, '`assertions` is not an array');
  const assertions = ((r.assertions ?? []) as unknown[]).map((a, i): CoverAssertion => {
    const x = a as Partial<CoverAssertion> | null;
    if (!x || typeof x.func !== 'string' || !isExpr(x.cond)) throw bad(name, `assertion ${i + 1} needs a func name and an expression \`cond\``);
    const problem = exprProblem(x.cond, scope);
    if (problem) throw bad(name, `assertion ${i + 1} ${problem}`);
    return { rule: 'plug-in', func: x.func, cond: x.cond, why: `engine ${name}` };
  });
  return { ok: true, completion: gamma, assertions };
}

function isExpr(v: unknown): v is Expr {
  if (v === null || typeof v !== 'object') return false;
  const e = v as { k?: unknown; value?: unknown; name?: unknown; op?: unknown; args?: unknown; func?: unknown; hole?: unknown };
  switch (e.k) {
    case 'const':
      return typeof e.value === 'number' ? Number.isSafeInteger(e.value) : typeof e.value === 'bigint';
    case 'var':
      return typeof e.name === 'string';
    case 'op':
      return typeof e.op === 'string' && e.op in OP_ARITY && Array.isArray(e.args) && e.args.length === OP_ARITY[e.op as OpName] && e.args.every(isExpr);
    case 'hole':
      return typeof e.hole === 'object' && e.hole !== null;
    case 'access':
      return typeof e.func === 'string' && Array.isArray(e.args) && e.args.every(isExpr);
    default:
      return false;
  }
}

/** Hole values are expressions over parameters and program variables, without holes or func reads. */
function exprProblem(e: Expr, scope: ReadonlySet<string>): string | undefined {
  switch (e.k) {
    case 'hole':
      return 'contains a hole';
    case 'access':
      return `reads func '${e.func}' (bounds may not depend on func values)`;
    case 'var':
      return scope.has(e.name) ? undefined : `mentions '${e.name}', which is neither a parameter nor a program variable`;
    case 'op':
      for (const a of e.args) {
        const p = exprProblem(a, scope);
        if (p) return p;
      }
      return undefined;
    default:
      return undefined;
  }
}

export const BUILTIN_ENGINES: Readonly<Record<string, BoundsEngine>> = {
  beta0: { name: 'beta0', complete: beta0 },
  beta1: { name: 'beta1', complete: beta1 },
};

/** A completed program, with how it was completed. */
export type CompletedProgram = TgtProgram & {
  readonly completedBy: { readonly rule: string; readonly engine: string; readonly failure?: string; readonly hole?: string; readonly completion?: Completion };
};

/** The lifted engine of §2.7.2 ([ENGINE-LIFT]): [Γ]T, or `assert 0` with the explanation. */
export function completeProgram(t: TgtProgram, engine: BoundsEngine): CompletedProgram {
  // Without holes Γ is empty and [Γ]T is T: there is nothing to ask the engine.
  if (holesOf(t).length === 0) return { ...t, completedBy: { rule: 'ENGINE-LIFT', engine: engine.name, completion: new Map() } };
  const r = runEngine(t, engine);
  if (!r.ok) {
    return { ...failedProgram(t), completedBy: { rule: 'ENGINE-LIFT', engine: engine.name, failure: r.explanation, ...(r.hole ? { hole: r.hole } : {}) } };
  }
  return { ...applyCompletion(t, r.completion, r.assertions ?? []), completedBy: { rule: 'ENGINE-LIFT', engine: engine.name, completion: r.completion } };
}

const QUERIES = new WeakMap<TgtProgram, Query>();

/**
 * Q_T (def. 2.4) of a program, extracted once per program: programs and queries are immutable,
 * and one program is often completed by several engines (memory safety, bounds quality).
 */
function queryOf(t: TgtProgram): Query {
  let q = QUERIES.get(t);
  if (!q) QUERIES.set(t, (q = extractQuery(t)));
  return q;
}

/** Runs an engine on T's query; built-in engines' results are trusted, plug-ins are checked. */
export function runEngine(t: TgtProgram, engine: BoundsEngine, q: Query = queryOf(t)): EngineResult {
  try {
    return engine.complete(t, q);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`bounds engine '${engine.name}' threw: ${(e as Error)?.message ?? String(e)}`);
  }
}

