// Counters for `refsem fuzz --stats` and the JSON summary: how often each construct and each
// directive was generated, and how each property fared. Plain records so workers can post them.

export interface PropertyCounts {
  checks: number;
  failures: number;
  discards: number;
}

/**
 * How the first evaluation of each check ended. A pass that compared nothing is one of the
 * vacuous kinds (docs/fuzzing.md, "Vacuity"): the completed program failed an assertion (an
 * engine gave up), the algorithm has an error value in the window, or the window is empty.
 */
export const VERDICT_KEYS = ['equal', 'vacuous_assertion', 'vacuous_alg_error', 'empty_window', 'discard', 'fail'] as const;
export type VerdictKey = (typeof VERDICT_KEYS)[number];
export type Vacuity = Extract<VerdictKey, `vacuous_${string}` | 'empty_window'>;
export type VerdictCounts = Record<VerdictKey, number>;

/**
 * The shapes of the generated scheduling cases (docs/fuzzing.md, "What campaigns generate"):
 * how many checks have each. `directives_total` gives the mean; `directives_max` is a maximum.
 */
export interface GeneratedCounts {
  checks: number;
  funcs_ge_4: number;
  compute_at: number;
  nested_compute_at: number;
  store_at_other_level: number;
  order_sensitive_reduction: number;
  directives_total: number;
  directives_max: number;
}

export interface Stats {
  readonly constructs: Record<string, number>;
  readonly directives: Record<string, number>;
  readonly properties: Record<string, PropertyCounts>;
  readonly verdicts: Record<string, VerdictCounts>;
  readonly generated: GeneratedCounts;
  /** the checks whose case came from the seed corpus, as written (`exact`) or mutated, by verdict */
  readonly seeds: Partial<Record<SeedKind, VerdictCounts>>;
}

export type SeedKind = 'exact' | 'mutated';

const emptyVerdicts = (): VerdictCounts => Object.fromEntries(VERDICT_KEYS.map((k) => [k, 0])) as VerdictCounts;

/** The verdict counts of the checks of seeded cases, as written or mutated. */
export function seedCounts(s: Stats, exact: boolean): VerdictCounts {
  return (s.seeds[exact ? 'exact' : 'mutated'] ??= emptyVerdicts());
}

export const emptyGenerated = (): GeneratedCounts => ({
  checks: 0, funcs_ge_4: 0, compute_at: 0, nested_compute_at: 0, store_at_other_level: 0, order_sensitive_reduction: 0, directives_total: 0, directives_max: 0,
});

export function emptyStats(): Stats {
  return { constructs: {}, directives: {}, properties: {}, verdicts: {}, generated: emptyGenerated(), seeds: {} };
}

export function verdictCounts(s: Stats, property: string): VerdictCounts {
  return (s.verdicts[property] ??= emptyVerdicts());
}

/** The summary's `generated` record: shares as counts, the directive mean rounded to 0.01. */
export function generatedSummary(g: GeneratedCounts): Record<string, number> {
  const { directives_total, ...rest } = g;
  return { ...rest, directives_mean: g.checks === 0 ? 0 : Math.round((directives_total / g.checks) * 100) / 100 };
}

/** Checks of every property that compared a value or failed: what a campaign's speed is measured in. */
export function nonVacuous(verdicts: Stats['verdicts']): number {
  return Object.values(verdicts).reduce((n, v) => n + v.equal + v.fail, 0);
}

/** Counts back from a summary's `generated` record (the mean times the checks gives the total). */
export function generatedFromSummary(g: Readonly<Record<string, number>> | undefined): GeneratedCounts {
  const out = emptyGenerated();
  if (!g) return out;
  for (const k of Object.keys(out) as (keyof GeneratedCounts)[]) if (typeof g[k] === 'number') out[k] = g[k];
  out.directives_total = Math.round((g.directives_mean ?? 0) * (g.checks ?? 0));
  return out;
}

