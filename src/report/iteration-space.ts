// The iteration space of a completed program on a window, as data for a picture: which iteration of
// which loop wrote each output point, and, per tile, which points of each producer were allocated
// and computed there. Everything is read off a run of the program (the fast executor's watchers,
// fig. 2.8's [ASSN] and [ALLOC] with the loops around them), never derived from the schedule's
// text, so the picture shows what the semantics does (spec/report.md, [REPORT-SPACE]).
import type { Value } from '../expr/value.js';
import type { Input } from '../alg-semantics/ast.js';
import { execTgt, type LoopValues } from '../target-semantics/exec.js';
import type { Outcome, Stuck } from '../target-semantics/outcome.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { visitStmts } from '../target-semantics/walk.js';
import { forEachPoint } from '../expr/window.js';

export interface SpaceLoop {
  readonly name: string;
  readonly parallel: boolean;
}

/** What one tile of the output did to one producer: the region it allocated and the points it computed. */
export interface ProducerTile {
  /** the values of the tile's loops, `xo=1,yo=0`; `` for what ran outside every tile */
  readonly tile: string;
  /** [min, len] per dimension of the producer's last allocation in this tile */
  readonly alloc?: readonly (readonly [number, number])[];
  /** the points written, each once, in the order first written */
  readonly points: readonly (readonly number[])[];
}

export interface ProducerSpace {
  readonly func: string;
  readonly tiles: readonly ProducerTile[];
  /** how many of its points more than one tile computes (recomputation, e.g. a halo) */
  readonly recomputed: number;
}

export interface IterationSpace {
  readonly func: string;
  readonly window: readonly (readonly [number, number])[];
  /** the loops around the output's stores, outermost first */
  readonly loops: readonly SpaceLoop[];
  /** a tile is one iteration of the first `tileDepth` loops */
  readonly tileDepth: number;
  /** per window point (window order): the loops' values at the last store to it; null if none wrote it */
  readonly cells: readonly (readonly number[] | null)[];
  /** per window point: the place of that store among the output's stores, for animation in loop order */
  readonly order: readonly number[];
  readonly producers: readonly ProducerSpace[];
  /** a data race that stopped the run: the point two iterations of a parallel loop both accessed */
  readonly conflict?: { readonly func: string; readonly point: readonly number[]; readonly loop: string; readonly iterations: readonly [number, number]; readonly text: string };
}

const num = (v: Value): number => (typeof v === 'object' ? NaN : Number(v));

/** The tile of a run of loops: the values of the first `depth` of `outer` if the run is inside them. */
function tileOf(loops: LoopValues, outer: readonly string[], depth: number): string {
  if (depth === 0 || loops.length < depth || outer.slice(0, depth).some((n, i) => loops[i]![0] !== n)) return '';
  return loops
    .slice(0, depth)
    .map(([n, v]) => `${n.slice(n.lastIndexOf('.') + 1)}=${String(v)}`)
    .join(',');
}

/**
 * Runs `t` on `input` and gathers its iteration space (implements [REPORT-SPACE]). The tiles are the iterations of the output's
 * loops that enclose a producer's computation (its compute-at level, §2.8.3): the deepest such
 * loop fixes the tile; with no producer computed inside them, a tile is an iteration of the
 * outermost loop. Undefined when the run gets stuck (the report shows the outcome instead).
 */
export function iterationSpace(t: TgtProgram, input: Input): IterationSpace | undefined {
  return runWithSpace(t, input).space;
}

/** One run of `t` on `input` (fig. 2.8, at most `maxSteps` steps) and the iteration space read off it. */
export function runWithSpace(t: TgtProgram, input: Input, maxSteps?: number): { readonly outcome: Outcome; readonly space?: IterationSpace } {
  const stores: Stored[] = [];
  const allocs: Allocated[] = [];
  const o = execTgt(t, input, {
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    onStore: (func, point, _v, loops) => void stores.push({ func, point: point.map(num), loops }),
    onAlloc: (func, bounds, loops) => void allocs.push({ func, bounds: bounds.map(([m, l]) => [num(m), num(l)]), loops }),
  });
  // A race is drawn on the picture of what ran before it; any other stuck run has none.
  const race = o.kind === 'stuck' && o.stuck.kind === 'data-race' ? o.stuck : undefined;
  if (o.kind !== 'done' && !race) return { outcome: o };
  return { outcome: o, space: spaceOf(t, input, stores, allocs, race) };
}

/** A store and an allocation the run made, with the loops around it. */
interface Stored { readonly func: string; readonly point: number[]; readonly loops: LoopValues }
interface Allocated { readonly func: string; readonly bounds: [number, number][]; readonly loops: LoopValues }

