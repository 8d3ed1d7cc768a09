// The flow of a program through refsem, in the order of thesis ch. 2, one named step each:
//
//   parse (§2.4.1) → validate (defs. 2.7–2.10) → lower (fig. 2.9) → schedule (§2.8, one
//   directive at a time) → query (fig. 2.10a) → complete (§2.7, def. 2.4) → run (fig. 2.8)
//   → compare (defs. 2.1–2.3)
//
// Every command, the fuzz campaigns, the code generator, the reports and the benchmarks go through
// these functions, so the pass order is written down once, here. Each step is a pure function of
// its inputs; what reads files or loads plug-ins stays at the edge (src/node/), and a caller that
// wants to watch the flow (print each T_i, check lemmas, time the steps) passes an observer.
import type { Input, Pipeline } from './alg-semantics/ast.js';
import { parsePipeline } from './alg-semantics/parse.js';
import { validatePipeline } from './alg-semantics/validate.js';
import { type BoundsEngine, BUILTIN_ENGINES, type CompletedProgram, completeProgram } from './bounds/engine.js';
import { extractQuery, type Query } from './bounds/query.js';
import { type Verdict, type VerdictOptions, verdictFor } from './lowering/equivalence.js';
import { lower } from './lowering/lower.js';
import { applySchedule, requireInvariants } from './schedule/apply.js';
import type { DirectiveCall, Schedule } from './schedule/plugin.js';
import type { TgtProgram } from './target-semantics/ast.js';
import { execTgt, type RunOptions } from './target-semantics/exec.js';
import { type MachineOptions, runMachine } from './target-semantics/machine.js';
import type { Outcome } from './target-semantics/outcome.js';
import { parseTgt } from './target-semantics/parse.js';

/** What happened at one step of the flow. */
export type FlowEvent =
  | { readonly step: 'parse'; readonly file: string }
  | { readonly step: 'validate'; readonly pipeline: Pipeline }
  | { readonly step: 'lower'; readonly t: TgtProgram }
  | { readonly step: 'directive'; readonly call: DirectiveCall; readonly t: TgtProgram; readonly pipeline?: Pipeline }
  | { readonly step: 'query'; readonly query: Query }
  | { readonly step: 'complete'; readonly t: CompletedProgram }
  | { readonly step: 'run'; readonly outcome: Outcome }
  | { readonly step: 'compare'; readonly verdict: Verdict };

/** Watches the flow: called after each step with what it produced and how long it took. */
export interface FlowObserver {
  onStep(event: FlowEvent, ms: number): void;
}

/** Observers called in order; a throwing observer stops the flow (that is how checks fail it). */
export function observers(...list: readonly (FlowObserver | undefined)[]): FlowObserver {
  return { onStep: (e, ms) => list.forEach((o) => o?.onStep(e, ms)) };
}

/**
 * Checks lemmas 2.4 (loop naming) and 2.5 (dominance) after every directive. A directive that
 * breaks one is reported: at the user's directive when it came from a plug-in, as an internal
 * error when it is a built-in (`refsem schedule --check`, and every schedule the tests apply).
 */
export const lemmaCheck: FlowObserver = {
  onStep(e) {
    if (e.step === 'directive') requireInvariants(e.t, e.call, e.pipeline);
  },
};

/** Step durations by step name, for benchmarks and `--timings`-style reports. */
export function timings(into: Map<FlowEvent['step'], number>): FlowObserver {
  return { onStep: (e, ms) => void into.set(e.step, (into.get(e.step) ?? 0) + ms) };
}

function timed<T>(observer: FlowObserver | undefined, f: () => T, event: (r: T) => FlowEvent): T {
  if (!observer) return f();
  const t0 = performance.now();
  const r = f();
  observer.onStep(event(r), performance.now() - t0);
  return r;
}

/** A source text and the file it came from (for locations). */
export interface Source {
  readonly text: string;
  readonly file: string;
}

/** §2.4.1: the algorithm's syntax. */
export function parse(src: Source, observer?: FlowObserver): Pipeline {
  return timed(observer, () => parsePipeline(src.text, src.file), () => ({ step: 'parse', file: src.file }));
}

/** Defs. 2.7–2.10: the pipeline is valid (every violation is a located error). */
export function validate(p: Pipeline, observer?: FlowObserver): Pipeline {
  return timed(observer, () => (validatePipeline(p), p), (pipeline) => ({ step: 'validate', pipeline }));
}

