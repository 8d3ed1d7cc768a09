// The binary interface between emitted C and its callers (spec/codegen.md, "ABI"), and the status
// codes a run ends with. The same numbers appear in the runtime header (runtime.ts), so the driver's
// output can be read back here without guessing.

/** How one run of an emitted pipeline ended. Stuck states of fig. 2.8 each get their own status. */
export const STATUS = {
  ok: 0,
  assert: 1, // def. 2.11
  negativeExtent: 2, // def. 2.12 (and a negative allocation extent, as in the reference)
  oobRead: 3, // def. 2.13, reported only by checked builds (-DREFSEM_CHECKED)
  oobWrite: 4,
  errorInControl: 5, // an ε value where control needs an integer
  unallocated: 6, // an access before any allocation of the func (checked builds)
  overflow: 7, // a value left the int64 range; the reference is exact, C is not
  allocFailed: 8, // the allocation is larger than the memory the binary may use
  unsupportedIsa: 9, // a forced SIMD variant the CPU cannot run
} as const;

export type StatusName = keyof typeof STATUS;

const BY_CODE = new Map<number, StatusName>(Object.entries(STATUS).map(([k, v]) => [v, k as StatusName]));

export function statusName(code: number): StatusName | undefined {
  return BY_CODE.get(code);
}

/** Tags of values at run time: the error rank of def. 2.6 as bits, so that `|` computes the max. */
export const TAG = { int: 0, rdom: 1, mem: 3 } as const;

/** Most dimensions an emitted buffer may have (a fixed array in the result struct). */
export const MAX_DIMS = 8;

/**
 * A C identifier for a program name. Tgt names contain dots and primes (`f.s0.x`, `x'`); every
 * character outside [A-Za-z0-9] is escaped, and `_` doubles, so distinct names stay distinct.
 */
export function mangle(name: string): string {
  let out = '';
  for (const ch of name) {
    if (/[A-Za-z0-9]/.test(ch)) out += ch;
    else if (ch === '_') out += '__';
    else if (ch === '.') out += '_d';
    else out += `_x${ch.codePointAt(0)!.toString(16)}_`;
  }
  return out;
}

/** The exported C symbol of a pipeline: `refsem_<name>`. */
export function entryName(name: string): string {
  return `refsem_${mangle(name)}`;
}
