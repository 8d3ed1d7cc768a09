// The heap as a graph ([REPORT-HEAP]): at every step of a run, its cells are exactly the live
// cells with their counts, its edges exactly the fields holding cells; the report draws it at the
// step asked for, else where the heap is largest; the drawing is escaped and the same each time.
import { describe, expect, it } from 'vitest';
import { CONFIGS, annotate } from '../../src/perceus/pipeline.js';
import { RESERVED, STATIC } from '../../src/perceus/heap-code.js';
import { compile } from '../../src/perceus/heap-compile.js';
import { run } from '../../src/perceus/heap-machine.js';
import { loadProgram } from '../../src/perceus/scope.js';
import { heapGraph, heapGraphSvg, printHeapGraph } from '../../src/report/heap-graph.js';
import { buildLambdaReport } from '../../src/report/lambda.js';
import { reportBody } from '../../src/report/html.js';
import { runCli } from '../support/cli.js';
import { example } from '../support/files.js';

const source = (name: string) => ({ file: name, text: example(`perceus/${name}`) });

describe('[REPORT-HEAP] the heap as a graph', () => {
  it('at every step of map and rbtree, lists exactly the live cells, their counts and the fields holding cells', () => {
    let reserved = 0;
    let shared = 0;
    for (const name of ['map.lam', 'rbtree.lam']) {
      const annotated = annotate(loadProgram(example(`perceus/${name}`), name), CONFIGS.find((c) => c.name === '+reusespec')!);
      run(compile(annotated, false), {
        maxSteps: 3000,
        check: (state, step) => {
          const g = heapGraph(state.live, step);
          const live = [...state.live].sort((a, b) => a.id - b.id);
          expect(g.cells.map((c) => c.id)).toEqual(live.map((c) => c.id));
          expect(g.cells.map((c) => c.rc)).toEqual(live.map((c) => (c.rc === RESERVED ? 'reserved' : c.rc)));
          const fields = live.flatMap((c) => c.fields.flatMap((f, i) => (typeof f === 'object' && f.rc !== STATIC ? [`${c.id}.${i}->${f.id}`] : [])));
          expect(g.edges.map((e) => `${e.from}.${e.field}->${e.to}`)).toEqual(fields);
          reserved += g.cells.filter((c) => c.rc === 'reserved').length;
          shared += g.cells.filter((c) => typeof c.rc === 'number' && c.rc > 1).length;
          return undefined;
        },
      });
    }
    // the runs showed reuse tokens and shared cells, not only the plain case
    expect(reserved).toBeGreaterThan(0);
    expect(shared).toBeGreaterThan(0);
  });

  it('the report draws the step asked for, else the first largest heap', () => {
    const full = buildLambdaReport({ source: source('map.lam') }).perceus!;
    expect(full.heap).toMatchObject({ step: 123 });
    expect(full.heap!.cells).toHaveLength(11);
    const at = buildLambdaReport({ source: source('map.lam'), step: 40 }).perceus!.heap!;
    expect(at.step).toBe(40);
    // the heap the stepper shows beside step 40, cell for cell
    const shown = buildLambdaReport({ source: source('map.lam') }).perceus!.steps[39]!.state!;
    expect(at.cells.map((c) => `#${c.id}`)).toEqual(shown === '(empty heap)' ? [] : shown.split('\n').map((l) => l.split(' ')[0]));
  });

  it('draws one box per cell and one arrow per edge, the counts in badges, the same way each time', () => {
    const m = buildLambdaReport({ source: source('map.lam') });
    const svg = heapGraphSvg(m.perceus!.heap!);
    expect(svg.match(/<g class="cell/g)).toHaveLength(11);
    expect(svg.match(/<line /g)).toHaveLength(9);
    expect(svg).toContain('<text class="rc"');
    expect(svg).toBe(heapGraphSvg(buildLambdaReport({ source: source('map.lam') }).perceus!.heap!));
    expect(reportBody(m)).toContain('<h3 id="heap">The heap after step 123: 11 cells</h3>');
  });

  it('escapes constructor names and fields in the drawing', () => {
    const svg = heapGraphSvg({ step: 1, cells: [{ id: 1, shape: '<b>', rc: 1, fields: ['"&\''] }], edges: [] });
    expect(svg).not.toMatch(/<b>|"&/);
    expect(svg).toContain('&lt;b&gt;(&quot;&amp;&#39;)');
  });

  it('prints an empty heap as a header alone', () => {
    expect(printHeapGraph({ step: 3, cells: [], edges: [] })).toBe('heap after step 3: 0 cells, 0 edges\n');
  });
});

describe('refsem heap', () => {
  it('refuses a step past the end and a program of another kind, exit 2', async () => {
    const past = await runCli(['heap', `${__dirname}/../../examples/perceus/map.lam`, '--step', '100000']);
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('--step 100000: the machine takes 281 steps');
    const alg = await runCli(['heap', `${__dirname}/../../examples/sec22.alg`]);
    expect(alg.code).toBe(2);
    expect(alg.stderr).toMatch(/sec22\.alg:2:1: error: /);
  });
});
