// The soundness properties of §2.3 on generated (algorithm, schedule, input) cases, each checked
// on the fast path: generate → lower → schedule → bounds → fast executor → compare.
//   confluence     thm. 2.2 / def. 2.3
//   memory-safety  thm. 2.1, for β0 and β1 completions
//   bounds-quality def. 2.5, an engine (β1 by default) against β0
//   race-free      no data race under parallel traversal (spec/target.md, "Parallel loops")
//   lemmas         lemmas 2.4 and 2.5 after every directive
import { walkExpr } from '../../expr/ast.js';
import { type ErrorValue, type Value, isError, toBig } from '../../expr/value.js';
import type { Pipeline } from '../../alg-semantics/ast.js';
import { BUILTIN_ENGINES, type BoundsEngine } from '../../bounds/engine.js';
import { type Realization } from '../../alg-semantics/fast-eval.js';
import { compareOutputs, isConfluent, negativeRdom, showVerdict, type Verdict } from '../../lowering/equivalence.js';
import { checkDominance, checkLoopNaming } from '../../lowering/invariants.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import type { Outcome } from '../../target-semantics/outcome.js';
import { complete } from '../../pipeline.js';
import type { FuzzEnv } from '../env.js';
import { PASS, type CheckResult, type Property } from '../property.js';
import type { Vacuity } from '../stats.js';
import { realizeFast, stepBudget } from './alg-case.js';
import { type SchedCase, type SchedGen, arbSchedGen, decodeSched, encodeSched, finalProgram, firstFailingDirective, observeSched, schedCase, schedSeeded, schedShape } from './sched-case.js';
import { showInput } from './text.js';
import { showOutcome } from '../../target-semantics/display.js';

/** Runs the completed program on the case's input with the campaign's executor. */
export function run(c: SchedCase, t: TgtProgram, engine: BoundsEngine, env: FuzzEnv): Outcome {
  return env.exec(complete(t, engine), c.input, { maxSteps: stepBudget(c, env) });
}

/**
 * A directive that crashed or rejected its own proposal fails every scheduling property, and is
 * the culprit of the failure (each property's `culprit` names it first).
 */
function trouble(c: SchedCase): CheckResult | undefined {
  if (!c.trouble) return undefined;
  return { status: 'fail', verdict: 'directive-error', expected: `directive ${c.trouble.directive} applies to the arguments its generate proposed`, actual: c.trouble.message };
}

/**
 * Decision (docs/fuzzing.md, "Error constants"): §2.3.2 promises nothing once the algorithm itself
 * contains errors. An algorithm that writes an error constant can carry it into a coordinate or a
 * condition, where the target can only get stuck (def. 2.13: a point holding an error value is out
 * of bounds). Such a run is excused when every error value in the stuck state is of a kind the
 * algorithm writes literally; an ε_mem from an uninitialized read in an algorithm without `err.mem`
 * stays a failure, which is what theorem 2.1 is about.
 */
export function excusedByAlgorithmErrors(p: Pipeline, o: Outcome): ErrorValue | undefined {
  if (o.kind !== 'stuck') return undefined;
  const s = o.stuck;
  const values: Value[] = s.kind === 'oob-read' || s.kind === 'oob-write' ? [...s.point] : s.kind === 'error-in-control' ? [s.value] : [];
  const errs = values.filter(isError);
  if (errs.length === 0) return undefined;
  const literals = new Set<string>();
  for (const f of p.funcs) {
    for (const st of f.stages) {
      for (const e of [...st.lhs, st.rhs, st.pred]) walkExpr(e, (x) => {
        if (x.k === 'const' && isError(x.value)) literals.add(x.value.err);
      });
    }
  }
  return errs.every((e) => literals.has(e.err)) ? errs[0] : undefined;
}

const common = {
  concretize: schedCase,
  directivesOf: (c: SchedCase) => c.names,
  encode: encodeSched,
  decode: decodeSched,
  shape: schedShape,
  observe: observeSched,
  seeded: schedSeeded(),
};

/**
 * A check judged against the algorithm's values on the case's window: directive errors first, a
 * discard when the algorithm's step budget runs out, otherwise `judge`.
 */
function checkAgainstAlg(c: SchedCase, env: FuzzEnv, judge: (alg: Realization) => CheckResult): CheckResult {
  const bad = trouble(c);
  if (bad) return bad;
  const alg = realizeFast(c, env);
  return 'budget' in alg ? { status: 'discard', why: alg.budget } : judge(alg);
}

/** The first directive after which `fails` holds, judged against the algorithm's values. */
function culpritAgainstAlg(c: SchedCase, env: FuzzEnv, fails: (alg: Realization, t: TgtProgram) => boolean): ReturnType<typeof firstFailingDirective> | undefined {
  const alg = realizeFast(c, env);
  return 'budget' in alg ? undefined : firstFailingDirective(c, (t) => fails(alg, t));
}

