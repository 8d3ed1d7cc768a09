// Per-run statistics of the heap machine. Reference-counting operations are
// counted only when they touch a heap cell: on unboxed integers and nullary constructors they are
// no-ops (spec/perceus.md, "Unboxed values").
export interface Stats {
  /** Transitions of the heap machine (one per rule application, cascaded drops included). */
  steps: number;
  /** Fresh cells ([LAM-R], [CON-R], and C@ru without a token). */
  allocs: number;
  /** Cells whose memory was released. */
  frees: number;
  /** Constructions that reused a cell through a reuse token. */
  reuses: number;
  /** Count increments on heap cells. */
  dups: number;
  /** Count decrements on heap cells (including the last one, which frees). */
  drops: number;
  /** Maximum number of cells holding memory at once (reserved reuse cells included). */
  peakLive: number;
  /** Fields written when building cells (fresh or reused); reuse specialization lowers it. */
  fieldWrites: number;
}

export function emptyStats(): Stats {
  return { steps: 0, allocs: 0, frees: 0, reuses: 0, dups: 0, drops: 0, peakLive: 0, fieldWrites: 0 };
}

export function showStats(s: Stats): string {
  return `steps=${s.steps} allocs=${s.allocs} frees=${s.frees} reuses=${s.reuses} dups=${s.dups} drops=${s.drops} peak-live=${s.peakLive} field-writes=${s.fieldWrites}`;
}
