// `refsem check-directive MODULE`: for people designing a directive. Campaigns whose schedules
// use the module's directive, over the properties a directive can break (thm. 2.1, thm. 2.2,
// race freedom, lemmas 2.4/2.5); the answer is a minimized counterexample pinned on the directive,
// or "no counterexample in N checks".
import { directiveApi } from '../schedule/api.js';
import { loadDirectiveModule } from '../node/plugins.js';
import type { IO } from '../node/io.js';
import { type Found, caseWithout, evaluateAsync } from './check.js';
import { DEFAULT_CONFIG, type EnvConfig, type FuzzEnv } from './env.js';
import { makeEnv } from './make-env.js';
import { propertyNamed } from './properties/index.js';
import { runWithProgress } from './campaign-cli.js';
import type { Shard } from './seed.js';
import { FOCUS_APPLIED, FOCUS_COMPARED } from './stats.js';

export const DIRECTIVE_PROPERTIES = ['confluence', 'memory-safety', 'race-free', 'lemmas'] as const;

/**
 * A search in which the directive under test was applied in fewer checks than this says nothing
 * about it (its `generate` proposes nothing valid, or it applies to almost no program):
 * inconclusive, exit 4.
 */
export const MIN_APPLIED = 20;

/** The verdicts of checks the runner ended from outside (src/fuzz/runner.ts): no result of their own. */
const WATCHDOG_VERDICTS = new Set(['timeout', 'out-of-memory']);

export interface CheckDirectiveOptions {
  readonly module: string;
  readonly seed: number;
  readonly jobs: number;
  readonly runs?: number;
  readonly timeMs?: number;
  readonly out: string;
  readonly budgetMs: number;
  readonly shard: Shard;
  readonly inProcess?: boolean;
}

export interface DirectiveVerdict {
  readonly directive: string;
  readonly seed: number;
  readonly checks: number;
  readonly elapsed_s: number;
  readonly counterexample?: {
    readonly property: string; readonly verdict: string; readonly check: number; readonly reproducer: string;
    /** seconds to the first failing evaluation, and to the shrunk reproducer */
    readonly detected_s: number; readonly reported_s: number;
    readonly expected: string; readonly actual: string; readonly schedule: string; readonly program: string;
  };
  /** failures not pinned on the directive (bugs elsewhere), listed but not blamed on it */
  readonly other_failures: number;
  /** checks whose schedule applied the directive, and those of them that compared values or failed */
  readonly applied: number;
  readonly applied_and_compared: number;
  /** how the failure was pinned on the directive: the first failing step, or removing its calls */
  readonly blamed_by?: 'first-failing-step' | 'removal';
  /** the checks the runner's watchdog ended (a hang past --budget, an exhausted heap), one per property and verdict */
  readonly stopped: readonly { readonly property: string; readonly verdict: string; readonly reproducer: string }[];
  /** the search was ended by Ctrl-C */
  readonly interrupted: boolean;
  /** checks still running when the search ended, abandoned without a verdict */
  readonly unfinished: number;
}

/**
 * Blame by cause: a failure that first shows after a built-in directive is still the plug-in's
 * when it disappears once the plug-in's calls are removed from the schedule (or, when the rest no
 * longer applies without them, once the schedule is cut before the first of them).
 */
export async function causedBy(f: Found, directive: string, env: FuzzEnv): Promise<boolean> {
  const prop = propertyNamed(f.property);
  const without = caseWithout(prop, f.text, directive, env);
  return without !== undefined && (await evaluateAsync(prop, without, env)).status !== 'fail';
}

