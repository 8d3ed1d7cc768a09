// One check of a campaign: generate a case from its seed, check it, and if it fails, shrink it
// with fast-check to a minimal case, name the directive to blame and compute its de-duplication
// key. fast-check's `check` with one run and a fixed seed is exactly "the case of this seed", and
// its shrinker acts on the blueprint, so every shrink step is again a valid case. The shrunk case's
// algorithm is then folded (fold.ts), kept only when it still fails with the same verdict.
import fc from 'fast-check';
import { UserError, describeThrown } from '../diag.js';
import { BUILTINS } from '../schedule/builtins.js';
import { BUILTIN_ENGINES } from '../bounds/engine.js';
import type { FuzzEnv } from './env.js';
import { foldedText } from './fold.js';
import type { AnyProperty, CaseText, CheckResult, Failure } from './property.js';
import { FOCUS_APPLIED, FOCUS_COMPARED, type Stats, TALLY, bump, propertyCounts, seedCounts, verdictCounts } from './stats.js';

/** A minimized failure, ready to be written as a reproducer. */
export interface Found {
  readonly property: string;
  readonly index: number;
  readonly checkSeed: number;
  readonly key: string;
  readonly culprit?: string;
  readonly failure: Failure;
  readonly text: CaseText;
  readonly shrinks: number;
  /** when the check's first evaluation failed (ms since the epoch), before any shrinking */
  readonly failedAt?: number;
  /** shrinking stopped at its time limit, so the shrunk case depends on the machine's speed */
  readonly shrinkTimedOut?: boolean;
  /** the check's case came from a seed of the corpus (gen/seeded.ts): which, and whether as written */
  readonly origin?: SeedOrigin;
}

/** A seed check's failure: the seed of its shrunk case, and whether the check was the seed as written (`exact`) or a mutation. */
export interface SeedOrigin {
  readonly seed: string;
  readonly exact: boolean;
}

/** Where a check's case comes from: the property's arbitrary, or the seed corpus (a mutation, or `example`: a seed as written). */
export interface CaseSource {
  readonly seeded?: boolean;
  readonly example?: unknown;
}

/** The arbitrary a check draws from: the seed corpus' mutations when the source says so and there are some. */
export const arbitraryOf = (prop: AnyProperty, env: FuzzEnv, source?: CaseSource): fc.Arbitrary<unknown> =>
  (source?.seeded ? prop.seeded?.arbitrary(env) : undefined) ?? prop.arbitrary(env);

/**
 * fast-check's parameters for the case of a check: one run from `seed`, or the source's example
 * (a seed as written) in its place, shrunk like a generated case.
 */
export const oneRun = (seed: number, source?: CaseSource) => ({ seed, numRuns: 1, ...(source?.example !== undefined ? { examples: [[source.example] as [unknown]] } : {}) });

/**
 * Bounds on shrinking, so a slow property cannot stall the campaign. The evaluation count is what
 * normally ends a shrink, so that the same seed shrinks to the same case on any machine, under any
 * load and for any `--jobs`; the time limit is a safety net, and a shrink it ends says so in the
 * reproducer. Properties that compile or run a program per evaluation (the C backends, FPIR,
 * Halide) are slow enough that their net is tight: their shrinks are bounded by time.
 */
export interface ShrinkBudget {
  readonly evaluations: number;
  readonly ms: number;
  /** a wall-clock end (ms since the epoch) no shrink goes past: the end of a `--time` campaign */
  readonly until?: number;
}

export const DEFAULT_SHRINK: ShrinkBudget = { evaluations: 1000, ms: 60_000 };
export const COMPILED_SHRINK: ShrinkBudget = { evaluations: 1000, ms: 5_000 };

/** The budget of a property's shrinks: asynchronous checks are the ones that compile or run programs. */
export const shrinkBudgetOf = (prop: AnyProperty): ShrinkBudget => (prop.checkAsync ? COMPILED_SHRINK : DEFAULT_SHRINK);

/**
 * What an exception inside a check means: a `crash` failure — except the executors' refusal of
 * allocations beyond their size limit and of integers beyond theirs ([VAL-LIMIT]), which are
 * resource limits like a step budget (discard).
 */
function thrown(e: unknown, expected = 'no exception'): CheckResult {
  if (e instanceof UserError && /the executors stop at/.test(e.message)) return { status: 'discard', why: 'allocation over the executors\' limit' };
  if (e instanceof UserError && /the evaluators stop at integers/.test(e.message)) return { status: 'discard', why: 'integer over the evaluators\' limit' };
  const what = e instanceof UserError ? `rejected: ${e.render()}` : `exception: ${describeThrown(e)}`;
  return { status: 'fail', verdict: 'crash', expected, actual: what };
}

