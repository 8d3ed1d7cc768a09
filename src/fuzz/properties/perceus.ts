// Perceus reference counting (thesis ch. 4): the component's own property (perceusProperty) on
// generated λ1 programs — every pass configuration agrees with the standard semantics, the Perceus
// output is derivable in the declarative system, and peak memory does not exceed the baseline.
import { arbLambdaProgram, loadProgram, perceusProperty } from '../../perceus/index.js';
import { PASS, type Property } from '../property.js';

/** Generator choices per case (see arbLambdaProgram). */
export const PERCEUS_CHOICES = 60;

export interface PerceusCase {
  readonly source: string;
}

export const perceus: Property<string, PerceusCase> = {
  name: 'perceus',
  summary: 'ch. 4: every Perceus configuration agrees with the standard semantics, its output is derivable (thm. 4.3), peak memory within the scoped baseline',
  // Smaller programs than the component's own default (120 choices): every case runs twelve
  // pass configurations, and a campaign gains more from many small programs than from few big ones.
  arbitrary: () => arbLambdaProgram(PERCEUS_CHOICES),
  concretize: (source) => ({ source }),
  check(c) {
    const v = perceusProperty(loadProgram(c.source, '<perceus case>'));
    if (v.ok) return PASS;
    return { status: 'fail', verdict: `perceus-${v.check ?? 'failure'}`, expected: `configuration ${v.config ?? '?'} passes check ${v.check ?? '?'}`, actual: v.message ?? 'the check failed' };
  },
  encode: (c) => ({ term: c.source }),
  decode: (t) => ({ source: t.term ?? '' }),
  shape: (c) => c.source.replace(/-?\b\d+\b/g, '#'),
};