/** Fig. 2.9: T0, the default schedule with bounds holes. */
export function lowerStep(p: Pipeline, observer?: FlowObserver): TgtProgram {
  return timed(observer, () => lower(p), (t) => ({ step: 'lower', t }));
}

/**
 * §2.8: T1 … Tn, one directive at a time; the observer sees each T_i. `known(i)` is T_{i+1} when
 * the caller kept it from an earlier run of the same first i + 1 directives on `t`.
 */
export function schedule(t: TgtProgram, s: Schedule, pipeline?: Pipeline, observer?: FlowObserver, known?: (i: number) => TgtProgram | undefined): TgtProgram {
  let t0 = performance.now();
  return applySchedule(t, s, {
    ...(pipeline ? { pipeline } : {}),
    ...(known ? { known } : {}),
    ...(observer
      ? {
          onStep: (call, ti) => {
            const now = performance.now();
            observer.onStep({ step: 'directive', call, t: ti, ...(pipeline ? { pipeline } : {}) }, now - t0);
            t0 = performance.now();
          },
        }
      : {}),
  });
}

/** Fig. 2.10a: the bounds query 𝓑(T). */
export function query(t: TgtProgram, observer?: FlowObserver): Query {
  return timed(observer, () => extractQuery(t), (q) => ({ step: 'query', query: q }));
}

/** Def. 2.4 lifted (§2.7.2): [Γ]T from the engine's answer, or `assert 0` with the engine's explanation. */
export function complete(t: TgtProgram, engine: BoundsEngine, observer?: FlowObserver): CompletedProgram {
  return timed(observer, () => completeProgram(t, engine), (done) => ({ step: 'complete', t: done }));
}

export interface RunStepOptions extends RunOptions {
  /** the fast executor (default) or the small-step machine of fig. 2.8 */
  readonly executor?: 'fast' | 'machine';
  /** each rule the machine applies (the machine only) */
  readonly onStep?: MachineOptions['onStep'];
}

/** Fig. 2.8: the completed program on an input. */
export function run(t: TgtProgram, input: Input, opts: RunStepOptions = {}, observer?: FlowObserver): Outcome {
  const { executor, onStep, ...rest } = opts;
  const go = () => (executor === 'machine' ? runMachine(t, input, { ...rest, ...(onStep ? { onStep } : {}) }) : execTgt(t, input, rest));
  return timed(observer, go, (outcome) => ({ step: 'run', outcome }));
}

/** Defs. 2.1–2.3: the verdict of a completed program against its algorithm on an input. */
export function compare(p: Pipeline, t: TgtProgram, input: Input, opts: VerdictOptions = {}, observer?: FlowObserver): Verdict {
  return timed(observer, () => verdictFor(p, t, input, opts), (verdict) => ({ step: 'compare', verdict }));
}

// The common paths, composed from the steps above.

/** parse → validate: a valid algorithm. */
export function algorithm(src: Source, observer?: FlowObserver): Pipeline {
  return validate(parse(src, observer), observer);
}

/** What a program is given as: an algorithm, or a hand-written target program (with its algorithm when known). */
export type ProgramInput =
  | { readonly algorithm: Pipeline }
  | { readonly target: TgtProgram; readonly algorithm?: Pipeline };

/** A target program read from text (`.tgt`), checked to be well formed. */
export function targetProgram(src: Source): TgtProgram {
  return parseTgt(src.text, src.file);
}

/** T0: the target program as given, or the algorithm lowered. */
export function initialProgram(input: ProgramInput, observer?: FlowObserver): TgtProgram {
  return 'target' in input ? input.target : lowerStep(input.algorithm, observer);
}

/** Lower (when given an algorithm) and schedule: Tn, still with its holes. */
export function scheduled(input: ProgramInput, s: Schedule | undefined, observer?: FlowObserver): TgtProgram {
  const t = initialProgram(input, observer);
  return s ? schedule(t, s, input.algorithm, observer) : t;
}

/** Lower, schedule and complete: the program that runs (β0 unless another engine is given). */
export function completed(input: ProgramInput, s: Schedule | undefined, engine: BoundsEngine = BUILTIN_ENGINES.beta0!, observer?: FlowObserver): CompletedProgram {
  return complete(scheduled(input, s, observer), engine, observer);
}
