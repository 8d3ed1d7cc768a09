// The default campaign's time slices (docs/fuzzing.md, "Time slices"): the properties that compile
// or run programs outside refsem — the C backend, FPIR lowering on this CPU, the translation to
// Halide — are too slow per check to be drawn like the others (one check in sixteen would cost them
// most of the campaign's time), yet a default campaign that never runs them never sees a mistake
// there. So a default `--time` campaign gives each a share of its wall-clock time instead: between
// two checks, a worker runs the sliced property furthest below its share of the time elapsed so
// far. Their checks are small (a capped size level) and numbered apart from the other checks, so
// that the property and case of every other check index stay what they are without slices.
import type { AnyProperty } from './property.js';
import { backend } from './properties/backend.js';
import { fpir } from './properties/fpir.js';
import { HALIDE_TIMEOUT_MS, halide } from './properties/halide.js';
import { detectToolchain } from '../codegen/toolchain.js';
import { hostIsas } from '../codegen/cpu.js';
import { halideAvailable } from '../halide/run.js';
import { describeThrown } from '../diag.js';

export interface TimeSlice {
  readonly property: AnyProperty;
  /** the share of each worker's wall-clock time its checks may take */
  readonly share: number;
  /** the largest size level (size.ts) of its cases: a compile or a JIT grows with the program */
  readonly maxLevel: number;
  /**
   * checks run together when the property checks batches (checkBatchAsync): one compile for all of
   * them, each case still its own check with its own index, shrunk alone when it fails
   */
  readonly batch: number;
  /** why it cannot run on this machine (the package to install), or undefined */
  missing(): string | undefined;
}

const noCompiler = (): string | undefined => {
  try {
    detectToolchain();
    return undefined;
  } catch (e) {
    return `${describeThrown(e)} (install gcc)`;
  }
};

/**
 * Decision: a quarter of the time in all, shared by what a case costs once batched: 14% to the C
 * backend (a case costs 0.14 s in a batch of eight, mostly the compiler's optimizer, and a C mistake
 * takes a few dozen cases to meet), 6% to FPIR (a case of eight expressions costs 0.1 s in a batch of
 * eight, against 0.5–1 s alone), a twentieth to Halide (0.15 s a case on Halide's long-lived server;
 * a third of its cases are discarded, not stated in Halide). The rest of the campaign keeps three
 * quarters of its time and all of its check indices.
 */
export const TIME_SLICES: readonly TimeSlice[] = [
  { property: backend, share: 0.14, maxLevel: 4, batch: 8, missing: noCompiler },
  // (FPIR expressions have no size level: they are drawn alike at every level.)
  { property: fpir, share: 0.06, maxLevel: 1, batch: 8, missing: () => noCompiler() ?? (hostIsas().has('avx2') ? undefined : 'this CPU runs neither AVX2 nor AVX-512') },
  { property: halide, share: 0.05, maxLevel: 2, batch: 1, missing: () => (halideAvailable() ? undefined : "Halide's Python bindings are not installed for /usr/bin/python3 (install python3-halide)") },
];

/**
 * The time budget of a sliced check, instead of `--budget` when that is shorter: a compile or a JIT
 * on a loaded machine takes seconds, and the tools' own limits (Halide's per program, the C
 * compiler's) should end a slow check first, with their verdicts, rather than the campaign's
 * watchdog calling refsem's check a timeout.
 */
export const SLICE_BUDGET_MS = HALIDE_TIMEOUT_MS + 10_000;

export const timeSliceNamed = (name: string): TimeSlice | undefined => TIME_SLICES.find((s) => s.property.name === name);

/** What the campaign summary says of each slice: its share and the seconds its checks took, or why it was skipped. */
export type SliceReport = { readonly share: number; readonly seconds: number } | { readonly skipped: string };

/** The slices this machine can run, and the reasons for the others. */
export function availableSlices(): { names: string[]; skipped: Record<string, string> } {
  const names: string[] = [];
  const skipped: Record<string, string> = {};
  for (const s of TIME_SLICES) {
    const why = s.missing();
    if (why === undefined) names.push(s.property.name);
    else skipped[s.property.name] = why;
  }
  return { names, skipped };
}

/**
 * Sliced checks are numbered from here, so that their seeds (seed.ts, checkSeed) differ from every
 * other check's: 2^40 is beyond any campaign's count of checks.
 */
export const SLICED_FROM = 2 ** 40;

/** The construct count (stats.ts) in which a slice's milliseconds add up over the workers. */
export const SLICE_MS = 'time slice ms: ';

/**
 * A worker's clock of its slices: which sliced property (its position in `slices`) is due before
 * the next other check, if any. Only a timed campaign's workers keep one: a `--runs` campaign is the
 * same on any machine, and what a slice gets depends on the machine's speed.
 */
export function sliceClock(slices: readonly TimeSlice[], t0: number) {
  const spent = slices.map(() => 0);
  return {
    due(now: number): number | undefined {
      let best: number | undefined;
      let most = 0;
      slices.forEach((s, j) => {
        const owed = s.share * (now - t0) - spent[j]!;
        if (owed > most) {
          most = owed;
          best = j;
        }
      });
      return best;
    },
    spend(j: number, ms: number): void {
      spent[j]! += ms;
    },
  };
}
