// Proving a schedule directive by directive (spec/effects.md, "Proving a schedule"): each call's
// obligations on the program it rewrites, decided by Z3; a refutation is replayed as an ordinary
// case of the soundness properties, on the input its witness names, and written as a reproducer
// when it fails there. A refutation that does not fail when run is the analysis being imprecise.
import { resolve } from 'node:path';
import type { Pipeline } from '../alg-semantics/ast.js';
import { printPipeline } from '../alg-semantics/print.js';
import { type Loc, UserError, showLoc } from '../diag.js';
import { type Answer, describeObligation, showAnswer } from '../effects/obligation.js';
import { SAFETY_RULE, prove } from '../effects/prove-z3.js';
import { applyCall } from '../schedule/apply.js';
import { obligationsOf } from '../schedule/call-obligations.js';
import type { DirectiveCall, Schedule } from '../schedule/plugin.js';
import { printCall, printSchedule } from '../schedule/print.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { REFSEM_VERSION } from '../node/package.js';
import { evaluateAsync } from './check.js';
import { DEFAULT_CONFIG, type EnvConfig, type FuzzEnv } from './env.js';
import { makeEnv } from './make-env.js';
import { confluence, memorySafety, raceFree } from './properties/soundness.js';
import type { CaseText, Failure } from './property.js';
import { REPRO_FORMAT, type Reproducer, embedModules, writeReproducer } from './reproducer.js';

export type CallVerdict = 'proved' | 'refuted' | 'unknown';

export interface ObligationResult {
  readonly what: string;
  readonly answer: Answer;
  readonly ms: number;
}

export interface CallProof {
  readonly index: number;
  readonly text: string;
  readonly loc?: Loc;
  readonly route: 'declared' | 'steps' | 'generic';
  readonly results: readonly ObligationResult[];
  readonly verdict: CallVerdict;
}

/** implements [OBL-VERDICT]: a call is refuted when one obligation is, proved when every one is proved or delegated, else unknown. */
export function callVerdict(results: readonly ObligationResult[]): CallVerdict {
  if (results.some((r) => r.answer.k === 'refuted')) return 'refuted';
  return results.every((r) => r.answer.k === 'proved' || r.answer.k === 'delegated') ? 'proved' : 'unknown';
}

/**
 * Proves every call of `s` on the program it rewrites, T0 being `t0`; with `only`, just the calls
 * it selects (the others are applied, not proved).
 */
export async function proveSchedule(t0: TgtProgram, s: Schedule, opts: { timeoutMs?: number; only?: (call: DirectiveCall) => boolean } = {}): Promise<CallProof[]> {
  const out: CallProof[] = [];
  let cur = t0;
  const history: DirectiveCall[] = [];
  for (const [index, call] of s.calls.entries()) {
    // Applied first, so that a call that does not apply is reported as a rejection (exit 2).
    const next = applyCall(cur, call, s.registry, history);
    if (opts.only && !opts.only(call)) {
      cur = next;
      history.push(call);
      continue;
    }
    const { obligations, route } = obligationsOf(cur, call, s.registry, history);
    const results: ObligationResult[] = [];
    for (const o of obligations) {
      const t = performance.now();
      const answer = await prove(o, opts);
      results.push({ what: `[${SAFETY_RULE[o.k]}] ${describeObligation(o)}`, answer, ms: performance.now() - t });
    }
    out.push({ index, text: printCall(call), ...(call.loc ? { loc: call.loc } : {}), route, results, verdict: callVerdict(results) });
    cur = next;
    history.push(call);
  }
  return out;
}

/** The properties a refutation is replayed on: the soundness properties a directive can break. */
const REPLAY_BY = [confluence, raceFree, memorySafety];
export const REPLAY_PROPERTIES = REPLAY_BY.map((p) => p.name);

/** Window lengths and parameters beyond this are not run (the witness is shown but not replayed). */
const MAX_REPLAY_VALUE = 64n;

/** The input a witness names: its values for the window and the parameters, small defaults for the rest. */
export function witnessInput(t: TgtProgram, witness: Readonly<Record<string, string>>): CaseText['input'] | undefined {
  const val = (name: string, dflt: bigint): bigint | undefined => {
    const v = witness[name] === undefined ? dflt : BigInt(witness[name]!);
    return v < -MAX_REPLAY_VALUE || v > MAX_REPLAY_VALUE ? undefined : v;
  };
  const window: [string, string][] = [];
  for (const w of t.window) {
    const m = val(w.min, 0n);
    const l = val(w.len, 4n);
    if (m === undefined || l === undefined || l < 0n) return undefined;
    window.push([m.toString(), l.toString()]);
  }
  const params: Record<string, string> = {};
  for (const p of t.params) {
    const v = val(p, 3n);
    if (v === undefined) return undefined;
    params[p] = v.toString();
  }
  return { window, params };
}

export interface Replay {
  readonly replays: boolean;
  /** the failing property's verdict, or why nothing ran */
  readonly detail: string;
  readonly reproducer?: string;
}