/** Runs the property on a concrete case; exceptions become verdicts (see `thrown`). */
export function evaluate(prop: AnyProperty, c: unknown, env: FuzzEnv): CheckResult {
  try {
    return prop.check(c, env);
  } catch (e) {
    return thrown(e);
  }
}

/** `evaluate` for properties that may check asynchronously. */
export async function evaluateAsync(prop: AnyProperty, c: unknown, env: FuzzEnv): Promise<CheckResult> {
  if (!prop.checkAsync) return evaluate(prop, c, env);
  try {
    return await prop.checkAsync(c, env);
  } catch (e) {
    return thrown(e);
  }
}

export function concretize(prop: AnyProperty, g: unknown, env: FuzzEnv): { ok: true; c: unknown } | { ok: false; r: CheckResult } {
  try {
    return { ok: true, c: prop.concretize(g, env) };
  } catch (e) {
    return { ok: false, r: thrown(e, 'a case') };
  }
}

/** A crash's class: its message's first line, numbers abstracted (one exception, one class). */
const crashClass = (f: Failure): string => f.actual.split('\n')[0]!.replace(/-?\d+/g, '#');

/** Do two failures of a property fail the same way: the same verdict, and for a crash the same exception? */
export const sameFailure = (a: Failure, b: Failure): boolean => a.verdict === b.verdict && (a.verdict !== 'crash' || crashClass(a) === crashClass(b));

/**
 * The de-duplication key: same property and same minimized shape or failing directive. A crash is
 * keyed by its class: one exception, one entry.
 */
export function dedupKey(prop: AnyProperty, c: unknown, culprit: string | undefined, failure: Failure): string {
  if (culprit !== undefined) return `${prop.name}/${culprit.startsWith(ENGINE_CULPRIT) ? culprit : `directive:${culprit}`}`;
  if (failure.verdict === 'crash') return `${prop.name}/crash/${crashClass(failure)}`;
  return `${prop.name}/${failure.verdict}/${prop.shape(c)}`;
}

/** The value fast-check generates for a seed, without checking it (for reproducing timeouts); an example is its own value. */
export function generated(prop: AnyProperty, env: FuzzEnv, seed: number, source?: CaseSource): unknown {
  if (source?.example !== undefined) return source.example;
  let value: unknown;
  fc.check(fc.property(arbitraryOf(prop, env, source), (g) => {
    value = g;
    return true;
  }), { seed, numRuns: 1 });
  return value;
}

/**
 * Blame by cause: the case without `directive` — its calls removed or, when the rest no longer
 * applies without them, the schedule cut before the first of them. Undefined when the schedule
 * does not use it or neither reduced schedule applies.
 */
export function caseWithout(prop: AnyProperty, text: CaseText, directive: string, env: FuzzEnv): unknown {
  const lines = (text.schedule ?? '').split('\n');
  const uses = (l: string) => l.trim().split(/\s+/)[0] === directive;
  const first = lines.findIndex(uses);
  if (first < 0) return undefined;
  for (const schedule of [lines.filter((l) => !uses(l)).join('\n'), lines.slice(0, first).join('\n')]) {
    try {
      return prop.decode({ ...text, schedule }, env);
    } catch {
      // this reduced schedule does not apply: try the next
    }
  }
  return undefined;
}

const BUILTIN_NAMES: ReadonlySet<string> = new Set(BUILTINS.map((d) => d.name));

/**
 * A failure first seen after a built-in directive belongs to a plug-in (or planted) directive of
 * the schedule when leaving that directive out makes it pass (docs/fuzzing.md, "De-duplication"):
 * a plug-in that marks a loop parallel unsoundly races only once a later `bound` widens the loop.
 */
export function culpritByCause(prop: AnyProperty, c: unknown, culprit: string, env: FuzzEnv): string | undefined {
  if (!BUILTIN_NAMES.has(culprit)) return undefined;
  const text = prop.encode(c);
  const others = [...new Set(prop.directivesOf?.(c) ?? [])].filter((n) => !BUILTIN_NAMES.has(n));
  return others.find((d) => {
    const without = caseWithout(prop, text, d, env);
    return without !== undefined && evaluate(prop, without, env).status !== 'fail';
  });
}

