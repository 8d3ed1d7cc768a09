// Counters for `refsem fuzz --stats` and the JSON summary: how often each construct and each
// directive was generated, and how each property fared. Plain records so workers can post them.

export interface PropertyCounts {
  checks: number;
  failures: number;
  discards: number;
}

export interface Stats {
  readonly constructs: Record<string, number>;
  readonly directives: Record<string, number>;
  readonly properties: Record<string, PropertyCounts>;
}

export function emptyStats(): Stats {
  return { constructs: {}, directives: {}, properties: {} };
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
}

/** The `--stats` table: one line per counter, most frequent first within each group. */
export function showStats(s: Stats): string {
  const section = (title: string, rec: Record<string, number>) => {
    const rows = Object.entries(rec).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    if (rows.length === 0) return `${title}: none\n`;
    const w = Math.max(...rows.map(([k]) => k.length));
    return `${title}:\n${rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`).join('\n')}\n`;
  };
  const props = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [`${k} (failures ${v.failures}, discards ${v.discards})`, v.checks]));
  return section('properties (checks)', props) + section('constructs', s.constructs) + section('directives', s.directives);
}
