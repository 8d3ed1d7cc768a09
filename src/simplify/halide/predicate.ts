// Predicate synthesis for Halide rules (spec/simplify.md [HR-PRED]), as the TRS paper derives
// predicates (§4): a rule written with the predicate `false` asks for the weakest condition on
// its constants under which it holds. The exact answer is computed on a grid of constant values
// (at each point the rule is checked with the constants fixed, which is linear and easy for Z3);
// candidate predicates from a small grammar are kept when they agree with it there, simplest
// first, and the first one Z3 proves sufficient for every constant is the answer. When none is
// proved, the candidate that fits the grid best is reported as a guess.
import { compareBig, isComparison } from '../../expr/ops.js';
import { type HExpr, isConstWild, showH, walkH } from './ast.js';
import type { Modelled } from './model.js';
import { type HVerdict, verifyHalideRule } from './verify.js';

export interface SynthesizedPredicate {
  readonly pred: string;
  /** proved sufficient for every constant, or only fitting the grid */
  readonly status: 'proved' | 'guess';
  /** does it hold at exactly the grid points where the rule does? */
  readonly exactOnGrid: boolean;
  /** the grid: each constant in [−radius, radius] */
  readonly radius: number;
}

const substitute = (e: HExpr, at: ReadonlyMap<string, bigint>): HExpr => {
  switch (e.k) {
    case 'id':
      return at.has(e.name) ? { k: 'int', v: at.get(e.name)! } : e;
    case 'bin':
      return { ...e, a: substitute(e.a, at), b: substitute(e.b, at) };
    case 'un':
      return { ...e, a: substitute(e.a, at) };
    case 'call':
      return { ...e, args: e.args.map((a) => substitute(a, at)) };
    default:
      return e;
  }
};

/** Candidate predicates over the constants, simplest first (also used by rule synthesis, [SIMP-SYNTH]). */
export function predicateCandidates(consts: readonly string[]): HExpr[] {
  const id = (name: string): HExpr => ({ k: 'id', name });
  const lit = (v: bigint): HExpr => ({ k: 'int', v });
  const atoms: HExpr[] = [];
  for (const c of consts) {
    for (const op of ['>=', '>', '<=', '<', '==', '!='] as const) for (const k of [0n, 1n, -1n]) atoms.push({ k: 'bin', op, a: id(c), b: lit(k) });
  }
  for (const a of consts) {
    for (const b of consts) {
      if (a === b) continue;
      for (const op of ['<', '<=', '==', '!='] as const) if (op === '<' || op === '<=' || a < b) atoms.push({ k: 'bin', op, a: id(a), b: id(b) });
      atoms.push({ k: 'bin', op: '==', a: { k: 'bin', op: '%', a: id(a), b: id(b) }, b: lit(0n) });
    }
  }
  const pairs: HExpr[] = [];
  for (let i = 0; i < atoms.length; i++) for (let j = i + 1; j < atoms.length; j++) pairs.push({ k: 'bin', op: '&&', a: atoms[i]!, b: atoms[j]! });
  return [...atoms, ...pairs];
}

/** Evaluates a predicate over constants only. */
export function holds(p: HExpr, at: ReadonlyMap<string, bigint>): boolean {
  const v = (e: HExpr): bigint => {
    if (e.k === 'int') return e.v;
    if (e.k === 'id') return at.get(e.name) ?? 0n;
    if (e.k !== 'bin') return 0n;
    const [a, b] = [v(e.a), v(e.b)];
    switch (e.op) {
      case '%':
        return b === 0n ? 0n : ((a % b) + (b < 0n ? -b : b)) % (b < 0n ? -b : b);
      case '&&':
        return a !== 0n && b !== 0n ? 1n : 0n;
      default:
        return isComparison(e.op) ? compareBig(e.op, a, b) : 0n;
    }
  };
  return v(p) !== 0n;
}

/** Every value of the constants on the grid: each in [−8, 8] for one, [−4, 4] for two, [−2, 2] for three. */
export function constantGrid(consts: readonly string[]): { radius: number; grid: Map<string, bigint>[] } {
  const radius = consts.length === 1 ? 8 : consts.length === 2 ? 4 : 2;
  const values = Array.from({ length: 2 * radius + 1 }, (_, i) => BigInt(i - radius));
  let grid: Map<string, bigint>[] = [new Map()];
  for (const c of consts) grid = grid.flatMap((g) => values.map((v) => new Map([...g, [c, v]])));
  return { radius, grid };
}

// implements [HR-PRED]
export async function synthesizePredicate(r: Modelled, opts: { timeoutMs?: number } = {}): Promise<SynthesizedPredicate | undefined> {
  const names = new Set<string>();
  walkH(r.lhs, (x) => void (x.k === 'id' && isConstWild(x.name) && names.add(x.name)));
  const consts = [...names].sort();
  if (consts.length === 0 || consts.length > 3) return undefined;
  const { radius, grid } = constantGrid(consts);
  const timeoutMs = opts.timeoutMs ?? 1000;
  const quick = { timeoutMs, bits: [] };
  // The rule at each grid point, constants fixed: where it holds is the weakest predicate there.
  const truth: boolean[] = [];
  for (const at of grid) {
    const v: HVerdict = await verifyHalideRule({ lhs: substitute(r.lhs, at), rhs: substitute(r.rhs, at) }, quick);
    truth.push(v.status === 'proved');
  }
  const scored = predicateCandidates(consts).map((p) => {
    const got = grid.map((at) => holds(p, at));
    const sound = got.every((g, i) => !g || truth[i]);
    const covered = got.filter((g, i) => g && truth[i]).length;
    return { p, sound, exact: sound && got.every((g, i) => g === truth[i]), covered };
  });
  // Exact fits first (simplest first), then sound ones by coverage: each is given to Z3.
  const tries = [...scored.filter((s) => s.exact), ...scored.filter((s) => s.sound && !s.exact && s.covered > 0).sort((a, b) => b.covered - a.covered)].slice(0, 12);
  // A candidate's proof is nonlinear in the constants: it gets ten times the grid's time limit.
  for (const t of tries) {
    const v = await verifyHalideRule({ ...r, pred: t.p }, { timeoutMs: timeoutMs * 10, bits: [] });
    if (v.status === 'proved') return { pred: showH(t.p), status: 'proved', exactOnGrid: t.exact, radius };
  }
  const best = tries[0];
  return best ? { pred: showH(best.p), status: 'guess', exactOnGrid: best.exact, radius } : undefined;
}

/** Is a predicate the literal `false`, which asks for synthesis? */
export const asksForPredicate = (pred: HExpr | undefined): boolean => pred?.k === 'bool' && !pred.v;
