// Output equivalence and algorithm confluence (defs. 2.1–2.3, §2.3): comparing what an algorithm
// defines on the requested window with what one run of a completed target program produced, and
// saying which clause of def. 2.3 (or which failure) the pair falls under. spec/lowering.md,
// "Verdicts", gives the classification and the reasons behind each case.
import { evalExpr } from '../expr/eval.js';
import { E_RDOM, type Int, type Value, isError, showValue } from '../expr/value.js';
import type { Input, Pipeline } from '../alg-semantics/ast.js';
import { type Realization, realize } from '../alg-semantics/fast-eval.js';
import { forEachPoint } from '../expr/window.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { execTgt } from '../target-semantics/exec.js';
import { runMachine } from '../target-semantics/machine.js';
import { type Outcome, type Stuck, bufferIndex } from '../target-semantics/outcome.js';
import { showStuck } from '../target-semantics/display.js';

export type Window = readonly (readonly [Int, Int])[];

export type Verdict =
  /** P ≃_z P' (def. 2.2): every window point agrees. */
  | { readonly kind: 'equal' }
  /** The first window point (first dimension fastest) where the values differ. */
  | { readonly kind: 'differs'; readonly point: readonly Int[]; readonly expected: Value; readonly actual: Value }
  /** Def. 2.3, first clause: the algorithm has an error value in the window. */
  | { readonly kind: 'vacuous-alg-error'; readonly point: readonly Int[]; readonly value: Value }
  /**
   * The target got stuck on ε_rdom (in control, or as a coordinate) at a point outside the window.
   * Only the algorithm's own error constants produce ε_rdom as a value, so the algorithm contains
   * errors and §2.3.2's "all bets are off" applies, though no window point shows it (spec/lowering.md).
   */
  | { readonly kind: 'vacuous-alg-error-elsewhere'; readonly stuck: Stuck }
  /** Def. 2.3, second clause: the target failed an assertion (def. 2.11). */
  | { readonly kind: 'vacuous-assertion'; readonly stuck: Stuck }
  /** An rdom failure (def. 2.12) on an input for which the algorithm has a negative rdom extent. */
  | { readonly kind: 'vacuous-rdom'; readonly stuck: Stuck; readonly rdom: string }
  /** Memory error, data race, error value in control, or an rdom failure the algorithm does not share. */
  | { readonly kind: 'unsafe'; readonly stuck: Stuck }
  /** The run finished but its output buffer does not contain this window point (def. 2.1). */
  | { readonly kind: 'window-not-covered'; readonly point: readonly Int[]; readonly bounds: readonly (readonly [Int, Int])[] }
  /** The step budget ran out: no verdict. */
  | { readonly kind: 'inconclusive'; readonly stuck: Stuck };

/** Does the verdict agree with confluence (def. 2.3)? `undefined` when there is no verdict. */
export function isConfluent(v: Verdict): boolean | undefined {
  switch (v.kind) {
    case 'equal':
    case 'vacuous-alg-error':
    case 'vacuous-alg-error-elsewhere':
    case 'vacuous-assertion':
    case 'vacuous-rdom':
      return true;
    case 'differs':
    case 'unsafe':
    case 'window-not-covered':
      return false;
    case 'inconclusive':
      return undefined;
  }
}

/** The rule of spec/lowering.md ("Verdicts") that yields each kind of verdict. */
export const VERDICT_RULE: Readonly<Record<Verdict['kind'], string>> = {
  equal: 'VERDICT-EQUAL',
  differs: 'VERDICT-DIFFERS',
  'vacuous-alg-error': 'VERDICT-ALG-ERROR',
  'vacuous-alg-error-elsewhere': 'VERDICT-ALG-ERROR-ELSEWHERE',
  'vacuous-assertion': 'VERDICT-ASSERTION',
  'vacuous-rdom': 'VERDICT-RDOM',
  unsafe: 'VERDICT-UNSAFE',
  'window-not-covered': 'VERDICT-WINDOW',
  inconclusive: 'VERDICT-BUDGET',
};

const showPoint = (c: readonly Int[]) => `(${c.join(', ')})`;

/** One line: the rule's ID, then what it found. */
export function showVerdict(v: Verdict): string {
  return `[${VERDICT_RULE[v.kind]}] ${describeVerdict(v)}`;
}

function describeVerdict(v: Verdict): string {
  switch (v.kind) {
    case 'equal':
      return 'equal: the target agrees with the algorithm on the whole window';
    case 'differs':
      return `differs at ${showPoint(v.point)}: algorithm ${showValue(v.expected)}, target ${showValue(v.actual)}`;
    case 'vacuous-alg-error':
      return `vacuous: the algorithm yields ${showValue(v.value)} at ${showPoint(v.point)}`;
    case 'vacuous-alg-error-elsewhere':
      return `vacuous: the target met the algorithm's ε_rdom outside the window: ${showStuck(v.stuck)}`;
    case 'vacuous-assertion':
      return `vacuous: ${showStuck(v.stuck)}`;
    case 'vacuous-rdom':
      return `vacuous: the algorithm's rdom ${v.rdom} has a negative extent; ${showStuck(v.stuck)}`;
    case 'unsafe':
      return `unsafe: ${showStuck(v.stuck)}`;
    case 'window-not-covered':
      return `window not covered: the output buffer ${v.bounds.map(([m, l]) => `[${m}, +${l})`).join(' × ')} lacks ${showPoint(v.point)}`;
    case 'inconclusive':
      return `inconclusive: ${showStuck(v.stuck)}`;
  }
}