/** Def. 2.3's verdict for one completion, with the error-constant excuse above as `vacuous-alg-error`. */
function confluenceVerdict(c: SchedCase, alg: Realization, t: TgtProgram, engine: BoundsEngine, env: FuzzEnv): Verdict {
  const neg = negativeRdom(c.pipeline, c.input.params);
  const o = run(c, t, engine, env);
  const v = compareOutputs(alg, o, c.input.window, neg === undefined ? {} : { negativeRdom: neg });
  const excuse = v.kind === 'unsafe' ? excusedByAlgorithmErrors(c.pipeline, o) : undefined;
  return excuse ? { kind: 'vacuous-alg-error', point: [], value: excuse } : v;
}

/** A window with no point: every comparison on it is vacuous. */
const emptyWindow = (c: SchedCase): boolean => c.input.window.some(([, len]) => toBig(len) <= 0n);

/**
 * Why a passing verdict compared no value (stats.ts, VERDICT_KEYS): the window is empty, the
 * completed program failed an assertion (its engine gave up), or the algorithm itself has an error
 * value on the window (def. 2.3 then promises nothing).
 */
export function vacuityOf(c: SchedCase, v: Verdict): Vacuity | undefined {
  if (emptyWindow(c)) return 'empty_window';
  switch (v.kind) {
    case 'vacuous-assertion':
      return 'vacuous_assertion';
    case 'vacuous-alg-error':
    case 'vacuous-alg-error-elsewhere':
    case 'vacuous-rdom':
      return 'vacuous_alg_error';
    default:
      return undefined;
  }
}

/** A pass, marked vacuous when it compared nothing. */
function passing(vacuous: Vacuity | undefined): CheckResult {
  return vacuous ? { status: 'pass', vacuous } : PASS;
}

/** The vacuity of a run that did not go wrong: it failed an assertion, or had no point to compute. */
function runVacuity(c: SchedCase, o: Outcome): Vacuity | undefined {
  if (emptyWindow(c)) return 'empty_window';
  if (o.kind === 'stuck' && o.stuck.kind === 'assert-failed') return 'vacuous_assertion';
  return excusedByAlgorithmErrors(c.pipeline, o) ? 'vacuous_alg_error' : undefined;
}

export const confluence: Property<SchedGen, SchedCase> = {
  name: 'confluence',
  summary: 'thm. 2.2: the scheduled, completed program equals the algorithm on the window, or the algorithm has an error value there, or an assertion failed (def. 2.3)',
  arbitrary: (env) => arbSchedGen(env),
  ...common,
  check: (c, env) =>
    checkAgainstAlg(c, env, (alg) => {
      const v = confluenceVerdict(c, alg, finalProgram(c), env.engine, env);
      const ok = isConfluent(v);
      if (ok === undefined) return { status: 'discard', why: 'target step budget' };
      if (ok) return passing(vacuityOf(c, v));
      return { status: 'fail', verdict: v.kind === 'unsafe' ? `unsafe-${v.stuck.kind}` : v.kind, expected: `the algorithm's values on ${showInput(c.input)}`, actual: showVerdict(v) };
    }),
  culprit: (c, env) => c.trouble?.directive ?? culpritAgainstAlg(c, env, (alg, t) => isConfluent(confluenceVerdict(c, alg, t, env.engine, env)) === false),
};

const MEMORY_ERRORS = new Set(['oob-read', 'oob-write', 'unallocated']);

/** Engines memory safety is checked for: β0, β1 and the campaign's own engine. */
function safetyEngines(env: FuzzEnv): BoundsEngine[] {
  const out = [BUILTIN_ENGINES.beta0!, BUILTIN_ENGINES.beta1!];
  if (!out.some((e) => e.name === env.engine.name)) out.push(env.engine);
  else out[out.findIndex((e) => e.name === env.engine.name)] = env.engine;
  return out;
}

/** The first memory error of a completion, or how vacuous the runs were (each engine's run looked at). */
function memoryError(c: SchedCase, t: TgtProgram, env: FuzzEnv): { engine: string; outcome: Outcome } | { vacuous: Vacuity | undefined } {
  const vacuities: (Vacuity | undefined)[] = [];
  for (const engine of safetyEngines(env)) {
    const o = run(c, t, engine, env);
    if (o.kind === 'stuck' && MEMORY_ERRORS.has(o.stuck.kind) && excusedByAlgorithmErrors(c.pipeline, o) === undefined) return { engine: engine.name, outcome: o };
    vacuities.push(runVacuity(c, o));
  }
  // Vacuous only when no engine's run got to touch memory.
  return { vacuous: vacuities.every((v) => v !== undefined) ? vacuities[0] : undefined };
}

export const memorySafety: Property<SchedGen, SchedCase> = {
  name: 'memory-safety',
  summary: 'thm. 2.1: programs completed by β0 and by β1 never read or write out of bounds or touch an unallocated buffer',
  arbitrary: (env) => arbSchedGen(env),
  ...common,
  check(c, env) {
    const bad = trouble(c);
    if (bad) return bad;
    const err = memoryError(c, finalProgram(c), env);
    if ('vacuous' in err) return passing(err.vacuous);
    return { status: 'fail', verdict: (err.outcome as Extract<Outcome, { kind: 'stuck' }>).stuck.kind, expected: `no memory error (engine ${err.engine})`, actual: showOutcome(err.outcome) };
  },
  culprit: (c, env) => c.trouble?.directive ?? firstFailingDirective(c, (t) => 'outcome' in memoryError(c, t, env)),
};