/** The share of a property's completed checks that compared nothing, or undefined without checks. */
export function vacuousShare(v: VerdictCounts): number | undefined {
  const judged = VERDICT_KEYS.filter((k) => k !== 'discard').reduce((n, k) => n + v[k], 0);
  return judged === 0 ? undefined : (v.vacuous_assertion + v.vacuous_alg_error + v.empty_window) / judged;
}

/** Counters of `refsem check-directive` among the constructs: the directive under test was applied, and the check compared values too. */
export const FOCUS_APPLIED = 'directive under test applied';
export const FOCUS_COMPARED = 'directive under test applied, values compared';

/** Constructs counters that hold a property's tallies (CheckResult.tally), e.g. `tally halide: equal`. */
export const TALLY = 'tally ';

/** The tallies of one property, by kind: what the summary reports under the property's name. */
export function talliesOf(constructs: Readonly<Record<string, number>>, property: string, kinds: readonly string[]): Record<string, number> {
  return Object.fromEntries(kinds.map((k) => [k, constructs[`${TALLY}${property}: ${k}`] ?? 0]));
}

export function bump(rec: Record<string, number>, key: string, n = 1): void {
  rec[key] = (rec[key] ?? 0) + n;
}

export function propertyCounts(s: Stats, name: string): PropertyCounts {
  return (s.properties[name] ??= { checks: 0, failures: 0, discards: 0 });
}

/** Adds `from` into `into` (worker deltas into the campaign total, shards into a merge). */
export function mergeStats(into: Stats, from: Stats): void {
  for (const [k, v] of Object.entries(from.constructs)) bump(into.constructs, k, v);
  for (const [k, v] of Object.entries(from.directives)) bump(into.directives, k, v);
  for (const [k, v] of Object.entries(from.properties)) {
    const p = propertyCounts(into, k);
    p.checks += v.checks;
    p.failures += v.failures;
    p.discards += v.discards;
  }
  for (const [k, v] of Object.entries(from.verdicts)) {
    const into_ = verdictCounts(into, k);
    for (const key of VERDICT_KEYS) into_[key] += v[key] ?? 0;
  }
  for (const [k, v] of Object.entries(from.seeds ?? {})) {
    const into_ = seedCounts(into, k === 'exact');
    for (const key of VERDICT_KEYS) into_[key] += v[key] ?? 0;
  }
  const g = into.generated;
  for (const key of Object.keys(g) as (keyof GeneratedCounts)[]) {
    g[key] = key === 'directives_max' ? Math.max(g[key], from.generated[key] ?? 0) : g[key] + (from.generated[key] ?? 0);
  }
}

/** The `--stats` table: one line per counter, most frequent first within each group. */
export function showStats(s: Pick<Stats, 'constructs' | 'directives' | 'properties'>): string {
  const section = (title: string, rec: Record<string, number>) => {
    const rows = Object.entries(rec).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    if (rows.length === 0) return `${title}: none\n`;
    const w = Math.max(...rows.map(([k]) => k.length));
    return `${title}:\n${rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`).join('\n')}\n`;
  };
  const props = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [`${k} (failures ${v.failures}, discards ${v.discards})`, v.checks]));
  return section('properties (checks)', props) + section('constructs', s.constructs) + section('directives', s.directives);
}

/**
 * The floor on completions: over at least this many confluence checks, a campaign in which more
 * than half ended in a failed assertion (its engine gave up, so the program was `assert 0`) has
 * compared too little to pass. It fails instead (exit 1), so that an engine that gives up on every
 * program cannot pass a campaign vacuously.
 */
export const FLOOR_MIN_CHECKS = 30;
export const FLOOR_MAX_ASSERTION_SHARE = 0.5;

export function belowCompletionFloor(verdicts: Stats['verdicts']): boolean {
  const v = verdicts.confluence;
  if (!v) return false;
  const judged = VERDICT_KEYS.filter((k) => k !== 'discard').reduce((n, k) => n + v[k], 0);
  return judged >= FLOOR_MIN_CHECKS && v.vacuous_assertion / judged > FLOOR_MAX_ASSERTION_SHARE;
}
