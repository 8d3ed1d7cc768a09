// The report renderer: line diffs, folding of repeated sub-derivations, and the page's structure.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, foldDerivation, lineDiff, renderReport, reportBody } from '../../src/report/html.js';
import type { DerivationNode, ReportModel } from '../../src/report/model.js';

describe('lineDiff', () => {
  it('keeps common lines and marks the rest', () => {
    expect(lineDiff(['a', 'b', 'c'], ['a', 'x', 'c'])).toEqual([
      { op: ' ', line: 'a' },
      { op: '-', line: 'b' },
      { op: '+', line: 'x' },
      { op: ' ', line: 'c' },
    ]);
  });

  it('property: the kept and removed lines are the old text, the kept and added lines the new one', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 12 });
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const d = lineDiff(a, b);
        expect(d.filter((x) => x.op !== '+').map((x) => x.line)).toEqual(a);
        expect(d.filter((x) => x.op !== '-').map((x) => x.line)).toEqual(b);
      }),
    );
  });

  it('beyond its size limit, shows the whole change', () => {
    expect(lineDiff(['a', 'b'], ['a', 'c'], 1).map((d) => d.op)).toEqual(['-', '-', '+', '+']);
  });
});

describe('foldDerivation', () => {
  const leaf = (text: string): DerivationNode => ({ rule: { id: 'CONST-EVAL' }, text, children: [] });
  const g3 = (): DerivationNode => ({ rule: { id: 'FUNC-EVAL' }, text: 'g(3) ⇓ 9', children: [leaf('3 ⇓ 3')] });

  it('a repeated sub-derivation refers to its first occurrence', () => {
    const root: DerivationNode = { rule: { id: 'OP-EVAL' }, text: 'g(3) + g(3) ⇓ 18', children: [g3(), g3()] };
    const f = foldDerivation(root);
    expect(f.children[0]!.sameAs).toBeUndefined();
    expect(f.children[1]!.sameAs).toBe(f.children[0]!.id);
    expect(f.children[1]!.children).toEqual([]);
  });

  it('equal leaves are not folded (nothing to save), different subtrees are kept apart', () => {
    const other: DerivationNode = { rule: { id: 'FUNC-EVAL' }, text: 'g(3) ⇓ 9', children: [leaf('4 ⇓ 4')] };
    const f = foldDerivation({ rule: { id: 'OP-EVAL' }, text: 'r', children: [leaf('1'), leaf('1'), g3(), other] });
    expect(f.children.map((c) => c.sameAs)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('a deep chain of repeated pairs folds to a size linear in its depth', () => {
    let n: DerivationNode = leaf('0');
    for (let i = 1; i <= 40; i++) n = { rule: { id: 'OP-EVAL' }, text: `x${i}`, children: [n, n] };
    const count = (x: ReturnType<typeof foldDerivation>): number => 1 + x.children.reduce((a, c) => a + count(c), 0);
    expect(count(foldDerivation(n))).toBe(81);
  });
});

describe('[REPORT-PROOF] a derivation as a proof', () => {
  const leaf = (text: string): DerivationNode => ({ rule: { id: 'CONST-EVAL' }, text, children: [] });
  const chain = (depth: number): DerivationNode => (depth === 0 ? leaf('0 ⇓ 0') : { rule: { id: 'OP-EVAL' }, text: `e${depth} ⇓ 0`, children: [chain(depth - 1), leaf(`${depth} ⇓ ${depth}`)] });
  const body = (tree: DerivationNode) => reportBody({ title: 't', errors: [], notes: [], programs: [], derivation: { point: 'f(0)', tree, truncated: false, nodes: 3000, budget: 30000 } });

  it('draws the premises, then the line with the rule, then the conclusion', () => {
    const page = body({ rule: { id: 'OP-EVAL' }, text: '1 + 2 ⇓ 3', children: [leaf('1 ⇓ 1'), leaf('2 ⇓ 2')] });
    const root = page.slice(page.indexOf('<div class="proofwrap">'));
    const [p, l, c] = ['<div class="premises">', '<div class="line"><span class="rule">[OP-EVAL]', '1 + 2 ⇓ 3'].map((x) => root.indexOf(x));
    expect(p).toBeGreaterThan(0);
    expect(p < l && l < c).toBe(true);
    expect(root.indexOf('1 ⇓ 1')).toBeLessThan(l);
  });

  it('draws three levels open and folds the premises below them', () => {
    const page = body(chain(6));
    expect(page.match(/<details class="premises">/g)).toHaveLength(3);
    expect(page.match(/<div class="proof">/g)).toHaveLength(13);
  });
});

describe('renderReport', () => {
  const model: ReportModel = {
    title: 'sec22 <report>',
    errors: [],
    notes: ['a note'],
    source: { file: 'sec22.alg', text: 'pipeline f() { func f(x) = x; }' },
    programs: [
      { label: 'T0', text: 'for f.s0.x in (a, b) do f[x] <- x' },
      { label: 'T1', directive: 'split f.s0.x into xo, xi by 3', rule: { id: 'SPLIT' }, text: 'for f.s0.xo in (0, 2) do f[x] <- x' },
    ],
    output: { func: 'f', window: [[0, 3]], values: ['1', '5', 'ε_rdom'] },
    machine: { window: '[0, 3)', program: 'for f.s0.x in (0, 3) do f[x] <- x', steps: [{ rule: { id: 'FOR-ITER' }, text: 'for </script> x', line: 0 }], outcome: 'done', truncated: false },
  };
  const rules = new Map([['SPLIT', { id: 'SPLIT', heading: '[SPLIT] Splitting a loop', chapter: 'spec/schedule.md', text: 'A loop of extent n … ⟨é⟩' }]]);
  const page = renderReport(model, { rules });

  it('is one page with no external resource', () => {
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).not.toMatch(/<(link|img|iframe)\b|src=|https?:\/\//);
  });

  it('[REPORT-RULES] shows the programs with the directive, its rule with its own text in the page, and the diff', () => {
    expect(page).toContain('<a class="rule" href="#rule-SPLIT" data-rule="SPLIT">[SPLIT]</a>');
    expect(page).toContain('<div class="ruletext" id="rule-SPLIT"><h3>[SPLIT] Splitting a loop <small>spec/schedule.md</small></h3><pre>A loop of extent n … ⟨é⟩</pre></div>');
    // a rule the spec does not define stays plain text, with no appendix entry
    expect(page).toContain(String.raw`<span class=\"rule\">[FOR-ITER]<\/span>`);
    expect(page).not.toContain('id="rule-FOR-ITER"');
    expect(page).toContain('<span class="del">- for f.s0.x in (a, b) do f[x] &lt;- x</span>');
    expect(page).toContain('<span class="add">+ for f.s0.xo in (0, 2) do f[x] &lt;- x</span>');
  });

  it('draws the output as a heat map, error values apart', () => {
    expect(page).toMatch(/<td style="background:hsl\(230,75%,82%\)">1<\/td>/);
    expect(page).toMatch(/<td style="background:hsl\(0,75%,82%\)">5<\/td>/);
    expect(page).toContain('<td style="background:#ddd">ε_rdom</td>');
  });

  it('escapes everything it prints, inside the step data too', () => {
    expect(page).toContain('sec22 &lt;report&gt;');
    expect(page).not.toContain('for </script> x');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('shows located errors and notes instead of a blank page', () => {
    const bad = renderReport({ title: 't', errors: ['x.alg:1:5: error: expected a func'], notes: [], programs: [] });
    expect(bad).toContain('<div class="errors" id="errors"><pre>x.alg:1:5: error: expected a func</pre></div>');
  });
});
