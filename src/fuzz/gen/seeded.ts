// The seed corpus (docs/fuzzing.md, "The seed corpus"): pipelines people wrote, each an algorithm
// with its schedule — by default the apps suite (examples/apps/) — from which campaigns draw
// cases besides the random ones. A seeded case is a blueprint like every other: which seed, which
// of its schedule's calls are kept (in order), the output window and the parameters; random
// directive choices may be decoded on top of the kept calls (sched-case.ts). Every blueprint
// decodes to a valid case and every shrink of it does too: calls that no longer apply once others
// are dropped are skipped, so shrinking drops calls, narrows the window and removes the choices.
// Reading the seed files is the edge's business (fuzz/seeds.ts); this module takes them parsed.
import fc from 'fast-check';
import type { Input, Pipeline } from '../../alg-semantics/ast.js';
import { int } from '../../expr/value.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import type { AppliedCall } from './driver.js';

/** One seed: an algorithm and the refsem calls of its schedule, read and checked once. */
export interface SeedCase {
  /** the file name without extension (`camera`) */
  readonly name: string;
  readonly pipeline: Pipeline;
  /** T0 = 𝓛(P) */
  readonly t0: TgtProgram;
  /** the calls of its schedule in refsem's terms (a `.halide` schedule translated), in order */
  readonly calls: readonly AppliedCall[];
  /** the schedule as refsem prints it */
  readonly scheduleText: string;
  /** per output dimension, the constant range its schedule bounds it to (`bound`), if any */
  readonly bounded: readonly (readonly [number, number] | undefined)[];
}

/** The blueprint of a seeded case. */
export interface SeedB {
  /** which seed (modulo the corpus' size) */
  readonly i: number;
  /** per call of the seed's schedule: kept when positive (shrinking toward 0 drops calls) */
  readonly k: readonly number[];
  /** per output dimension: the window's minimum and extent before bounded dimensions are clamped */
  readonly w: readonly (readonly [number, number])[];
  /** the parameters' values */
  readonly q: readonly number[];
}

/** The window's extent in a dimension of a mutated seed: at most this (a few tiles of a 4–8 split). */
export const SEED_MAX_EXTENT = 12;
/**
 * Decision: the step budget of each run of a seeded case. The campaign's default (200,000) is for
 * random pipelines of a few funcs; a real one computes halos per tile whatever the window
 * (stencil_chain's six stages take 2.4 million steps under β0 on a single point).
 */
export const SEED_MAX_STEPS = 8_000_000;
/** Window minima of mutated seeds: near the origin, negative ones included. */
const SEED_MINS = { min: -8, max: 40 } as const;
const SEED_PARAMS = { min: -2, max: 8 } as const;
/** The parameters of an exact seed case: a small positive value each. */
const EXACT_PARAM = 4;

/**
 * The windows of the exact cases (the schedule as written): one at the origin, one shifted off
 * it, negative coordinates included, both some tiles wide in the first two dimensions and a few
 * points in the others; bounded dimensions get their bound's range.
 */
export const EXACT_WINDOWS: readonly (readonly (readonly [number, number])[])[] = [
  [[0, 18], [0, 8], [0, 3], [0, 3]],
  [[-5, 13], [37, 7], [1, 3], [-1, 3]],
];

/** The sizes every seeded blueprint has, whichever seed it names (so that any seed's example shrinks). */
interface Dims {
  readonly calls: number;
  readonly dims: number;
  readonly params: number;
}

function dimsOf(seeds: readonly SeedCase[]): Dims {
  return {
    calls: Math.max(0, ...seeds.map((s) => s.calls.length)),
    dims: Math.max(0, ...seeds.map((s) => s.bounded.length)),
    params: Math.max(0, ...seeds.map((s) => s.pipeline.params.length)),
  };
}

/**
 * Seeded blueprints: a seed of at most `maxFuncs` funcs (the case size of the campaign so far,
 * fuzz/size.ts: seeds join as random pipelines grow to their size), three calls in four kept, a
 * random small window; undefined when no seed is that small. The seed is named by its place in
 * the whole corpus, so that a blueprint means the same case at every size.
 */
export function arbSeedB(seeds: readonly SeedCase[], maxFuncs: number): fc.Arbitrary<SeedB> | undefined {
  const fit = seeds.flatMap((s, i) => (s.pipeline.funcs.length <= maxFuncs ? [i] : []));
  if (fit.length === 0) return undefined;
  const d = dimsOf(seeds);
  const fixed = <T>(x: fc.Arbitrary<T>, n: number) => fc.array(x, { minLength: n, maxLength: n });
  return fc.record({
    i: fc.constantFrom(...fit),
    k: fixed(fc.nat(3), d.calls),
    w: fixed(fc.tuple(fc.integer(SEED_MINS), fc.integer({ min: 1, max: SEED_MAX_EXTENT })), d.dims),
    q: fixed(fc.integer(SEED_PARAMS), d.params),
  });
}

/** The blueprint of seed i as written: every call kept, on exact window `variant`. */
export function exactSeedB(seeds: readonly SeedCase[], i: number, variant: number): SeedB {
  const d = dimsOf(seeds);
  const win = EXACT_WINDOWS[variant % EXACT_WINDOWS.length]!;
  const seed = seeds[i]!;
  return {
    i,
    k: Array.from({ length: d.calls }, () => 1),
    // A bounded dimension gets its bound's range, which the clamp of seedInput keeps as it is.
    w: Array.from({ length: d.dims }, (_, j) => seed.bounded[j] ?? win[j] ?? win[win.length - 1]!),
    q: Array.from({ length: d.params }, () => EXACT_PARAM),
  };
}

/** The seed a blueprint names. */
export const seedOf = (seeds: readonly SeedCase[], b: SeedB): SeedCase => seeds[b.i % seeds.length]!;

/** The calls a blueprint keeps, in the schedule's order. */
export const keptCalls = (seed: SeedCase, b: SeedB): AppliedCall[] => seed.calls.filter((_, j) => (b.k[j] ?? 0) > 0);

const mod = (a: number, n: number) => ((a % n) + n) % n;

/**
 * The input of a seeded case: the window of the blueprint, each bounded dimension moved and cut
 * into its bound's range (outside it the schedule's assertion fails and the check compares nothing).
 */
export function seedInput(seed: SeedCase, b: SeedB): Input {
  const window = seed.bounded.map((bd, j) => {
    const [m, e] = b.w[j] ?? [0, 1];
    if (bd === undefined || bd[1] < 1) return [int(m), int(e)] as const;
    const min = bd[0] + mod(m - bd[0], bd[1]);
    return [int(min), int(1 + mod(e - 1, bd[0] + bd[1] - min))] as const;
  });
  return { window, params: new Map(seed.pipeline.params.map((p, j) => [p, int(b.q[j] ?? EXACT_PARAM)])) };
}
