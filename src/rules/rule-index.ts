// The rule index: every rule ID named in a heading of spec/*.md, where it is implemented and which
// tests exercise it. A rule is only useful to a reader who can find the one place that implements
// it and see it run, so the index is generated from the sources and checked by the test suite
// (test/rules/rule-index.test.ts), never written by hand.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RuleText } from '../report/model.js';
import { NOT_CHAPTERS, type SpecRule, headingAnchor, ruleTextsOf, rulesOfChapter } from './spec-rules.js';

export { type SpecRule, rulesOfChapter } from './spec-rules.js';

export interface Site {
  readonly file: string;
  readonly line: number;
  /** the declaration enclosing the ID, when one is found */
  readonly within?: string;
}

export interface IndexedRule extends SpecRule {
  readonly implementations: readonly Site[];
  /** test files naming the rule */
  readonly tests: readonly string[];
}

export interface RuleIndex {
  readonly rules: readonly IndexedRule[];
  /** IDs that code names as a rule (quoted, or in an implements comment) but no spec heading defines */
  readonly unknownInCode: readonly Site[];
}

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name), ext) : d.name.endsWith(ext) ? [join(dir, d.name)] : [],
  );
}

/** The nearest declaration at or above a line: what a reader opens to find the rule. */
function enclosingDeclaration(lines: readonly string[], at: number): string | undefined {
  for (let i = at; i >= 0; i--) {
    const m = /^(?:export\s+)?(?:async\s+)?(?:function\s*\*?\s*(\w+)|(?:const|let|class)\s+(\w+))/.exec(lines[i]!);
    if (m) return m[1] ?? m[2];
  }
  return undefined;
}

// A rule is named in code as a quoted ID (the trace's rule name) or by a comment for rules that
// leave no trace; a quoted capitalised word with a dash is taken as a rule ID too, so that code
// cannot name a rule the spec lacks.
const QUOTED_WORD = /'([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)'|implements \[([A-Z][A-Z0-9-]*)\]/g;

/** Every place in the sources that names a rule ID, and the places naming IDs no chapter defines. */
function namedIds(root: string, defined: ReadonlySet<string>): { sites: Map<string, Site[]>; unknown: Site[] } {
  const sites = new Map<string, Site[]>();
  const unknown: Site[] = [];
  for (const f of filesUnder(join(root, 'src'), '.ts').sort()) {
    const lines = readFileSync(f, 'utf8').split('\n');
    lines.forEach((l, i) => {
      for (const m of l.matchAll(QUOTED_WORD)) {
        const id = m[1] ?? m[2]!;
        const within = enclosingDeclaration(lines, i);
        const site = { file: relative(root, f), line: i + 1, ...(within ? { within } : {}) };
        if (defined.has(id)) sites.set(id, [...(sites.get(id) ?? []), site]);
        else if (m[2] !== undefined || id.includes('-')) unknown.push(site);
      }
    });
  }
  return { sites, unknown };
}

/** Builds the index of the project rooted at `root` (the folder holding spec/, src/ and test/). */
export function buildRuleIndex(root: string): RuleIndex {
  const chapters = readdirSync(join(root, 'spec')).filter((f) => f.endsWith('.md') && !NOT_CHAPTERS.has(f)).sort();
  const specRules = chapters.flatMap((c) => rulesOfChapter(readFileSync(join(root, 'spec', c), 'utf8'), c));
  const defined = new Set(specRules.map((r) => r.id));
  const { sites: named, unknown: unknownInCode } = namedIds(root, defined);
  const tests = filesUnder(join(root, 'test'), '.ts')
    .sort()
    .map((f) => ({ file: relative(root, f), text: readFileSync(f, 'utf8') }));
  const mentions = (id: string) => tests.filter((t) => new RegExp(`(?<![A-Z0-9-])${id}(?![A-Z0-9-])`).test(t.text)).map((t) => t.file);
  // A site naming an ID counts once per file: a rule's module may name it in its trace and its error.
  const firstPerFile = (sites: readonly Site[]) => sites.filter((s, i) => sites.findIndex((o) => o.file === s.file) === i);
  const rules = specRules.map((r) => ({ ...r, implementations: firstPerFile(named.get(r.id) ?? []), tests: mentions(r.id) }));
  return { rules, unknownInCode };
}

/** Each rule's own text from the chapters in `specDir`, for the pages that show rules beside steps. */
export function ruleTexts(specDir: string): Map<string, RuleText> {
  const names = readdirSync(specDir).filter((f) => f.endsWith('.md'));
  return ruleTextsOf(names.map((name) => ({ name, text: readFileSync(join(specDir, name), 'utf8') })));
}

/** What is wrong with an index: rules without exactly one implementation or without any test. */
export function indexProblems(ix: RuleIndex): string[] {
  return [
    ...ix.rules.flatMap((r) => {
      const at = `${r.chapter}:${r.line}: [${r.id}]`;
      const impl = r.implementations.length;
      return [
        ...(impl === 0 ? [`${at} has no implementation (no module names it)`] : []),
        ...(impl > 1 ? [`${at} is named by ${impl} modules: ${r.implementations.map((s) => s.file).join(', ')}`] : []),
        ...(r.tests.length === 0 && !r.hasExample ? [`${at} has no test naming it and no runnable example`] : []),
      ];
    }),
    ...ix.unknownInCode.map((s) => `${s.file}:${s.line}: names a rule ID no spec heading defines`),
  ];
}

/** The index as the markdown of spec/index.md. */
export function renderRuleIndex(ix: RuleIndex): string {
  const head = [
    '# Rule index',
    '',
    'Generated by `npm run rule-index` from the headings of the spec chapters, the modules that',
    'name each rule and the tests that name it; `test/rules/rule-index.test.ts` fails when this file',
    'is out of date, when a rule has no implementation or no test, or when code names an ID no',
    'chapter defines. A rule counts as tested when a test file names it or when its section holds a',
    'runnable example (every example runs in `test/spec.test.ts`).',
    '',
  ];
  const byChapter = new Map<string, IndexedRule[]>();
  for (const r of ix.rules) byChapter.set(r.chapter, [...(byChapter.get(r.chapter) ?? []), r]);
  const body = [...byChapter].flatMap(([chapter, rules]) => [
    `## ${chapter}`,
    '',
    '| rule | implemented in | tested by |',
    '|---|---|---|',
    ...rules.map((r) => {
      const impl = r.implementations.map((s) => `\`${s.file}:${s.line}\`${s.within ? ` (${s.within})` : ''}`).join(', ');
      const tested = [...(r.hasExample ? ['spec example'] : []), ...r.tests.map((t) => `\`${t}\``)].join(', ');
      return `| [${r.id}](${chapter.replace('spec/', '')}#${headingAnchor(r)}) | ${impl} | ${tested} |`;
    }),
    '',
  ]);
  return [...head, ...body].join('\n');
}
