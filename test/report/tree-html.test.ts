// The loop nest in a report page ([REPORT-TREE], [REPORT-TREE-DIFF]): a tree per program, the
// directive's changes listed and marked, unchanged subtrees folded, every text escaped, and the
// same page for the same input.
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { reportBody } from '../../src/report/html.js';
import type { LoopTree } from '../../src/report/loop-tree.js';
import { loopTreeHtml } from '../../src/report/tree-html.js';
import { example } from '../support/files.js';

const sec22 = { file: 'sec22.alg', text: example('sec22.alg') };
const sched = { file: 'sec22.sched', text: example('sec22.sched') };

describe('loop nests in a report', () => {
  const m = buildReport({ source: sec22, schedule: sched, window: [[0, 6]] });
  const body = reportBody(m);
  const trees = body.split('<div class="looptree">').slice(1);

  it('draws one tree per program, T0 whole and open', () => {
    expect(m.programs.every((p) => p.tree)).toBe(true);
    expect(trees).toHaveLength(4);
    expect(trees[0]).not.toContain('changed');
    expect(trees[0]).not.toMatch(/<details>/);
    expect(trees[0]).toContain('<span class="kw">for</span> <span class="trav serial">serial</span> f.s0.x in (?cpu.min(f.x), ?cpu.len(f.x))');
  });

  it('lists the changes of each directive and marks their nodes', () => {
    expect(m.programs[1]!.changes!.map((c) => c.kind)).toEqual(['split']);
    expect(trees[1]).toContain('<li class="c-split"><span class="badge">split</span> loop f.s0.x split into f.s0.xo, f.s0.xi</li>');
    expect(trees[1]).toMatch(/<li class="n-for changed c-split" data-key="for f.s0.xo">/);
    expect(trees[2]).toMatch(/<li class="n-label changed c-moved" data-key="label g">/);
    expect(trees[3]).toMatch(/<li class="n-allocate changed c-moved" data-key="allocate g">/);
  });

  it('folds what a directive left alone to one line, except in the last program', () => {
    // T1: g's computation is untouched by the split of f
    expect(trees[1]).toMatch(/data-key="label g"><span class="kw">label<\/span> g <span class="same">… 3 more nodes as before<\/span>/);
    // T3, the program that runs, is whole: g's loop is there, folded (closed) but present
    expect(trees[3]).toContain('g.s0.x in');
    expect(trees[3]).not.toContain('as before');
  });

  it('writes the same page for the same input', () => {
    expect(reportBody(buildReport({ source: sec22, schedule: sched, window: [[0, 6]] }))).toBe(body);
  });
});

describe('loopTreeHtml', () => {
  it('escapes every name and bound', () => {
    const tree: LoopTree = {
      output: 'f',
      derived: {},
      roots: [{ k: 'label', name: '<script>"&\'', key: 'label <script>"&\'', bounds: '', children: [{ k: 'for', name: 'a<b', key: 'for a<b', trav: 'parallel', bounds: '(0, n < 3 && "x")', children: [] }] }],
    };
    const html = loopTreeHtml(tree, [{ kind: 'moved', before: ['for a<b'], after: ['for a<b'], text: 'a<b moved & "gone"', by: { directive: '<i>', base: true } }]);
    expect(html).not.toMatch(/<script|<b|<i>|"&|n < 3/);
    expect(html).toContain('&lt;script&gt;&quot;&amp;&#39;');
    expect(html).toContain('data-key="for a&lt;b"');
    expect(html).toContain('a&lt;b moved &amp; &quot;gone&quot; <span class="by">undoes the base&#39;s &lt;i&gt;</span>');
  });

  it('says so when a directive changed nothing in the loop nest', () => {
    expect(loopTreeHtml({ output: 'f', derived: {}, roots: [] }, [])).toContain('No change to the loop nest.');
  });
});
