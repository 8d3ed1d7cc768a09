// The rules of the spec as data: every ID in the headings of a chapter, where its section is and
// whether it holds a runnable example. Pure text processing, so the playground can compute rule
// links in the browser from the same chapters the command line reads from disk.

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

/**
 * The rules of one spec chapter. A heading may define several rules (`[IF-T] and [IF-F] …`); a
 * rule's section runs to the next heading of its level or above.
 */
export function rulesOfChapter(md: string, chapter: string): SpecRule[] {
  const lines = md.split('\n');
  const level = (l: string) => /^(#+) /.exec(l)?.[1]!.length;
  return lines.flatMap((l, i) => {
    const m = HEADING.exec(l);
    if (!m) return [];
    const own = m[1]!.length;
    let end = i + 1;
    while (end < lines.length && !((level(lines[end]!) ?? Infinity) <= own)) end++;
    const hasExample = lines.slice(i + 1, end).some((x) => /^```refsem-run\s*$/.test(x));
    return [...m[2]!.matchAll(HEADING_ID)].map((id) => ({ id: id[1]!, heading: m[2]!.trim(), chapter: `spec/${chapter}`, line: i + 1, hasExample }));
  });
}

/** The anchor a markdown renderer gives the rule's heading: lower case, punctuation dropped, spaces as dashes. */
export function headingAnchor(r: Pick<SpecRule, 'heading'>): string {
  return r.heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Each rule's link target relative to the spec folder (`schedule.md#…`), from the chapters' texts. */
export function ruleLinksOf(chapters: readonly { readonly name: string; readonly text: string }[]): Map<string, string> {
  return new Map(chapters.filter((c) => !NOT_CHAPTERS.has(c.name)).flatMap((c) => rulesOfChapter(c.text, c.name).map((r) => [r.id, `${c.name}#${headingAnchor(r)}`] as const)));
}