/** The culprit of a failure the bounds engine under test is needed for: `engine:NAME`. */
export const ENGINE_CULPRIT = 'engine:';

/**
 * A failure belongs to the engine under test, when that is not a built-in one (a plug-in, or a
 * zoo fault's copy), if the same case passes with the built-in engine the campaign names — β0 for
 * a plug-in: blaming the directive that first exposed it would file every fault of the engine under
 * one directive's key (docs/fuzzing.md, "De-duplication").
 */
export function culpritEngine(prop: AnyProperty, c: unknown, env: FuzzEnv): string | undefined {
  const sound = BUILTIN_ENGINES[env.config.engine] ?? BUILTIN_ENGINES.beta0!;
  if (env.engine === sound) return undefined;
  return evaluate(prop, c, { ...env, engine: sound }).status === 'fail' ? undefined : `${ENGINE_CULPRIT}${env.engine.name}`;
}

/** The state of one check across its first evaluation and its shrink steps. */
function session(prop: AnyProperty, env: FuzzEnv, index: number, seed: number, stats: Stats, shrink: ShrinkBudget, onEvaluate: () => void, exact: boolean) {
  const counts = propertyCounts(stats, prop.name);
  let first = true;
  let seededCheck = false;
  let evaluations = 0;
  let deadline = Infinity;
  let timedOut = false;
  let failedAt: number | undefined;
  let last: { made: boolean; c: unknown; failure: Failure; g: unknown } | undefined;
  return {
    /** the concrete case to evaluate, or undefined when the shrink budget is spent (counts as passing) */
    before(g: unknown): ReturnType<typeof concretize> | undefined {
      if (!first && ++evaluations > shrink.evaluations) return undefined;
      if (!first && Date.now() > deadline) {
        timedOut = true;
        return undefined;
      }
      onEvaluate();
      return concretize(prop, g, env);
    },
    /** records the evaluation; true when the property holds */
    after(g: unknown, made: ReturnType<typeof concretize>, r: CheckResult): boolean {
      if (first) {
        first = false;
        if (r.status === 'fail') failedAt = Date.now();
        deadline = Math.min(Date.now() + shrink.ms, shrink.until ?? Infinity);
        counts.checks++;
        if (made.ok) prop.observe?.(made.c, stats);
        if (r.status === 'discard') {
          counts.discards++;
          bump(stats.constructs, `discard: ${r.why}`);
        }
        const verdict = r.status === 'pass' ? r.vacuous ?? 'equal' : r.status;
        verdictCounts(stats, prop.name)[verdict]++;
        if (prop.seeded?.seedName(g, env) !== undefined) {
          seededCheck = true;
          seedCounts(stats, exact)[verdict]++;
        }
        if (r.tally !== undefined) bump(stats.constructs, `${TALLY}${prop.name}: ${r.tally}`);
        const focus = env.config.focus;
        if (focus !== undefined && made.ok && prop.directivesOf?.(made.c).includes(focus)) {
          bump(stats.constructs, FOCUS_APPLIED);
          if (r.status === 'fail' || (r.status === 'pass' && !r.vacuous)) bump(stats.constructs, FOCUS_COMPARED);
        }
      }
      if (r.status !== 'fail') return true;
      last = { made: made.ok, c: made.ok ? made.c : g, failure: r, g };
      return false;
    },
    /** the shrunk case with its algorithm folded, to be evaluated once more; undefined when there is nothing to fold */
    foldCandidate(out: { failed: boolean }): unknown {
      if (!out.failed || !last?.made) return undefined;
      const t = foldedText(prop.encode(last.c));
      if (t === undefined) return undefined;
      onEvaluate();
      try {
        return prop.decode(t, env);
      } catch {
        return undefined;
      }
    },
    /** keeps the folded case when it fails the way the shrunk case does (a different failure would mislead) */
    folded(c: unknown, r: CheckResult): void {
      if (last && r.status === 'fail' && sameFailure(r, last.failure)) last = { ...last, made: true, c, failure: r };
    },
    found(out: { failed: boolean; numShrinks: number }): Found | undefined {
      if (!out.failed || !last) return undefined;
      counts.failures++;
      const { made, c, failure } = last;
      // the seed of the shrunk case (shrinking may move a mutation to another seed)
      const from = seededCheck ? prop.seeded?.seedName(last.g, env) : undefined;
      const origin: SeedOrigin | undefined = from !== undefined ? { seed: from, exact } : undefined;
      let culprit: string | undefined;
      try {
        culprit = made ? prop.culprit?.(c, env) : undefined;
        if (culprit !== undefined && !prop.checkAsync) culprit = culpritByCause(prop, c, culprit, env) ?? culprit;
        if (made && !prop.checkAsync) culprit = culpritEngine(prop, c, env) ?? culprit;
      } catch {
        culprit = undefined;
      }
      // A case that could not even be made concrete is kept as its blueprint (JSON), which is all there is.
      const text: CaseText = made ? prop.encode(c) : { extra: { blueprint: JSON.stringify(c, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) } };
      return {
        property: prop.name,
        index,
        checkSeed: seed,
        key: made ? dedupKey(prop, c, culprit, failure) : `${prop.name}/${failure.verdict}/unmade`,
        ...(culprit !== undefined ? { culprit } : {}),
        failure,
        text,
        shrinks: out.numShrinks,
        ...(failedAt !== undefined ? { failedAt } : {}),
        ...(timedOut ? { shrinkTimedOut: true } : {}),
        ...(origin ? { origin } : {}),
      };
    },
  };
}

