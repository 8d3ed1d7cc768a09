// Evaluating FPIR (spec/fpir.md, [FPIR-EVAL]): every operation is lane-wise, so a vector is
// evaluated one lane at a time on exact integers; an environment gives each variable its lanes.
import { UserError } from '../diag.js';
import type { FExpr } from './ast.js';
import { instruction } from './instructions.js';
import { applyPrim } from './prim.js';
import { inRange, typeName, wrap } from './types.js';

const EVAL = 'FPIR-EVAL';

export type Lanes = readonly bigint[];

/** One lane: `env` gives each variable's value in that lane. */
export function evalLane(e: FExpr, env: (name: string) => bigint): bigint {
  switch (e.k) {
    case 'var':
      return env(e.name);
    case 'const':
      return e.value;
    case 'cast':
      return wrap(evalLane(e.arg, env), e.type);
    case 'prim':
      return applyPrim(e.op, evalLane(e.args[0], env), evalLane(e.args[1], env), e.type);
    case 'select':
      return evalLane(e.args[0], env) !== 0n ? evalLane(e.args[1], env) : evalLane(e.args[2], env);
    case 'fp':
      return instruction(e.op).value(e.args.map((a) => evalLane(a, env)), e.args.map((a) => a.type), e.type);
  }
}

/** A whole vector: every variable has the same number of lanes, each inside its type. */
export function evalVector(e: FExpr, env: ReadonlyMap<string, Lanes>, vars: readonly Extract<FExpr, { k: 'var' }>[]): bigint[] {
  const lanes = vars.length === 0 ? 1 : env.get(vars[0]!.name)?.length ?? 0;
  for (const v of vars) {
    const xs = env.get(v.name);
    if (!xs) throw new UserError(`[${EVAL}] no value for ${v.name}`);
    if (xs.length !== lanes) throw new UserError(`[${EVAL}] ${v.name} has ${xs.length} lanes, ${vars[0]!.name} has ${lanes}`);
    const bad = xs.find((x) => !inRange(x, v.type));
    if (bad !== undefined) throw new UserError(`[${EVAL}] ${bad} is no ${typeName(v.type)} (a lane of ${v.name})`);
  }
  const out: bigint[] = [];
  for (let i = 0; i < lanes; i++) out.push(evalLane(e, (n) => env.get(n)![i]!));
  return out;
}

/** A lane function: variables read from a row by the slots `slot` gives them once, up front. */
export type LaneFn = (row: readonly bigint[]) => bigint;

/** The same meaning as evalLane, with the tree walked once (the checkers run formulas millions of times). */
export function compileLane(e: FExpr, slot: (name: string) => number): LaneFn {
  switch (e.k) {
    case 'var': {
      const i = slot(e.name);
      return (r) => r[i]!;
    }
    case 'const': {
      const v = e.value;
      return () => v;
    }
    case 'cast': {
      const a = compileLane(e.arg, slot);
      const t = e.type;
      return (r) => wrap(a(r), t);
    }
    case 'prim': {
      const a = compileLane(e.args[0], slot);
      const b = compileLane(e.args[1], slot);
      const { op, type } = e;
      return (r) => applyPrim(op, a(r), b(r), type);
    }
    case 'select': {
      const [c, a, b] = e.args.map((x) => compileLane(x, slot)) as [LaneFn, LaneFn, LaneFn];
      return (r) => (c(r) !== 0n ? a(r) : b(r));
    }
    case 'fp': {
      const args = e.args.map((x) => compileLane(x, slot));
      const ins = instruction(e.op);
      const types = e.args.map((a) => a.type);
      const t = e.type;
      return (r) => ins.value(args.map((f) => f(r)), types, t);
    }
  }
}
