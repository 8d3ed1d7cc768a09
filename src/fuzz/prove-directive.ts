// `refsem check-directive MODULE --prove` (spec/effects.md, [OBL-DIRECTIVE]): instead of searching
// for a counterexample, prove the directive on the applications campaigns generate. Each generated
// schedule that applies the directive has each of its calls proved on the program it rewrites
// (its declared obligations, its steps', or the generic route's); a refutation is replayed on the
// executors ([OBL-REPLAY]) and written as an ordinary reproducer when it fails there.
import fc from 'fast-check';
import { printPipeline } from '../alg-semantics/print.js';
import { directiveApi } from '../schedule/api.js';
import { parseSchedule } from '../schedule/parse.js';
import { loadDirectiveModule } from '../node/plugins.js';
import { shutdownZ3 } from '../expr/smt.js';
import { DEFAULT_CONFIG, type EnvConfig } from './env.js';
import { makeEnv } from './make-env.js';
import { type CallProof, type CallVerdict, type Replay, REPLAY_CONFIG, proveSchedule, replayRefutation, upTo } from './prove.js';
import { showAnswer } from '../effects/obligation.js';
import { arbSchedGen, schedCase } from './properties/sched-case.js';
import { checkSeed } from './seed.js';

export interface ProveDirectiveOptions {
  readonly module: string;
  readonly seed: number;
  /** generated cases to draw (each may apply the directive several times, or not at all) */
  readonly runs: number;
  /** stop drawing cases after this long */
  readonly timeMs?: number;
  readonly out: string;
}

/** One application of the directive and what the prover said of it. */
export interface Application {
  readonly check: number;
  readonly call: string;
  readonly verdict: CallVerdict;
  /** the first refuted obligation's answer, or the reasons it is unknown */
  readonly detail: string;
  readonly replay?: Replay;
  readonly program: string;
  readonly schedule: string;
}

export interface DirectiveProof {
  readonly directive: string;
  readonly seed: number;
  readonly checks: number;
  readonly elapsed_s: number;
  readonly applications: number;
  readonly proved: number;
  /** refuted, the refutation failing when run: a counterexample */
  readonly refuted_replayed: number;
  /** refuted, but the run on the witness's input passed: the analysis is imprecise there */
  readonly refuted_not_replayed: number;
  readonly unknown: number;
  /** why applications were unknown, numbers abstracted, with how often */
  readonly unknown_reasons: Readonly<Record<string, number>>;
  /** the first replayed refutation, and the first refutation that did not replay */
  readonly counterexample?: Application;
  readonly imprecise?: Application;
}

/** Why a call is unknown: the reasons of its unknown obligations, numbers abstracted so that like reasons count together. */
function unknownReasons(p: CallProof): string[] {
  return [...new Set(p.results.flatMap((r) => (r.answer.k === 'unknown' ? [`${r.what.replace(/\].*/, ']')} ${r.answer.reason.replace(/-?\d+/g, '#')}`] : [])))];
}

/** implements [OBL-DIRECTIVE]: proves every application of each directive of `o.module` on generated cases. */
export async function proveDirective(o: ProveDirectiveOptions): Promise<DirectiveProof[]> {
  const ds = await loadDirectiveModule(o.module, directiveApi);
  const out: DirectiveProof[] = [];
  try {
    for (const d of ds) {
      const config: EnvConfig = { ...DEFAULT_CONFIG, directives: [o.module], focus: d.name };
      out.push(await proveOne(d.name, config, o));
    }
  } finally {
    await shutdownZ3();
  }
  return out;
}