export interface CompareOptions {
  /**
   * Some rdom of the algorithm has a negative extent on this input (the name of one, e.g. `f.s1.r`):
   * the algorithm's counterpart of an rdom failure (defs. 2.6, 2.12).
   */
  readonly negativeRdom?: string;
}

/**
 * Classifies one run against the algorithm's realization on `window` (defs. 2.2, 2.3). A stuck
 * run is classified before the values are looked at: memory errors and races are never excused
 * (theorem 2.1), except an out-of-bounds point made of the algorithm's own ε_rdom.
 */
export function compareOutputs(alg: Realization, run: Outcome, window: Window, opts: CompareOptions = {}): Verdict {
  if (alg.window.length !== window.length || alg.window.some(([m, l], d) => m !== window[d]![0] || l !== window[d]![1])) {
    throw new Error(`internal: realization window does not match the compared window`);
  }
  const firstError = (): Verdict | undefined => {
    let found: Verdict | undefined;
    let i = 0;
    forEachPoint(window, (c) => {
      const v = alg.values[i++]!;
      if (found === undefined && isError(v)) found = { kind: 'vacuous-alg-error', point: c as Int[], value: v };
    });
    return found;
  };
  if (run.kind === 'stuck') {
    const stuck = run.stuck;
    switch (stuck.kind) {
      case 'budget-exceeded':
        return { kind: 'inconclusive', stuck };
      case 'assert-failed':
        return { kind: 'vacuous-assertion', stuck };
      case 'rdom-failure':
        if (opts.negativeRdom !== undefined) return { kind: 'vacuous-rdom', stuck, rdom: opts.negativeRdom };
        return firstError() ?? { kind: 'unsafe', stuck };
      case 'error-in-control':
        return firstError() ?? (stuck.value === E_RDOM ? { kind: 'vacuous-alg-error-elsewhere', stuck } : { kind: 'unsafe', stuck });
      case 'oob-read':
      case 'oob-write':
        return stuck.point.includes(E_RDOM) ? firstError() ?? { kind: 'vacuous-alg-error-elsewhere', stuck } : { kind: 'unsafe', stuck };
      case 'data-race':
      case 'unallocated':
        return { kind: 'unsafe', stuck };
    }
  }
  const buf = run.output;
  const bounds = buf.dims.map((d) => [d.min, d.len] as const);
  let verdict: Verdict | undefined;
  let i = 0;
  const actual: Value[] = [];
  forEachPoint(window, (c) => {
    if (verdict) return;
    const at = bufferIndex(buf, c as Int[]);
    if (at === undefined) {
      verdict = { kind: 'window-not-covered', point: c as Int[], bounds };
    } else actual.push(buf.data[at]!);
  });
  if (verdict) return verdict;
  const err = firstError();
  if (err) return err;
  forEachPoint(window, (c) => {
    const expected = alg.values[i]!;
    const got = actual[i++]!;
    if (!verdict && expected !== got) {
      verdict = { kind: 'differs', point: c as Int[], expected, actual: got };
    }
  });
  return verdict ?? { kind: 'equal' };
}

/**
 * The first rdom of the algorithm whose extent is negative for these parameters, spelled as its
 * loop name. Rdom bounds are startup expressions (def. 2.9), so the parameters alone decide this.
 */
export function negativeRdom(p: Pipeline, params: ReadonlyMap<string, Int>): string | undefined {
  for (const f of p.funcs) {
    for (const [i, u] of f.stages.entries()) {
      for (const r of u.rdom) {
        const len = evalExpr(r.len, params);
        if (!isError(len) && len < 0) return `${f.name}.s${i}.${r.name}`;
      }
    }
  }
  return undefined;
}

export interface VerdictOptions {
  readonly executor?: 'fast' | 'machine';
  readonly seed?: number;
  readonly maxSteps?: number;
}

/** Realizes the algorithm, runs the hole-free target on the same input and compares (def. 2.3). */
export function verdictFor(p: Pipeline, t: TgtProgram, input: Input, opts: VerdictOptions = {}): Verdict {
  const alg = realize(p, input);
  const runOpts = { ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}) };
  const run = opts.executor === 'machine' ? runMachine(t, input, runOpts) : execTgt(t, input, runOpts);
  return verdictOfRuns(p, alg, run, input);
}

/** Def. 2.3 for a realization of the algorithm and a run of the target made before on `input`. */
export function verdictOfRuns(p: Pipeline, alg: Realization, run: Outcome, input: Input): Verdict {
  const neg = negativeRdom(p, input.params);
  return compareOutputs(alg, run, input.window, neg === undefined ? {} : { negativeRdom: neg });
}
