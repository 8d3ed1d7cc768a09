// `refsem reduce`: shrinks a failing case of one's own (an algorithm, a schedule, an input) the way
// a campaign shrinks the cases it generates, but on the text, since a hand-written case has no
// blueprint: schedule calls are dropped, update stages removed, expressions replaced by one of
// their operands or by 0, the window narrowed and parameters lowered — each step kept only when
// the property still fails *with the same verdict*, so that a wrong value never turns into a
// different failure (an out-of-bounds read somewhere else, say) on the way down. Last, the
// constants left in the algorithm are folded (fold.ts), under the same condition.
import type { Expr } from '../expr/ast.js';
import { cst } from '../expr/ast.js';
import { int } from '../expr/value.js';
import type { Func, Pipeline, Stage } from '../alg-semantics/ast.js';
import { printPipeline } from '../alg-semantics/print.js';
import { parsePipeline } from '../alg-semantics/parse.js';
import { CLI_LOC, UserError } from '../diag.js';
import { evaluateAsync, sameFailure } from './check.js';
import type { FuzzEnv } from './env.js';
import { foldedText } from './fold.js';
import type { AnyProperty, CaseText, Failure, InputText } from './property.js';

export interface ReduceResult {
  readonly verdict: string;
  readonly text: CaseText;
  /** accepted reduction steps, and candidates tried */
  readonly steps: number;
  readonly tried: number;
  readonly original: { readonly programChars: number; readonly scheduleCalls: number; readonly points: bigint };
  readonly reduced: { readonly programChars: number; readonly scheduleCalls: number; readonly points: bigint };
}

/** Bounds on the search, so a slow property cannot make reduction run for ever. */
export interface ReduceBudget {
  readonly maxTries: number;
  readonly ms: number;
}

export const DEFAULT_REDUCE: ReduceBudget = { maxTries: 2000, ms: 120_000 };

/** The failure of a case, or undefined when it does not fail (or cannot even be stated). */
async function failureOf(prop: AnyProperty, t: CaseText, env: FuzzEnv): Promise<Failure | undefined> {
  let c: unknown;
  try {
    c = prop.decode(t, env);
  } catch {
    return undefined;
  }
  const r = await evaluateAsync(prop, c, env);
  return r.status === 'fail' ? r : undefined;
}

const lines = (s: string | undefined) => (s ?? '').split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('//'));
const points = (i: InputText | undefined) => (i?.window ?? []).reduce((n, [, l]) => n * (BigInt(l) > 0n ? BigInt(l) : 0n), 1n);
const measure = (t: CaseText) => ({ programChars: (t.program ?? '').length, scheduleCalls: lines(t.schedule).length, points: points(t.input) });

export async function reduceCase(prop: AnyProperty, start: CaseText, env: FuzzEnv, budget: ReduceBudget = DEFAULT_REDUCE, onStep: (steps: number, tried: number) => void = () => {}): Promise<ReduceResult> {
  const failure = await failureOf(prop, start, env);
  if (failure === undefined) {
    throw new UserError(`nothing to reduce: the case passes property ${prop.name}`, CLI_LOC, 'reduce shrinks a failing case: check the verdict with refsem exec … --compare, or name the property that fails with --property');
  }
  let cur = start;
  let steps = 0;
  let tried = 0;
  const deadline = Date.now() + budget.ms;
  const attempt = async (cand: CaseText): Promise<boolean> => {
    tried++;
    const f = await failureOf(prop, cand, env);
    if (f === undefined || !sameFailure(f, failure)) return false;
    cur = cand;
    steps++;
    onStep(steps, tried);
    return true;
  };
  const inBudget = () => tried < budget.maxTries && Date.now() <= deadline;
  for (let progress = true; progress && inBudget();) {
    progress = false;
    for (const cand of candidates(cur)) {
      if (!inBudget()) break;
      if (await attempt(cand)) {
        progress = true;
        break;
      }
    }
  }
  // One candidate more, whatever the budget: folding is what makes the result readable.
  const folded = foldedText(cur);
  if (folded !== undefined) await attempt(folded);
  return { verdict: failure.verdict, text: cur, steps, tried, original: measure(start), reduced: measure(cur) };
}

/** Smaller cases, most promising first: whole schedule calls, whole stages, then expressions and the input. */
function* candidates(t: CaseText): Generator<CaseText> {
  const sched = lines(t.schedule);
  for (let i = sched.length - 1; i >= 0; i--) yield { ...t, schedule: [...sched.slice(0, i), ...sched.slice(i + 1)].join('\n') };
  // Smaller programs need not be valid: decoding a candidate checks validity, and an invalid one
  // is simply not taken.
  if (t.program !== undefined) for (const q of smallerPipelines(parsePipeline(t.program, '<reduce>'))) yield { ...t, program: printPipeline(q) };
  if (t.input) yield* smallerInputs(t);
}

/** The pipeline without one update stage, or with one expression replaced by something smaller. */
function* smallerPipelines(p: Pipeline): Generator<Pipeline> {
  const withFunc = (i: number, f: Func): Pipeline => ({ ...p, funcs: p.funcs.map((g, j) => (j === i ? f : g)) });
  for (let i = p.funcs.length - 1; i >= 0; i--) {
    const f = p.funcs[i]!;
    for (let s = f.stages.length - 1; s >= 1; s--) yield withFunc(i, { ...f, stages: f.stages.filter((_, k) => k !== s) });
  }
  for (let i = p.funcs.length - 1; i >= 0; i--) {
    const f = p.funcs[i]!;
    for (let s = 0; s < f.stages.length; s++) {
      const st = f.stages[s]!;
      for (const rhs of smallerExprs(st.rhs)) yield withFunc(i, { ...f, stages: f.stages.map((x, k): Stage => (k === s ? { ...st, rhs } : x)) });
    }
  }
}

/** An expression replaced, at one node, by one of its operands or by 0 (outermost nodes first). */
function* smallerExprs(e: Expr): Generator<Expr> {
  if (!(e.k === 'const' && (e.value === 0 || e.value === 0n))) yield cst(int(0));
  if (e.k === 'op') {
    for (const a of e.args) yield a;
    for (let i = 0; i < e.args.length; i++) {
      for (const a of smallerExprs(e.args[i]!)) yield { ...e, args: e.args.map((x, j) => (j === i ? a : x)) };
    }
  }
}

/** A narrower window (each dimension halved towards one point, or moved towards 0) or smaller parameters. */
function* smallerInputs(t: CaseText): Generator<CaseText> {
  const z = t.input!;
  const withWindow = (d: number, m: bigint, l: bigint): CaseText => ({ ...t, input: { ...z, window: z.window.map((w, i) => (i === d ? [m.toString(), l.toString()] as const : w)) } });
  for (let d = 0; d < z.window.length; d++) {
    const [m, l] = z.window[d]!.map((x) => BigInt(x)) as [bigint, bigint];
    if (l > 1n) {
      yield withWindow(d, m, l / 2n);
      yield withWindow(d, m + l / 2n, l - l / 2n);
      yield withWindow(d, m, l - 1n);
      yield withWindow(d, m + 1n, l - 1n);
    }
    if (m !== 0n) yield withWindow(d, m > 0n ? m - 1n : m + 1n, l);
  }
  for (const [k, v] of Object.entries(z.params)) {
    const n = BigInt(v);
    for (const smaller of [0n, n / 2n, n > 0n ? n - 1n : n + 1n]) {
      if (smaller !== n && (smaller < 0n ? -smaller : smaller) < (n < 0n ? -n : n)) yield { ...t, input: { ...z, params: { ...z.params, [k]: smaller.toString() } } };
    }
  }
}
