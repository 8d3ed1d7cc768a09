// spec/index.md is generated (npm run rule-index) and must match the sources; every rule of the
// spec has one implementation and a test, and code names no rule the spec lacks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRuleIndex, indexProblems, renderRuleIndex, rulesOfChapter } from '../../src/rules/rule-index.js';

const root = join(__dirname, '..', '..');
const ix = buildRuleIndex(root);

describe('rule index', () => {
  it('spec/index.md is up to date (regenerate with npm run rule-index)', () => {
    expect(readFileSync(join(root, 'spec', 'index.md'), 'utf8')).toBe(renderRuleIndex(ix));
  });

  it('every rule is implemented once and tested, and code names only defined rules', () => {
    expect(indexProblems(ix)).toEqual([]);
  });

  it('indexes every chapter of the spec', () => {
    const chapters = new Set(ix.rules.map((r) => r.chapter));
    for (const c of ['alg', 'bounds', 'codegen', 'expr', 'lowering', 'perceus', 'schedule', 'syntax', 'target']) expect(chapters).toContain(`spec/${c}.md`);
  });
});

describe('rulesOfChapter', () => {
  const md = [
    '# Chapter',
    '## [A-ONE] First',
    'text',
    '```refsem-run',
    '$ refsem expr 1',
    '1',
    '```',
    '### [B-TWO] and [B-THREE] A pair',
    'no example here',
    '## [C-FOUR] Last',
    '',
  ].join('\n');
  const rules = rulesOfChapter(md, 'x.md');

  it('reads every ID of a heading, several per heading included', () => {
    expect(rules.map((r) => r.id)).toEqual(['A-ONE', 'B-TWO', 'B-THREE', 'C-FOUR']);
    expect(rules[1]!.line).toBe(8);
  });

  it("a section's examples run to the next heading of its level or above", () => {
    // A-ONE's section holds the example (its sub-heading B-TWO comes after the example).
    expect(rules.map((r) => r.hasExample)).toEqual([true, false, false, false]);
  });

  it('a problem is reported for a rule without implementation, with several, and for an unknown ID', () => {
    const problems = indexProblems({
      rules: [
        { id: 'A-ONE', heading: '[A-ONE] First', chapter: 'spec/x.md', line: 2, hasExample: true, implementations: [], tests: [] },
        { id: 'B-TWO', heading: '[B-TWO]', chapter: 'spec/x.md', line: 8, hasExample: false, implementations: [{ file: 'a.ts', line: 1 }, { file: 'b.ts', line: 2 }], tests: [] },
      ],
      unknownInCode: [{ file: 'src/c.ts', line: 3 }],
    });
    expect(problems).toEqual([
      'spec/x.md:2: [A-ONE] has no implementation (no module names it)',
      'spec/x.md:8: [B-TWO] is named by 2 modules: a.ts, b.ts',
      'spec/x.md:8: [B-TWO] has no test naming it and no runnable example',
      'src/c.ts:3: names a rule ID no spec heading defines',
    ]);
  });
});