/**
 * Runs check `index` of property `prop`. `onEvaluate` is called before each evaluation of the
 * property (the first, then each shrink step), so a watchdog can time evaluations one by one.
 */
export function runCheck(prop: AnyProperty, env: FuzzEnv, index: number, seed: number, stats: Stats, shrink: ShrinkBudget = DEFAULT_SHRINK, onEvaluate: () => void = () => {}, source?: CaseSource): Found | undefined {
  const s = session(prop, env, index, seed, stats, shrink, onEvaluate, source?.example !== undefined);
  const out = fc.check(fc.property(arbitraryOf(prop, env, source), (g) => {
    const made = s.before(g);
    return made === undefined || s.after(g, made, made.ok ? evaluate(prop, made.c, env) : made.r);
  }), oneRun(seed, source));
  const folded = s.foldCandidate(out);
  if (folded !== undefined) s.folded(folded, evaluate(prop, folded, env));
  return s.found(out);
}

/**
 * The same for a property whose check is asynchronous (the compiled backends). `known` is the
 * result of the case's first evaluation when a batch already computed it (batchResults): a passing
 * or discarded case then costs no compile of its own.
 */
export async function runCheckAsync(prop: AnyProperty, env: FuzzEnv, index: number, seed: number, stats: Stats, shrink: ShrinkBudget = COMPILED_SHRINK, onEvaluate: () => void = () => {}, known?: CheckResult, source?: CaseSource): Promise<Found | undefined> {
  const s = session(prop, env, index, seed, stats, shrink, onEvaluate, source?.example !== undefined);
  let first = known;
  const out = await fc.check(fc.asyncProperty(arbitraryOf(prop, env, source), async (g) => {
    const made = s.before(g);
    const given = first;
    first = undefined;
    if (made === undefined) return true;
    return s.after(g, made, !made.ok ? made.r : given ?? (await evaluateAsync(prop, made.c, env)));
  }), oneRun(seed, source));
  const folded = s.foldCandidate(out);
  if (folded !== undefined) s.folded(folded, await evaluateAsync(prop, folded, env));
  return s.found(out);
}

/**
 * The first evaluation of several checks of a property with `checkBatchAsync`, at once: check i's
 * case is generated from `seeds[i]` at `envs[i]` exactly as runCheckAsync generates it. Only passes
 * and discards are returned (undefined for the rest): a failure, or a case the batch could not
 * take, is checked again alone, so that another case of the batch can never be what it fails on.
 */
export async function batchResults(prop: AnyProperty, envs: readonly FuzzEnv[], seeds: readonly number[]): Promise<(CheckResult | undefined)[]> {
  const out: (CheckResult | undefined)[] = seeds.map(() => undefined);
  if (!prop.checkBatchAsync || seeds.length === 0) return out;
  const made: { i: number; c: unknown }[] = [];
  seeds.forEach((seed, i) => {
    const m = concretize(prop, generated(prop, envs[i]!, seed), envs[i]!);
    if (m.ok) made.push({ i, c: m.c });
  });
  if (made.length === 0) return out;
  let rs: CheckResult[];
  try {
    rs = await prop.checkBatchAsync(made.map((m) => m.c), envs[0]!);
  } catch {
    return out;
  }
  made.forEach((m, k) => {
    const r = rs[k];
    if (r !== undefined && r.status !== 'fail') out[m.i] = r;
  });
  return out;
}
