// The rules of the spec as data: every ID in the headings of a chapter, where its section is and
// whether it holds a runnable example. Pure text processing, so the playground can compute rule
// links in the browser from the same chapters the command line reads from disk.
import type { RuleText } from '../report/model.js';

export interface SpecRule {
  readonly id: string;
  /** the text of the heading that defines it */
  readonly heading: string;
  /** `spec/<chapter>.md` */
  readonly chapter: string;
  readonly line: number;
  /** whether the rule's section holds a runnable example (run by test/spec.test.ts) */
  readonly hasExample: boolean;
}

const HEADING = /^(#+) (.*\[[A-Z][A-Z0-9-]*\].*)$/;
const HEADING_ID = /\[([A-Z][A-Z0-9-]*)\]/g;
/** Chapters that index or introduce the spec rather than define rules. */
export const NOT_CHAPTERS = new Set(['README.md', 'index.md']);

/** The sections of a chapter whose headings name rules: the heading, its IDs and its lines. */
function ruleSections(md: string): { heading: string; ids: string[]; line: number; lines: string[] }[] {
  const lines = md.split('\n');
  const level = (l: string) => /^(#+) /.exec(l)?.[1]!.length;
  return lines.flatMap((l, i) => {
    const m = HEADING.exec(l);
    if (!m) return [];
    const own = m[1]!.length;
    let end = i + 1;
    while (end < lines.length && !((level(lines[end]!) ?? Infinity) <= own)) end++;
    return [{ heading: m[2]!.trim(), ids: [...m[2]!.matchAll(HEADING_ID)].map((id) => id[1]!), line: i + 1, lines: lines.slice(i + 1, end) }];
  });
}

/**
 * The rules of one spec chapter. A heading may define several rules (`[IF-T] and [IF-F] …`); a
 * rule's section runs to the next heading of its level or above.
 */
export function rulesOfChapter(md: string, chapter: string): SpecRule[] {
  return ruleSections(md).flatMap((s) => {
    const hasExample = s.lines.some((x) => /^```refsem-run\s*$/.test(x));
    return s.ids.map((id) => ({ id, heading: s.heading, chapter: `spec/${chapter}`, line: s.line, hasExample }));
  });
}

/** Every rule's text, from the chapters' texts: what a report shows beside a rule ID. */
export function ruleTextsOf(chapters: readonly { readonly name: string; readonly text: string }[]): Map<string, RuleText> {
  return new Map(
    chapters
      .filter((c) => !NOT_CHAPTERS.has(c.name))
      .flatMap((c) => ruleSections(c.text).flatMap((s) => s.ids.map((id) => [id, { id, heading: s.heading, chapter: `spec/${c.name}`, text: s.lines.join('\n').trim() }] as const))),
  );
}

/** The anchor a markdown renderer gives the rule's heading: lower case, punctuation dropped, spaces as dashes. */
export function headingAnchor(r: Pick<SpecRule, 'heading'>): string {
  return r.heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}
