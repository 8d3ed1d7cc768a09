// implements [RC-COST]
// Per-run statistics of the heap machine (spec/perceus.md, "Checks and statistics"). Every
// reference-counting operation is counted as the work it is, whichever path runs it: a generic
// drop tests the count and decrements or frees; a specialized drop (§4.2.3) replaces that test
// by one is-unique test, followed by a free on the unique path or a decrement without a test on
// the shared one. So a configuration saves work only where it really performs fewer operations.
// Operations are counted only when they touch a heap cell: on unboxed integers and nullary
// constructors they are no-ops (spec/perceus.md, "Unboxed values").
export interface Stats {
  /** Transitions of the heap machine (one per rule application, cascaded drops included). */
  steps: number;
  /** Fresh cells ([LAM-R], [CON-R], and C@ru without a token). */
  allocs: number;
  /** Cells whose memory was released: by a drop, on a unique path (`free`), or as an unused token. */
  frees: number;
  /** Constructions that reused a cell through a reuse token. */
  reuses: number;
  /** Count increments on heap cells, wherever they run (instructions, [APP-R], [MATCH-R], specialized paths). */
  dups: number;
  /** Generic drops on heap cells (and unspecialized drop-reuse): each tests the count, then decrements or frees. */
  drops: number;
  /** Decrements without a test: the shared path of a specialized drop or drop-reuse. */
  decrefs: number;
  /** is-unique tests of specialized drops and drop-reuses. */
  uniqueTests: number;
  /** Maximum number of cells holding memory at once (reserved reuse cells included). */
  peakLive: number;
  /** Fields written when building cells (fresh or reused); reuse specialization lowers it. */
  fieldWrites: number;
}

export function emptyStats(): Stats {
  return { steps: 0, allocs: 0, frees: 0, reuses: 0, dups: 0, drops: 0, decrefs: 0, uniqueTests: 0, peakLive: 0, fieldWrites: 0 };
}

/** All reference-counting operations of a run: dups, drops, decrefs, is-unique tests and frees. */
export function rcOps(s: Stats): number {
  return s.dups + s.drops + s.decrefs + s.uniqueTests + s.frees;
}

export function showStats(s: Stats): string {
  return `steps=${s.steps} allocs=${s.allocs} frees=${s.frees} reuses=${s.reuses} dups=${s.dups} drops=${s.drops} decrefs=${s.decrefs} unique-tests=${s.uniqueTests} field-writes=${s.fieldWrites} peak-live=${s.peakLive}`;
}
