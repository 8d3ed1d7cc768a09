// Checking the table against FPIR (spec/fpir.md, [FPIR-TABLE-FPIR]): an entry that claims to
// implement an FPIR instruction must compute, lane by lane, what the instruction's definition
// computes, on every input at 8 bits and on a boundary-biased sample wider. This is the only check
// Neon entries get here (no Arm CPU); x86 entries are also run on the CPU (src/codegen/fpir-harness.ts).
import { seededRng } from '../rng.js';
import { type FExpr, varsOf } from './ast.js';
import { compileLane } from './eval.js';
import { type Intrinsic, INTRINSICS } from './intrinsics.js';
import { laneFormula } from './machine.js';
import { parseFpir } from './parse.js';
import { printFpir } from './print.js';
import { domainOf } from './sample.js';
import { inRange } from './types.js';
import { baseName } from './match.js';

export interface Equivalence {
  readonly status: 'proved' | 'sampled' | 'refuted';
  readonly checked: number;
  /** the first difference: variable values, then both sides' results */
  readonly counterexample?: string;
}

/**
 * Compares two lane formulas over the variables of both (the domain of [FPIR-DOMAIN]), skipping
 * rows where `pre` is false. Occurrences of one variable under several types (a constant wildcard
 * re-typed on a rule's right side) share a value, and rows where it does not fit every type are
 * skipped: the rule does not apply there.
 */
export function compareFormulas(a: FExpr, b: FExpr, samples: number, seed: number, pre?: FExpr): Equivalence {
  const occurrences = [...varsOf(a), ...(pre ? varsOf(pre) : []), ...varsOf(b)];
  const first = new Map<string, (typeof occurrences)[number]>();
  for (const v of occurrences) if (!first.has(baseName(v.name))) first.set(baseName(v.name), v);
  const names = [...first.keys()];
  const dom = domainOf(names.map((n) => first.get(n)!.type), samples, seededRng(seed));
  const slot = (n: string) => names.indexOf(baseName(n));
  const [fa, fb] = [compileLane(a, slot), compileLane(b, slot)];
  const fpre = pre && compileLane(pre, slot);
  const fits = occurrences.filter((v) => v.type.bits !== first.get(baseName(v.name))!.type.bits || v.type.signed !== first.get(baseName(v.name))!.type.signed).map((v) => [slot(v.name), v.type] as const);
  let checked = 0;
  for (const row of dom.rows) {
    if (fits.some(([i, t]) => !inRange(row[i]!, t))) continue;
    if (fpre && fpre(row) === 0n) continue;
    checked++;
    const x = fa(row);
    const y = fb(row);
    if (x !== y) {
      const at = names.map((n, i) => `${first.get(n)!.name}=${row[i]}`).join(' ');
      return { status: 'refuted', checked, counterexample: `${at}: ${printFpir(a)} = ${x}, ${printFpir(b)} = ${y}` };
    }
  }
  return { status: dom.exhaustive ? 'proved' : 'sampled', checked };
}

export interface ClaimResult extends Equivalence {
  readonly name: string;
  readonly implements: string;
}

/** An immediate takes only the values of its range (a C constant outside it does not compile). */
const immRange = (e: Intrinsic): FExpr | undefined => (e.imm && /\bn_u8\b/.test(e.lane) ? parseFpir(`(n_u8 >= ${e.imm[0]}) & (n_u8 <= ${e.imm[1]})`, `${e.name} (immediate)`) : undefined);

// implements [FPIR-TABLE-FPIR]
/** every entry's lane formula against the FPIR instruction it claims. */
export function checkClaims(entries: readonly Intrinsic[] = INTRINSICS, samples = 20_000): ClaimResult[] {
  const seen = new Map<string, Equivalence>();
  return entries
    .filter((e) => e.implements !== undefined)
    .map((e) => {
      // Families repeat one formula over widths: each distinct claim is checked once.
      const key = `${e.lane}|${e.implements}|${e.imm?.join(',') ?? ''}`;
      let eq = seen.get(key);
      if (!eq) seen.set(key, (eq = compareFormulas(laneFormula(e), parseFpir(e.implements!, `${e.name} (claim)`), samples, 1, immRange(e))));
      return { name: e.name, implements: e.implements!, ...eq };
    });
}
