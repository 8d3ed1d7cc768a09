// Perceus reference counting (thesis ch. 4): the component's own property (perceusProperty) on
// generated λ1 programs — every pass configuration agrees with the standard semantics, the Perceus
// output is derivable in the declarative system, and peak memory stays within the standard
// semantics' reachable cells and the baseline. `--stats` counts the cases that fire each rule of
// spec/perceus.md.
import { arbLambdaProgram, loadProgram, perceusProperty, rulesFired } from '../../perceus/index.js';
import { PASS, type Property } from '../property.js';
import { bump } from '../stats.js';

/** Generator choices per case (see arbLambdaProgram). */
export const PERCEUS_CHOICES = 60;

/** The prefix of the `--stats` counters of Perceus rules. */
const PERCEUS_RULE = 'perceus rule ';

export interface PerceusCase {
  readonly source: string;
}

export const perceus: Property<string, PerceusCase> = {
  name: 'perceus',
  summary: 'ch. 4: every Perceus configuration agrees with the standard semantics, its output is derivable (thm. 4.3), peak memory within the reachable cells and the scoped baseline',
  // Smaller programs than the component's own default (120 choices): every case runs twelve
  // pass configurations, and a campaign gains more from many small programs than from few big ones.
  arbitrary: () => arbLambdaProgram(PERCEUS_CHOICES),
  concretize: (source) => ({ source }),
  check(c, env) {
    const v = perceusProperty(loadProgram(c.source, '<perceus case>'), undefined, env.perceusHooks);
    if (v.ok) return PASS;
    return { status: 'fail', verdict: `perceus-${v.check ?? 'failure'}`, expected: `configuration ${v.config ?? '?'} passes check ${v.check ?? '?'}`, actual: v.message ?? 'the check failed' };
  },
  observe(c, stats) {
    for (const rule of rulesFired(loadProgram(c.source, '<perceus case>')).keys()) bump(stats.constructs, PERCEUS_RULE + rule);
  },
  encode: (c) => ({ term: c.source }),
  decode: (t) => ({ source: t.term ?? '' }),
  shape: (c) => c.source.replace(/-?\b\d+\b/g, '#'),
};