export async function checkDirective(o: CheckDirectiveOptions, io: IO): Promise<DirectiveVerdict[]> {
  const ds = await loadDirectiveModule(o.module, directiveApi);
  const out: DirectiveVerdict[] = [];
  for (const d of ds) {
    let blamed: Found | undefined;
    let blamedBy: DirectiveVerdict['blamed_by'];
    const config: EnvConfig = { ...DEFAULT_CONFIG, directives: [o.module], focus: d.name };
    let env: FuzzEnv | undefined;
    const r = await runWithProgress(
      {
        properties: [...DIRECTIVE_PROPERTIES],
        seed: o.seed,
        ...(o.runs !== undefined ? { runs: o.runs } : { timeMs: o.timeMs ?? 30_000 }),
        jobs: o.jobs,
        shard: o.shard,
        config,
        out: o.out,
        budgetMs: o.budgetMs,
        stopWhen: async (f) => {
          if (blamed) return false;
          if (f.culprit === d.name) {
            [blamed, blamedBy] = [f, 'first-failing-step'];
            return true;
          }
          env ??= await makeEnv(config);
          if (blamed || !(await causedBy(f, d.name, env))) return false;
          [blamed, blamedBy] = [f, 'removal'];
          return true;
        },
        ...(o.inProcess ? { inProcess: true } : {}),
      },
      io,
    );
    const entry = blamed && r.failures.find((e) => e.key === blamed!.key);
    out.push({
      directive: d.name,
      seed: o.seed,
      checks: r.runs,
      elapsed_s: r.elapsed_s,
      ...(blamed && entry
        ? {
            counterexample: {
              property: blamed.property, verdict: blamed.failure.verdict, check: blamed.index, reproducer: entry.reproducer, detected_s: entry.detected_s, reported_s: entry.reported_s,
              expected: blamed.failure.expected, actual: blamed.failure.actual, schedule: blamed.text.schedule ?? '', program: blamed.text.program ?? '',
            },
          }
        : {}),
      other_failures: r.failures.filter((e) => e.key !== blamed?.key).length,
      applied: r.constructs[FOCUS_APPLIED] ?? 0,
      applied_and_compared: r.constructs[FOCUS_COMPARED] ?? 0,
      ...(blamedBy ? { blamed_by: blamedBy } : {}),
      stopped: r.failures.filter((e) => WATCHDOG_VERDICTS.has(e.verdict)).map((e) => ({ property: e.property, verdict: e.verdict, reproducer: e.reproducer })),
      interrupted: r.interrupted,
      unfinished: r.unfinished ?? 0,
    });
  }
  return out;
}

/** Too few checks applied the directive for the search to say anything about it. */
export const tooFewApplied = (v: DirectiveVerdict): boolean => !v.counterexample && v.applied < MIN_APPLIED;

export function showDirectiveVerdict(v: DirectiveVerdict): string {
  const use = `applied in ${v.applied} of ${v.checks} checks, ${v.applied_and_compared} of which compared values`;
  if (tooFewApplied(v)) {
    const head = `directive ${v.directive}: inconclusive${v.interrupted ? ' (interrupted)' : ''}, ${use} (seed ${v.seed}); at least ${MIN_APPLIED} applications are needed to say anything\n`;
    // Checks the watchdog ended are the likelier cause than a generate that proposes nothing: the
    // module is the only code in the campaign that is not refsem's.
    if (v.stopped.length > 0) {
      return head + v.stopped.map((s) => `  ${s.property}: a check ended by the watchdog (${s.verdict === 'timeout' ? 'still running at --budget' : 'out of memory'}) → ${s.reproducer}\n`).join('')
        + `  hint: the directive's apply, validate or generate probably ${v.stopped.some((s) => s.verdict === 'timeout') ? 'does not return' : 'allocates without bound'}; replay the reproducer (refsem replay FILE) to see the call\n`;
    }
    // A check left running is the likelier cause than generate even when a few finished before it.
    if (v.unfinished > 0) {
      return head + `  ${v.unfinished} check(s) were still running when the search ended and were stopped: the directive's apply, validate or generate probably does not return\n`
        + `  hint: give a --budget shorter than --time, so that the watchdog stops such a check and writes its reproducer\n`;
    }
    return head + `  hint: check that its generate proposes arguments its validate accepts on small programs (refsem schedule PROG --schedule S --trace), or search longer with --time\n`;
  }
  if (!v.counterexample) {
    return `directive ${v.directive}: no counterexample in ${v.checks} checks${v.interrupted ? ' (interrupted)' : ''}, ${use} (seed ${v.seed})${v.other_failures ? `; ${v.other_failures} failure(s) elsewhere, not involving ${v.directive}` : ''}\n`;
  }
  const c = v.counterexample;
  return [
    `directive ${v.directive}: counterexample found after ${c.detected_s} s at check ${c.check} (shrunk by ${c.reported_s} s; ${v.checks} checks in ${v.elapsed_s} s, seed ${v.seed}); ${use}`,
    ...(v.blamed_by === 'removal' ? [`blamed on ${v.directive}: the failure shows after another directive but disappears once the calls of ${v.directive} are removed`] : []),
    `property: ${c.property} — ${c.verdict}`,
    'program:', c.program.trimEnd(),
    'schedule:', c.schedule.trimEnd(),
    `expected: ${c.expected}`,
    `actual: ${c.actual}`,
    `reproducer: ${c.reproducer}  (refsem replay ${c.reproducer})`,
    '',
  ].join('\n');
}
