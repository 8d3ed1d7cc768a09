// The iteration space read off a run: the tiles of the output and what each tile computes of a
// producer, checked against the small-step machine's own Σ (fig. 2.8) at each [ASSN] — a second
// executor, so the picture's data is the semantics' and not the fast executor's alone.
import { describe, expect, it } from 'vitest';
import { BUILTIN_ENGINES } from '../../src/bounds/engine.js';
import { algorithm, complete, lowerStep, schedule } from '../../src/pipeline.js';
import { cellTile, iterationSpace } from '../../src/report/iteration-space.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import { readSchedule } from '../../src/schedule/halide-style.js';
import { bindInput } from '../../src/target-semantics/check.js';
import { Machine } from '../../src/target-semantics/machine.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { example } from '../support/files.js';

function completed(alg: string, sched: string): TgtProgram {
  const p = algorithm({ file: alg, text: example(alg) });
  const t0 = lowerStep(p);
  return complete(schedule(t0, readSchedule(example(sched), sched, () => t0, builtinRegistry()), p), BUILTIN_ENGINES.beta1!);
}

/** The points of `func` the machine writes while the loops named in `at` have the given values. */
function machineWrites(t: TgtProgram, input: { window: [number, number][]; params: Map<string, number> }, func: string, at: Record<string, number>): string[] {
  const m = new Machine(0);
  const out: string[] = [];
  m.run(t, bindInput(t, input), {
    onStep: (ev) => {
      if (ev.rule !== 'ASSN' || !ev.redex.startsWith(`${func}[`)) return;
      if (Object.entries(at).every(([x, v]) => m.env.get(x) === v)) out.push(ev.redex.slice(func.length + 1, ev.redex.indexOf(']')).replace(/ /g, ''));
    },
  });
  return [...new Set(out)].sort();
}

describe('iterationSpace', () => {
  it('blur in 4×2 tiles, rows of tiles in parallel: the cells of tile (1, 0) are exactly the points the machine writes in that tile', () => {
    const t = completed('blur.alg', 'blur.sched');
    const input = { window: [[0, 8], [0, 4]] as [number, number][], params: new Map<string, number>() };
    const s = iterationSpace(t, input)!;
    expect(s.loops.slice(0, 2)).toEqual([{ name: 'blur_y.s0.yo', parallel: true }, { name: 'blur_y.s0.xo', parallel: false }]);
    expect(s.tileDepth).toBe(2);
    const points: string[] = [];
    s.cells.forEach((c, i) => void (c && cellTile(s, c) === 'yo=0,xo=1' && points.push(`${i % 8},${Math.floor(i / 8)}`)));
    expect(points.sort()).toEqual(machineWrites(t, input, 'blur_y', { 'blur_y.s0.yo': 0, 'blur_y.s0.xo': 1 }));
    expect(points).toEqual(['4,0', '4,1', '5,0', '5,1', '6,0', '6,1', '7,0', '7,1']);
    // blur_x per tile: the tile's 4 columns on its 2 rows and the halo rows above and below
    const bx = s.producers.find((p) => p.func === 'blur_x')!;
    expect(bx.tiles.find((x) => x.tile === 'yo=0,xo=1')!.alloc).toEqual([[4, 4], [-1, 4]]);
    expect(bx.tiles.find((x) => x.tile === 'yo=0,xo=1')!.points.length).toBe(4 * 4);
    expect(bx.recomputed).toBe(2 * 8); // rows 1 and 2, computed by both rows of tiles
  });

  it('§2.2: g is allocated and computed per tile of f, and the halo point is computed by two tiles', () => {
    const t = completed('sec22.alg', 'sec22.sched');
    const s = iterationSpace(t, { window: [[0, 6]], params: new Map() })!;
    expect(s.cells.map((c) => cellTile(s, c!))).toEqual(['xo=0', 'xo=0', 'xo=0', 'xo=1', 'xo=1', 'xo=1']);
    const g = s.producers.find((p) => p.func === 'g')!;
    expect(g.tiles.map((x) => [x.tile, x.points.map((p) => p[0])])).toEqual([
      ['xo=0', [0, 1, 2, 3]],
      ['xo=1', [3, 4, 5, 6]],
    ]);
    expect(g.tiles.map((x) => x.alloc)).toEqual([[[0, 4]], [[3, 4]]]);
    expect(g.recomputed).toBe(1);
  });

  it('a run that gets stuck has no picture', () => {
    const t = completed('sec22.alg', 'sec22.sched');
    expect(iterationSpace(t, { window: [[0, -1]], params: new Map() })).toBeUndefined();
  });
});

describe('iterationSpace of a racing program', () => {
  it('[REPORT-SPACE] a data race is drawn with what ran before it: the point and the two iterations', () => {
    // A pure producer recomputed by two tiles writes one value twice, an overlap ([PAR-OVERLAP]);
    // acc's update writes the shared point a second value, so the tiles race on it.
    const p = algorithm({ file: 'swap.alg', text: example('swap.alg') });
    const t0 = lowerStep(p);
    // compute-at inside a parallel loop without store-at is refused at the end of the schedule; run what it reached
    const reached: TgtProgram[] = [];
    expect(() => schedule(t0, readSchedule(example('tour/swap.race.sched'), 'race.sched', () => t0, builtinRegistry()), p, { onStep: (e) => void (e.step === 'directive' && reached.push(e.t)) })).toThrow(/COMPUTE-AT-PARALLEL/);
    const s = iterationSpace(complete(reached.at(-1)!, BUILTIN_ENGINES.beta1!), { window: [[0, 5]], params: new Map() })!;
    expect(s.conflict).toMatchObject({ func: 'acc', point: [2], loop: 'h.s0.xo' });
    expect([...s.conflict!.iterations].sort()).toEqual([0, 1]);
  });
});
