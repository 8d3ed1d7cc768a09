// The heap as a graph ([REPORT-HEAP]): at every step of a run, its cells are exactly the live
// cells with their counts, its edges exactly the fields holding cells; the report draws it at the
// step asked for, else where the heap is largest; the drawing is escaped and the same each time.
import { describe, expect, it } from 'vitest';
import { CONFIGS, annotate } from '../../src/perceus/pipeline.js';
import { RESERVED, STATIC } from '../../src/perceus/heap-code.js';
import { compile } from '../../src/perceus/heap-compile.js';
import { run } from '../../src/perceus/heap-machine.js';
import { loadProgram } from '../../src/perceus/scope.js';
import { type HeapGraph, heapGraph, heapGraphSvg, heapText, printHeapGraph, reuseWatcher } from '../../src/report/heap-graph.js';
import type { TraceLine } from '../../src/perceus/heap-machine.js';
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
    const full40 = buildLambdaReport({ source: source('map.lam') }).perceus!;
    expect(at.cells).toEqual(full40.graphs[full40.steps[39]!.heap!]!.cells);
  });

  it('draws one box per cell and one arrow per edge, the counts in badges, the same way each time', () => {
    const m = buildLambdaReport({ source: source('map.lam') });
    const svg = heapGraphSvg(m.perceus!.heap!);
    expect(svg.match(/<g class="cell/g)).toHaveLength(11);
    expect(svg.match(/<line /g)).toHaveLength(9);
    expect(svg).toContain('<text class="rc"');
    expect(svg).toBe(heapGraphSvg(buildLambdaReport({ source: source('map.lam') }).perceus!.heap!));
    // the stepper opens at that step, the graph drawn beside it
    expect(reportBody(m)).toContain('<h3 class="heapcap">The heap after step 123: 11 cells</h3>');
  });

  it('[REPORT-HEAP-REUSE] every allocation through a reuse token is marked once, from the cell it replaced as it was when reserved', () => {
    for (const name of ['map.lam', 'rbtree.lam']) {
      const annotated = annotate(loadProgram(example(`perceus/${name}`), name), CONFIGS.find((c) => c.name === '+reusespec')!);
      const watch = reuseWatcher();
      const trace: TraceLine[] = [];
      const graphs = new Map<number, HeapGraph>();
      let [marked, since] = [0, 0];
      const r = run(compile(annotated, false), {
        trace,
        maxSteps: 3000,
        check: (state) => {
          const g = heapGraph(state.live, trace.length, watch(state.live, trace.length));
          for (const u of g.reused ?? []) {
            // a [CONRU-R] step since the last hook wrote the cell ...
            expect(trace.slice(since).map((t) => t.rule)).toContain('CONRU-R');
            // ... which was the token seen reserved at `reservedAt`, with these contents
            const then = graphs.get(u.reservedAt)!.cells.find((c) => c.id === u.id)!;
            expect([then.rc, `${then.shape}(${then.fields.join(', ')})`]).toEqual(['reserved', u.was]);
            expect(g.cells.find((c) => c.id === u.id)!.rc).toBe(1);
            marked++;
          }
          if (!graphs.has(trace.length)) graphs.set(trace.length, g);
          since = trace.length;
          return undefined;
        },
      });
      // exactly the machine's count of constructors written in reused memory
      expect(marked).toBe(r.stats.reuses);
      expect(marked).toBeGreaterThan(0);
    }
  });

  it('draws a reuse as a dashed arrow from a ghost of the freed cell to the new one, and a token\'s freed fields as no arrow', () => {
    const g: HeapGraph = {
      step: 7,
      cells: [
        { id: 1, shape: 'Cons', rc: 1, fields: ['2', '#3'] },
        { id: 3, shape: 'Nil', rc: 'reserved', fields: ['#9'] },
      ],
      edges: [{ from: 1, field: 1, to: 3 }, { from: 3, field: 0, to: 9 }],
      reused: [{ id: 1, was: 'Cons(1, #4)', reservedAt: 5 }],
    };
    const svg = heapGraphSvg(g);
    expect(svg.match(/<line class="reuse"[^>]*data-reuse="1"/g)).toHaveLength(1);
    expect(svg).toContain('freed #1 Cons(1, #4)');
    expect(svg).toContain('token since step 5');
    // #9 was freed by the token's drop: no box, no arrow to it
    expect(svg.match(/data-edge=/g)).toHaveLength(1);
    expect(heapText(g)).toBe('#1 Cons(2, #3) rc=1\n#3 Nil(#9) reserved for reuse');
  });

  it('the page carries each distinct heap once and every step names its own; every one of them draws', () => {
    const p = buildLambdaReport({ source: source('map.lam') }).perceus!;
    expect(p.steps.every((s) => s.heap !== undefined && p.graphs[s.heap] !== undefined)).toBe(true);
    expect(new Set(p.graphs.map((g) => JSON.stringify(g))).size).toBe(p.graphs.length);
    expect(p.graphs.filter((g) => g.reused).length).toBeGreaterThan(0);
    for (const [i, g] of p.graphs.entries()) expect(heapGraphSvg({ ...g, step: i })).toMatch(/^<svg[^]*<\/svg>$/);
  });

  it('[REPORT-STEPPER] the heap stepper opens at the drawn step, offers every rule the run applies, and carries each heap once', () => {
    const m = buildLambdaReport({ source: source('map.lam'), step: 209 });
    const page = reportBody(m);
    expect(page).toContain('value="208" aria-label="step"');
    expect(page).toContain('<input type="number" class="goto" min="1" max="281" value="209">');
    const offered = [...page.matchAll(/<option>([A-Z-]+)<\/option>/g)].map((x) => x[1]);
    expect(offered).toEqual([...new Set(m.perceus!.steps.map((s) => s.rule.id))].sort());
    expect(offered).toContain('CONRU-R');
    // the step drawn without a script is the reuse at step 209, arrow included
    expect(page).toContain('<h3 class="heapcap">The heap after step 209:');
    expect(page).toMatch(/<line class="reuse"[^>]*data-reuse="1"/);
    const heaps = JSON.parse(page.match(/<script type="application\/json" class="heaps">(.*?)<\/script>/)![1]!) as unknown[];
    expect(heaps).toHaveLength(m.perceus!.graphs.length);
  });

  it('escapes constructor names and fields in the drawing', () => {
    const svg = heapGraphSvg({ step: 1, cells: [{ id: 1, shape: '<b>', rc: 1, fields: ['"&\''] }], edges: [] });
    expect(svg).not.toMatch(/<b>|"&/);
    expect(svg).toContain('&#60;b&#62;(&#34;&#38;&#39;)');
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