/** The engine judged by bounds-quality: the campaign's engine, or β1 when that is β0 itself. */
const judged = (env: FuzzEnv): BoundsEngine => (env.engine.name === 'beta0' ? BUILTIN_ENGINES.beta1! : env.engine);

/** A breach of def. 2.5, or how vacuous the comparison was (β0 itself did not give the values). */
function qualityBreach(c: SchedCase, alg: Realization, t: TgtProgram, env: FuzzEnv): { breach: Verdict } | { vacuous: Vacuity | undefined } {
  const base = confluenceVerdict(c, alg, t, BUILTIN_ENGINES.beta0!, env);
  // Def. 2.5 only binds where β0 itself produced the algorithm's values. Where it did not (and no
  // other cause applies), β0's run is counted with the failed assertions: the comparison with β1
  // was never made.
  if (base.kind !== 'equal') return { vacuous: vacuityOf(c, base) ?? 'vacuous_assertion' };
  const v = confluenceVerdict(c, alg, t, judged(env), env);
  return v.kind === 'equal' || v.kind === 'inconclusive' ? { vacuous: vacuityOf(c, v) } : { breach: v };
}

export const boundsQuality: Property<SchedGen, SchedCase> = {
  name: 'bounds-quality',
  summary: 'def. 2.5: wherever β0 completes the program to the algorithm\'s values (no error value, no failed assertion), β1 does too',
  arbitrary: (env) => arbSchedGen(env),
  ...common,
  check: (c, env) =>
    checkAgainstAlg(c, env, (alg) => {
      const q = qualityBreach(c, alg, finalProgram(c), env);
      if ('vacuous' in q) return passing(q.vacuous);
      return { status: 'fail', verdict: 'bounds-quality', expected: `β0 matches the algorithm on ${showInput(c.input)}, so ${judged(env).name} must too`, actual: `${judged(env).name}: ${showVerdict(q.breach)}` };
    }),
  culprit: (c, env) => c.trouble?.directive ?? culpritAgainstAlg(c, env, (alg, t) => 'breach' in qualityBreach(c, alg, t, env)),
};

function race(c: SchedCase, t: TgtProgram, env: FuzzEnv): { race: Outcome } | { vacuous: Vacuity | undefined; overlaps?: boolean } {
  const o = run(c, t, env.engine, env);
  if (o.kind === 'stuck' && o.stuck.kind === 'data-race') return { race: o };
  return { vacuous: runVacuity(c, o), ...(o.kind === 'done' && o.overlaps ? { overlaps: true } : {}) };
}

export const raceFree: Property<SchedGen, SchedCase> = {
  name: 'race-free',
  summary: 'valid schedules are race-free: no two iterations of a parallel loop touch one point with a write (def. 2.7, def. 2.16)',
  arbitrary: (env) => arbSchedGen(env, 'parallel'),
  ...common,
  seeded: schedSeeded('parallel'),
  check(c, env) {
    const bad = trouble(c);
    if (bad) return bad;
    const r = race(c, finalProgram(c), env);
    if ('race' in r) return { status: 'fail', verdict: 'data-race', expected: 'no data race', actual: showOutcome(r.race) };
    // Parallel iterations that wrote one point with one value ([PAR-OVERLAP]) are counted apart.
    return r.overlaps ? { ...passing(r.vacuous), tally: 'overlapping writes of one value [PAR-OVERLAP]' } : passing(r.vacuous);
  },
  culprit: (c, env) => c.trouble?.directive ?? firstFailingDirective(c, (t) => 'race' in race(c, t, env)),
};

function lemmaViolations(c: SchedCase, t: TgtProgram): string[] {
  return [...checkLoopNaming(t).map((m) => `lemma 2.4: ${m}`), ...checkDominance(t, c.pipeline).map((m) => `lemma 2.5: ${m}`)];
}

export const lemmas: Property<SchedGen, SchedCase> = {
  name: 'lemmas',
  summary: 'lemma 2.4 (unique loop names) and lemma 2.5 (dominance) hold after lowering and after every directive',
  arbitrary: (env) => arbSchedGen(env),
  ...common,
  check(c) {
    const bad = trouble(c);
    if (bad) return bad;
    for (let i = 0; i < c.steps.length; i++) {
      const errs = lemmaViolations(c, c.steps[i]!);
      if (errs.length > 0) {
        return { status: 'fail', verdict: errs[0]!.startsWith('lemma 2.4') ? 'lemma-2.4' : 'lemma-2.5', expected: 'no violation', actual: `after ${i === 0 ? 'lowering' : `directive ${i} (${c.names[i - 1]})`}: ${errs.join('; ')}` };
      }
    }
    return PASS;
  },
  culprit: (c) => c.trouble?.directive ?? firstFailingDirective(c, (t) => lemmaViolations(c, t).length > 0),
};
