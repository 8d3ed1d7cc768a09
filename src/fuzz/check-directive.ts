// `refsem check-directive MODULE`: for people designing a directive. Campaigns whose schedules
// use the module's directive, over the properties a directive can break (thm. 2.1, thm. 2.2,
// race freedom, lemmas 2.4/2.5); the answer is a minimized counterexample pinned on the directive,
// or "no counterexample in N checks".
import { directiveApi } from '../schedule/api.js';
import { loadDirectiveModule } from '../node/plugins.js';
import type { IO } from '../node/io.js';
import type { Found } from './check.js';
import { DEFAULT_CONFIG } from './env.js';
import { runWithProgress } from './campaign-cli.js';
import type { Shard } from './seed.js';

export const DIRECTIVE_PROPERTIES = ['confluence', 'memory-safety', 'race-free', 'lemmas'] as const;

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
  readonly counterexample?: { readonly property: string; readonly verdict: string; readonly check: number; readonly reproducer: string; readonly expected: string; readonly actual: string; readonly schedule: string; readonly program: string };
  /** failures not pinned on the directive (bugs elsewhere), listed but not blamed on it */
  readonly other_failures: number;
}

export async function checkDirective(o: CheckDirectiveOptions, io: IO): Promise<DirectiveVerdict[]> {
  const ds = await loadDirectiveModule(o.module, directiveApi);
  const out: DirectiveVerdict[] = [];
  for (const d of ds) {
    let blamed: Found | undefined;
    const r = await runWithProgress(
      {
        properties: [...DIRECTIVE_PROPERTIES],
        seed: o.seed,
        ...(o.runs !== undefined ? { runs: o.runs } : { timeMs: o.timeMs ?? 30_000 }),
        jobs: o.jobs,
        shard: o.shard,
        config: { ...DEFAULT_CONFIG, directives: [o.module], focus: d.name },
        out: o.out,
        budgetMs: o.budgetMs,
        stopWhen: (f) => {
          if (blamed || f.culprit !== d.name) return false;
          blamed = f;
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
              property: blamed.property, verdict: blamed.failure.verdict, check: blamed.index, reproducer: entry.reproducer,
              expected: blamed.failure.expected, actual: blamed.failure.actual, schedule: blamed.text.schedule ?? '', program: blamed.text.program ?? '',
            },
          }
        : {}),
      other_failures: r.failures.filter((e) => e.key !== blamed?.key).length,
    });
  }
  return out;
}

export function showDirectiveVerdict(v: DirectiveVerdict): string {
  if (!v.counterexample) {
    return `directive ${v.directive}: no counterexample in ${v.checks} checks (seed ${v.seed})${v.other_failures ? `; ${v.other_failures} failure(s) elsewhere, not involving ${v.directive}` : ''}\n`;
  }
  const c = v.counterexample;
  return [
    `directive ${v.directive}: counterexample after ${v.checks} checks (${v.elapsed_s} s, seed ${v.seed}, check ${c.check})`,
    `property: ${c.property} — ${c.verdict}`,
    'program:', c.program.trimEnd(),
    'schedule:', c.schedule.trimEnd(),
    `expected: ${c.expected}`,
    `actual: ${c.actual}`,
    `reproducer: ${c.reproducer}  (refsem replay ${c.reproducer})`,
    '',
  ].join('\n');
}
