// [C-VARIANT]: which variants of a compiled pipeline ran. The emitted code marks the start of
// each side of its decisions (a loop's proved or checked iterations, a nest's tag-free or tagged
// copy, the instruction set dispatched to) with `RS_RAN(k); /* name */`; the driver reports the
// bits set on each run. Names are read back from the C text that was compiled, so that the same
// report works for refsem's output and for an edited copy of it passed as `validate --impl`.

const MARKER = /RS_RAN\((\d+)\); \/\* (.*?) \*\//g;

/** The marker names of a C text, by number (a number marked twice keeps its first name). */
export function variantNames(cText: string): string[] {
  const names: string[] = [];
  for (const m of cText.matchAll(MARKER)) names[Number(m[1])] ??= m[2]!;
  return names;
}

/** The names whose bits are set in `ran`. */
export function ranVariants(ran: bigint, names: readonly string[]): string[] {
  return names.filter((n, k) => n !== undefined && ((ran >> BigInt(k)) & 1n) === 1n);
}

/** The names no run set, given the runs' masks. */
export function neverRan(runs: readonly bigint[], names: readonly string[]): string[] {
  const any = runs.reduce((a, b) => a | b, 0n);
  return names.filter((n, k) => n !== undefined && ((any >> BigInt(k)) & 1n) === 0n);
}