/** The applications of directive `name` (of every directive when undefined) in the cases campaigns of `config` generate, proved. */
export async function proveOne(name: string | undefined, config: EnvConfig, o: Omit<ProveDirectiveOptions, 'module'>): Promise<DirectiveProof> {
  const env = await makeEnv(config);
  const replayEnv = await makeEnv(REPLAY_CONFIG(config));
  const arb = arbSchedGen(env);
  const start = performance.now();
  const apps: Application[] = [];
  const reasons: Record<string, number> = {};
  let checks = 0;
  for (let i = 0; i < o.runs && (o.timeMs === undefined || performance.now() - start < o.timeMs); i++) {
    checks++;
    const [g] = fc.sample(arb, { seed: checkSeed(o.seed, i), numRuns: 1 });
    let c;
    try {
      c = schedCase(g!, env);
    } catch {
      continue; // a case that cannot be made concrete applies nothing (the campaign reports it)
    }
    if (c.trouble || (name !== undefined && !c.names.includes(name))) continue;
    const s = parseSchedule(c.scheduleText, '<generated>', env.schedule!.registry);
    const proofs = await proveSchedule(c.steps[0]!, s, name === undefined ? {} : { only: (call) => call.directive.name === name });
    for (const p of proofs) {
      const refuted = p.results.find((r) => r.answer.k === 'refuted');
      const why = unknownReasons(p);
      for (const r of p.verdict === 'unknown' ? why : []) reasons[r] = (reasons[r] ?? 0) + 1;
      const replay = refuted?.answer.k === 'refuted' ? await replayRefutation(c.pipeline, upTo(s, p.index), c.steps[0]!, refuted.answer.witness, o.out, config, replayEnv) : undefined;
      apps.push({
        check: i, call: p.text, verdict: p.verdict,
        detail: refuted ? `${refuted.what}: ${showAnswer(refuted.answer)}` : why.join('; '),
        ...(replay ? { replay } : {}),
        program: printPipeline(c.pipeline), schedule: c.scheduleText,
      });
    }
  }
  const count = (f: (a: Application) => boolean) => apps.filter(f).length;
  const counterexample = apps.find((a) => a.replay?.replays);
  const imprecise = apps.find((a) => a.verdict === 'refuted' && !a.replay?.replays);
  return {
    directive: name ?? 'every directive', seed: o.seed, checks, elapsed_s: Math.round((performance.now() - start) / 100) / 10,
    applications: apps.length,
    proved: count((a) => a.verdict === 'proved'),
    refuted_replayed: count((a) => a.replay?.replays === true),
    refuted_not_replayed: count((a) => a.verdict === 'refuted' && a.replay?.replays !== true),
    unknown: count((a) => a.verdict === 'unknown'),
    unknown_reasons: reasons,
    ...(counterexample ? { counterexample } : {}),
    ...(imprecise ? { imprecise } : {}),
  };
}

/** What the answer means for the exit code (README, "Exit codes"): a replayed refutation is a failure found. */
export function proofExit(ps: readonly DirectiveProof[]): 'failure' | 'inconclusive' | 'ok' {
  if (ps.some((p) => p.refuted_replayed > 0)) return 'failure';
  return ps.some((p) => p.applications === 0 || p.proved < p.applications) ? 'inconclusive' : 'ok';
}

export function showDirectiveProof(p: DirectiveProof): string {
  const lines = [
    `directive ${p.directive}: ${p.applications} application(s) in ${p.checks} generated cases (seed ${p.seed}, ${p.elapsed_s} s): `
      + `${p.proved} proved, ${p.refuted_replayed + p.refuted_not_replayed} refuted (${p.refuted_replayed} replayed as a failure, ${p.refuted_not_replayed} not), ${p.unknown} unknown`,
  ];
  if (p.applications === 0) lines.push('  inconclusive: the directive was never applied; check that its generate proposes arguments its validate accepts');
  for (const [why, n] of Object.entries(p.unknown_reasons).sort((a, b) => b[1] - a[1])) lines.push(`  unknown ×${n}: ${why}`);
  const c = p.counterexample;
  if (c) {
    lines.push(`counterexample (check ${c.check}): ${c.call}: ${c.detail}`, `  replayed: ${c.replay!.detail}; reproducer: ${c.replay!.reproducer}  (refsem replay ${c.replay!.reproducer})`);
    lines.push('program:', c.program.trimEnd(), 'schedule:', c.schedule.trimEnd());
  }
  const m = p.imprecise;
  if (m) lines.push(`refuted but not replayed as a failure (check ${m.check}): ${m.call}: ${m.detail}`, `  ${m.replay?.detail ?? 'not run'}: the analysis is imprecise here, not the directive shown wrong`);
  if (!c && p.unknown > 0) lines.push('  unknown is no proof: the directive is not shown sound on those applications');
  return `${lines.join('\n')}\n`;
}
