// The theorems of §4.3 as per-step checks on heap-machine states (docs/proofs/perceus.md):
//   garbage   — theorem 4.2: every heap entry is reachable (def. 4.1) from the expression;
//   precision — theorem 4.4: away from dup/drop, every entry is reachable from the erased expression;
//   counts    — every count equals the number of references (from the expression and the heap);
// and the two end-of-run checks, soundness (theorem 4.1) and an empty heap, done by pipeline.ts.
// The "expression" of a state is the current code, the pending `val x = □; e` frames and the
// queued drops of a cascade, each read through its environment.
import { Cell, type Code, Op, RESERVED, type RV, FREED, showCell } from './heap-code.js';
import { type StateView, type StepCheck } from './heap-machine.js';

export const CHECKS = ['soundness', 'garbage', 'precision', 'counts', 'empty'] as const;
export type CheckName = (typeof CHECKS)[number];

/** The checks made at every step; the others are made once, at the end of the run. */
export const STEP_CHECKS: readonly CheckName[] = ['garbage', 'precision', 'counts'];

/** The redex: `val x = E; e` focuses on E before any transition. */
function redex(c: Code): Code {
  let r = c;
  while (r.op === Op.VAL && !r.bound!.simple) r = r.bound!;
  return r;
}

const isRcInstruction = (c: Code) => c.op === Op.DUP || c.op === Op.DROP || c.op === Op.DROPREUSE || c.op === Op.DROPSPEC;

function addRef(m: Map<Cell, number>, v: RV | undefined, d: number): void {
  if (v instanceof Cell && v.rc !== -1) m.set(v, (m.get(v) ?? 0) + d);
}

/** Parts of the remaining expression: (code, env, bound slot excluded). */
function parts(s: StateView): [Code, RV[], number][] {
  const out: [Code, RV[], number][] = [];
  if (s.code) out.push([s.code, s.env, -1]);
  for (let i = 0; i < s.fsp; i++) out.push([s.fcode[i]!, s.fenv[i]!, s.fslot[i]!]);
  return out;
}

function reach(s: StateView, erased: boolean): Set<Cell> {
  const seen = new Set<Cell>();
  const todo: Cell[] = [];
  const root = (v: RV | undefined) => {
    if (v instanceof Cell && v.rc !== -1 && !seen.has(v)) {
      seen.add(v);
      todo.push(v);
    }
  };
  for (const [c, env, x] of parts(s)) for (const slot of erased ? c.fvErased : c.fv) if (slot !== x) root(env[slot]);
  root(s.ret);
  if (!erased) for (let i = 0; i < s.pn; i++) root(s.pend[i]);
  while (todo.length > 0) {
    const c = todo.pop()!;
    if (c.rc > 0) for (const f of c.fields) root(f);
  }
  return seen;
}

/** How far the per-step checks went ([RC-CHECK-BUDGET]). */
export interface CheckCoverage {
  /** states checked, from the first on, with no state skipped */
  readonly states: number;
  /** work spent: the frames, pending drops and live cells each check walked */
  readonly work: number;
  /** set when the budget ran out: the first step left unchecked (every later one is unchecked too) */
  readonly stoppedAt?: number;
}

export interface StepChecker {
  readonly check: StepCheck;
  readonly coverage: () => CheckCoverage;
}

/**
 * The per-step checks, with a budget of work (implements [RC-CHECK-BUDGET]). Each check walks the
 * whole state, so a run of n steps over a state of size m costs n·m: a recursion 10,000 deep ran
 * for minutes. Once the budget is spent the checks stop, and the coverage says at which step:
 * the states before it were all checked, the rest none.
 */
export function stepChecker(which: ReadonlySet<CheckName>, maxWork = Infinity): StepChecker {
  let states = 0;
  let work = 0;
  let stoppedAt: number | undefined;
  const checkState = stateChecker(which);
  return {
    check: (s, step, rule) => {
      if (stoppedAt !== undefined) return undefined;
      const cost = which.size * (s.fsp + s.pn + s.live.size + 1);
      if (work + cost > maxWork) {
        stoppedAt = step;
        return undefined;
      }
      work += cost;
      states++;
      return checkState(s, step, rule);
    },
    coverage: () => ({ states, work, ...(stoppedAt !== undefined ? { stoppedAt } : {}) }),
  };
}

function stateChecker(which: ReadonlySet<CheckName>): StepCheck {
  return (s, step, rule) => {
    const at = `step ${step} [${rule}]`;
    if (which.has('counts')) {
      const refs = new Map<Cell, number>();
      for (const [c, env, x] of parts(s)) for (const [slot, n] of c.own) if (slot !== x) addRef(refs, env[slot], n);
      addRef(refs, s.ret, 1);
      for (let i = 0; i < s.pn; i++) addRef(refs, s.pend[i], 1);
      const fromExpr = new Map(refs);
      for (const c of s.live) if (c.rc > 0) for (const f of c.fields) addRef(refs, f, 1);
      for (const [c, n] of refs) {
        if (c.rc === FREED) return { check: 'soundness', message: `${at}: ${showCell(c)} is referenced ${n} time(s) after it was freed` };
      }
      for (const c of s.live) {
        const n = refs.get(c) ?? 0;
        if (c.rc === RESERVED) {
          if (n !== 1 || fromExpr.get(c) !== 1) return { check: 'counts', message: `${at}: reuse cell ${showCell(c)} must be held by exactly one token, found ${n} reference(s)` };
        } else if (c.rc !== n) return { check: 'counts', message: `${at}: ${showCell(c)} has count ${c.rc} but ${n} reference(s)` };
      }
    }
    if (which.has('garbage')) {
      const r = reach(s, false);
      for (const c of s.live) if (!r.has(c)) return { check: 'garbage', message: `${at}: ${showCell(c)} is unreachable (garbage, theorem 4.2)` };
    }
    if (which.has('precision') && s.pn === 0 && !(s.code && isRcInstruction(redex(s.code)))) {
      const r = reach(s, true);
      for (const c of s.live) if (c.rc > 0 && !r.has(c)) return { check: 'precision', message: `${at}: ${showCell(c)} is unreachable from the erased expression (not garbage free, theorem 4.4)` };
    }
    return undefined;
  };
}

/** Parses a `--check` list: names from CHECKS, or `all`. */
export function parseChecks(text: string): Set<CheckName> | string {
  const out = new Set<CheckName>();
  for (const w of text.split(',').map((x) => x.trim()).filter(Boolean)) {
    if (w === 'all') CHECKS.forEach((c) => out.add(c));
    else if ((CHECKS as readonly string[]).includes(w)) out.add(w as CheckName);
    else return w;
  }
  return out;
}
