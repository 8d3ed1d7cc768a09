// Checking the table against FPIR (spec/fpir.md, [FPIR-TABLE-FPIR]): an entry that claims to
// implement an FPIR instruction must compute, lane by lane, what the instruction's definition
// computes, on every input at 8 bits and on a boundary-biased sample wider. This is the only check
// Neon entries get here (no Arm CPU); x86 entries are also run on the CPU (src/codegen/fpir-harness.ts).
import { seededRng } from '../rng.js';
import { type FExpr, varsOf } from './ast.js';
import { evalLane } from './eval.js';
import { type Intrinsic, INTRINSICS } from './intrinsics.js';
import { laneFormula } from './machine.js';
import { parseFpir } from './parse.js';
import { printFpir } from './print.js';
import { domainOf } from './sample.js';

export interface Equivalence {
  readonly status: 'proved' | 'sampled' | 'refuted';
  readonly checked: number;
  /** the first difference: variable values, then both sides' results */
  readonly counterexample?: string;
}

/** Compares two lane formulas over the variables of both (the domain of [FPIR-DOMAIN]). */
export function compareFormulas(a: FExpr, b: FExpr, samples: number, seed: number, pre?: FExpr): Equivalence {
  const vars = [...new Map([...varsOf(a), ...varsOf(b), ...(pre ? varsOf(pre) : [])].map((v) => [v.name, v])).values()];
  const dom = domainOf(vars.map((v) => v.type), samples, seededRng(seed));
  let checked = 0;
  for (const row of dom.rows) {
    const env = (n: string) => row[vars.findIndex((v) => v.name === n)]!;
    if (pre && evalLane(pre, env) === 0n) continue;
    checked++;
    const x = evalLane(a, env);
    const y = evalLane(b, env);
    if (x !== y) {
      const at = vars.map((v, i) => `${v.name}=${row[i]}`).join(' ');
      return { status: 'refuted', checked, counterexample: `${at}: ${printFpir(a)} = ${x}, ${printFpir(b)} = ${y}` };
    }
  }
  return { status: dom.exhaustive ? 'proved' : 'sampled', checked };
}

export interface ClaimResult extends Equivalence {
  readonly name: string;
  readonly implements: string;
}

// implements [FPIR-TABLE-FPIR]
/** every entry's lane formula against the FPIR instruction it claims. */
export function checkClaims(entries: readonly Intrinsic[] = INTRINSICS, samples = 20_000): ClaimResult[] {
  return entries
    .filter((e) => e.implements !== undefined)
    .map((e) => ({ name: e.name, implements: e.implements!, ...compareFormulas(laneFormula(e), parseFpir(e.implements!, `${e.name} (claim)`), samples, 1) }));
}