function spaceOf(t: TgtProgram, input: Input, stores: readonly Stored[], allocs: readonly Allocated[], race: Extract<Stuck, { kind: 'data-race' }> | undefined): IterationSpace {
  const parallel = new Set<string>();
  visitStmts(t.body, (s) => void (s.k === 'for' && s.trav === 'parallel' && parallel.add(s.var)));

  const window = input.window.map(([m, l]) => [num(m), num(l)] as const);
  const at = new Map<string, { loops: LoopValues; order: number }>();
  let n = 0;
  for (const s of stores) if (s.func === t.output) at.set(s.point.join(','), { loops: s.loops, order: n++ });
  const names: string[] = [];
  for (const { loops } of at.values()) for (const [name] of loops) if (!names.includes(name)) names.push(name);

  // The compute-at level: how many of the output's loops enclose some producer's store or allocation.
  const depthOf = (loops: LoopValues) => {
    let d = 0;
    while (d < loops.length && d < names.length && loops[d]![0] === names[d]) d++;
    return d;
  };
  const inner = [...stores.filter((s) => s.func !== t.output), ...allocs.filter((a) => a.func !== t.output)];
  const tileDepth = Math.max(Math.min(1, names.length), ...inner.map((s) => depthOf(s.loops)));

  const cells: (number[] | null)[] = [];
  const order: number[] = [];
  forEachPoint(input.window, (p) => {
    const w = at.get(p.map(num).join(','));
    cells.push(w ? names.map((name) => num(w.loops.find(([x]) => x === name)?.[1] ?? NaN)) : null);
    order.push(w?.order ?? -1);
  });

  const producers = [...new Set(inner.map((s) => s.func))].sort().map((func) => {
    const tiles = new Map<string, { alloc?: [number, number][]; points: Map<string, number[]> }>();
    const tileAt = (key: string) => tiles.get(key) ?? tiles.set(key, { points: new Map() }).get(key)!;
    for (const a of allocs) if (a.func === func) tileAt(tileOf(a.loops, names, tileDepth)).alloc = a.bounds;
    for (const s of stores) if (s.func === func) tileAt(tileOf(s.loops, names, tileDepth)).points.set(s.point.join(','), s.point);
    const seen = new Map<string, number>();
    for (const { points } of tiles.values()) for (const k of points.keys()) seen.set(k, (seen.get(k) ?? 0) + 1);
    return {
      func,
      tiles: [...tiles].map(([tile, x]) => ({ tile, ...(x.alloc ? { alloc: x.alloc } : {}), points: [...x.points.values()] })),
      recomputed: [...seen.values()].filter((c) => c > 1).length,
    };
  });
  const conflict = race && {
    func: race.func,
    point: race.point.map(num),
    loop: race.loopVar,
    iterations: [num(race.iterations[0]), num(race.iterations[1])] as const,
    text: `data race on ${race.func}[${race.point.join(', ')}]: iterations ${race.loopVar} = ${race.iterations[0]} (${race.access[0]}) and ${race.loopVar} = ${race.iterations[1]} (${race.access[1]}) of a parallel loop`,
  };
  return { func: t.output, window, loops: names.map((name) => ({ name, parallel: parallel.has(name) })), tileDepth, cells, order, producers, ...(conflict ? { conflict } : {}) };
}

/** The tile of a cell as the picture labels it: `xo=1,yo=0` (the short loop names and their values). */
export function cellTile(s: IterationSpace, cell: readonly number[]): string {
  return tileOf(
    s.loops.map((l, i) => [l.name, cell[i]!] as const),
    s.loops.map((l) => l.name),
    s.tileDepth,
  );
}

/**
 * The smallest box of the window that holds the tile of its first point (the first in window order
 * that was stored; parallel loops run their iterations in any order, so "computed first" would
 * move with the run): the window a stepper runs so that it shows one whole tile
 * ([REPORT-STEP-WINDOW]). Undefined when no point was stored.
 */
export function firstTileWindow(s: IterationSpace): [number, number][] | undefined {
  const first = s.cells.findIndex((c) => c !== null);
  if (first < 0) return undefined;
  const tile = cellTile(s, s.cells[first]!);
  const lo = s.window.map(() => Infinity);
  const hi = s.window.map(() => -Infinity);
  s.cells.forEach((cell, i) => {
    if (!cell || cellTile(s, cell) !== tile) return;
    // window order: the first dimension fastest
    let rest = i;
    s.window.forEach(([m, l], d) => {
      const x = m + (rest % l);
      rest = Math.floor(rest / l);
      lo[d] = Math.min(lo[d]!, x);
      hi[d] = Math.max(hi[d]!, x);
    });
  });
  return s.window.map((_, d) => [lo[d]!, hi[d]! - lo[d]! + 1]);
}