/** The schedule cut after call `index`: a refuted call is replayed before later calls can undo or hide its rewrite. */
export const upTo = (s: Schedule, index: number): Schedule => ({ ...s, calls: s.calls.slice(0, index + 1) });

/** What running a case through the soundness properties showed: the first failure, or why some compared nothing. */
export interface RunResult {
  readonly failure?: { readonly property: string; readonly failure: Failure };
  /** properties that compared nothing (a step budget ran out, a vacuous verdict), with why */
  readonly discarded: readonly string[];
}

/** The first soundness property (REPLAY_PROPERTIES) that fails on the case, with its failure. */
export async function firstFailure(text: CaseText, env: FuzzEnv): Promise<RunResult> {
  const discarded: string[] = [];
  for (const prop of REPLAY_BY) {
    const name = prop.name;
    // A generated schedule need not read back as text (a plug-in directive's phase may come out of
    // order): such a case is one that compared nothing, with the reason, not a crash of the replay.
    let decoded;
    try {
      decoded = prop.decode(text, env);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      discarded.push(`${name}: the case does not read back (${e.message})`);
      continue;
    }
    const r = await evaluateAsync(prop, decoded, env);
    if (r.status === 'fail') return { failure: { property: name, failure: r }, discarded };
    if (r.status === 'discard') discarded.push(`${name}: ${r.why}`);
    if (r.status === 'pass' && r.vacuous) discarded.push(`${name}: ${r.vacuous}`);
  }
  return { discarded };
}

/**
 * A replay runs what a generated case would run, with the step budget of `refsem exec`: a witness
 * that fails only past a campaign's budget is still a counterexample.
 */
export const REPLAY_CONFIG = (config: EnvConfig): EnvConfig => ({ ...config, maxSteps: Math.max(config.maxSteps, REPLAY_MAX_STEPS) });

/** A hundred times a campaign check's budget: a few seconds of the fast executor at most. */
const REPLAY_MAX_STEPS = 20_000_000;

/**
 * implements [OBL-REPLAY]: runs the schedule on the witness's input through the soundness properties; the first
 * failure is written as a reproducer into `out` (so `refsem replay` runs it again).
 */
export async function replayRefutation(p: Pipeline, s: Schedule, t0: TgtProgram, witness: Readonly<Record<string, string>>, out: string, config: EnvConfig = DEFAULT_CONFIG, env?: FuzzEnv): Promise<Replay> {
  const input = witnessInput(t0, witness);
  if (!input) return { replays: false, detail: 'the witness names values too large to run' };
  const text: CaseText = { program: printPipeline(p), schedule: printSchedule(s), input };
  const cfg = REPLAY_CONFIG(config);
  const ran = await firstFailure(text, env ?? (await makeEnv(cfg)));
  if (!ran.failure) {
    const skipped = ran.discarded.length > 0 ? ` (compared nothing: ${ran.discarded.join('; ')})` : '';
    return { replays: false, detail: `${REPLAY_PROPERTIES.join(', ')} hold on ${JSON.stringify(input)}${skipped}` };
  }
  const { property, failure: r } = ran.failure;
  const rep: Reproducer = {
    format: REPRO_FORMAT, refsem_version: REFSEM_VERSION, property, verdict: r.verdict, seed: 0, check: 0, check_seed: 0,
    engine: cfg.engine, directives: cfg.directives.map((d) => resolve(d)), key: `prove:${property}:${r.verdict}:${text.schedule}:${JSON.stringify(input)}`,
    modules: embedModules(cfg), max_steps: cfg.maxSteps,
    case: text, expected: r.expected, actual: r.actual, shrinks: 0, ...(cfg.fault !== undefined ? { fault: cfg.fault } : {}),
  };
  return { replays: true, detail: `${property}: ${r.verdict}`, reproducer: writeReproducer(out, rep) };
}

/** The report of a proved schedule, one block per call. */
export function showProof(proofs: readonly CallProof[], replays: ReadonlyMap<number, Replay> = new Map()): string {
  const count = (v: CallVerdict) => proofs.filter((p) => p.verdict === v).length;
  const lines = [`proof: ${proofs.length} directive(s): ${count('proved')} proved, ${count('refuted')} refuted, ${count('unknown')} unknown`];
  for (const p of proofs) {
    lines.push(`${p.loc ? `${showLoc(p.loc)}: ` : ''}${p.text}: ${p.verdict}${p.route === 'declared' ? '' : ` (obligations by the ${p.route} route)`}`);
    if (p.results.length === 0) lines.push('  (no obligation)');
    for (const r of p.results) lines.push(r.answer.k === 'delegated' ? `  ${showAnswer(r.answer)}` : `  ${r.what}: ${showAnswer(r.answer)}`);
    const rep = replays.get(p.index);
    if (rep) lines.push(rep.replays ? `  replayed: ${rep.detail}; reproducer: ${rep.reproducer}  (refsem replay ${rep.reproducer})` : `  not replayed as a failure (${rep.detail}): the analysis is imprecise here, not the directive shown wrong`);
  }
  return `${lines.join('\n')}\n`;
}
