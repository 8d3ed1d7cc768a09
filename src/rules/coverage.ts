// Rule coverage: which rules of the spec a set of runs exercised. A rule counts as fired each time
// a trace, derivation or rejection prints its ID — the same IDs spec/index.md maps to code — so the
// report says what a reader can see happen, not what instrumentation guesses.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { NOT_CHAPTERS, rulesOfChapter } from './spec-rules.js';

export interface RuleCount {
  readonly id: string;
  readonly chapter: string;
  readonly fired: number;
}

export interface CoverageReport {
  readonly rules: readonly RuleCount[];
  readonly fired: number;
  readonly total: number;
}

/** The rules of every chapter under `specDir`, in chapter order. */
export function specRules(specDir: string): { id: string; chapter: string }[] {
  return readdirSync(specDir)
    .filter((f) => f.endsWith('.md') && !NOT_CHAPTERS.has(f))
    .sort()
    .flatMap((c) => rulesOfChapter(readFileSync(join(specDir, c), 'utf8'), c).map((r) => ({ id: r.id, chapter: r.chapter })));
}

/** A running tally of the bracketed rule IDs in texts, against the spec's rules. Texts are counted
 * as they come and not kept: a campaign's traces run to gigabytes. */
export function ruleTally(rules: readonly { id: string; chapter: string }[]): { add(text: string): void; report(): CoverageReport } {
  const counts = new Map(rules.map((r) => [r.id, 0]));
  return {
    add(text) {
      for (const m of text.matchAll(/\[([A-Z][A-Z0-9-]*)\]/g)) {
        const n = counts.get(m[1]!);
        if (n !== undefined) counts.set(m[1]!, n + 1);
      }
    },
    report() {
      const out = rules.map((r) => ({ ...r, fired: counts.get(r.id)! }));
      return { rules: out, fired: out.filter((r) => r.fired > 0).length, total: out.length };
    },
  };
}

/** The report as text: per chapter, the rules that fired with their counts, then those that never did. */
export function showCoverage(rep: CoverageReport): string {
  const lines = [`${rep.fired} of ${rep.total} rules fired`];
  const chapters = [...new Set(rep.rules.map((r) => r.chapter))];
  for (const c of chapters) {
    const rs = rep.rules.filter((r) => r.chapter === c);
    const fired = rs.filter((r) => r.fired > 0);
    const never = rs.filter((r) => r.fired === 0);
    lines.push('', `${c}: ${fired.length} of ${rs.length}`);
    if (fired.length > 0) lines.push(`  fired: ${fired.map((r) => `${r.id} ×${r.fired}`).join(', ')}`);
    if (never.length > 0) lines.push(`  never: ${never.map((r) => r.id).join(', ')}`);
  }
  return lines.join('\n') + '\n';
}
