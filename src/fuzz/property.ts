// What a fuzz property is: a named claim of the thesis (thm. 2.1, thm. 2.2, def. 2.5, lemmas 2.4
// and 2.5, …) that one generated case either satisfies or refutes. The runner only sees this
// interface; generators, checks and the self-contained text of a case live with each property.
import type fc from 'fast-check';
import type { FuzzEnv } from './env.js';
import type { Stats, Vacuity } from './stats.js';

/** The result of checking one case. `discard` = the case says nothing (e.g. an evaluator budget ran out). */
export type CheckResult = (
  /** `vacuous`: the check passed without comparing any value (stats.ts, VERDICT_KEYS) */
  | { readonly status: 'pass'; readonly vacuous?: Vacuity }
  | { readonly status: 'discard'; readonly why: string }
  | {
      readonly status: 'fail';
      /** what went wrong, e.g. `wrong-value`, `oob-write`, `data-race`, `lemma-2.5`, `crash`, `timeout` */
      readonly verdict: string;
      readonly expected: string;
      readonly actual: string;
    }
) & {
  /** a finer verdict a property tallies in the campaign summary (the halide property's kinds) */
  readonly tally?: string;
};

export type Failure = Extract<CheckResult, { status: 'fail' }>;

export const PASS: CheckResult = { status: 'pass' };

/** A case as self-contained text: each field printed in its own language's concrete syntax. */
export interface CaseText {
  /** the algorithm, printed by printPipeline */
  readonly program?: string;
  /** the schedule, printed by printSchedule */
  readonly schedule?: string;
  /** a target program, printed by printTgt (target-only properties) */
  readonly target?: string;
  /** a λ1 term (the Perceus property) */
  readonly term?: string;
  /** the input z (def. 2.1): window and parameters, integers as decimal strings */
  readonly input?: InputText;
  /** anything else a property needs to rebuild the case (e.g. the parallel-order seed) */
  readonly extra?: Readonly<Record<string, string>>;
}

export interface InputText {
  readonly window: readonly (readonly [string, string])[];
  readonly params: Readonly<Record<string, string>>;
}

/**
 * A property over generated values G that are made concrete (C) before checking: e.g. G holds a
 * pipeline and random directive *choices*, C the schedule those choices denote for that pipeline.
 * Shrinking acts on G; reproducers store C as text, so they replay without the generator.
 */
export interface Property<G = unknown, C = unknown> {
  readonly name: string;
  /** one line: the claim checked, citing the thesis */
  readonly summary: string;
  arbitrary(env: FuzzEnv): fc.Arbitrary<G>;
  concretize(g: G, env: FuzzEnv): C;
  check(c: C, env: FuzzEnv): CheckResult;
  /** an asynchronous check (compiled backends); when present it is used instead of `check` */
  checkAsync?(c: C, env: FuzzEnv): Promise<CheckResult>;
  /**
   * Many cases checked together, one result per case in order: what `checkAsync` says of each, for
   * a property whose cases each compile a program, so that one compile serves them all. A result
   * may only be trusted when it passes or discards: a campaign checks a failing case again alone.
   */
  checkBatchAsync?(cs: readonly C[], env: FuzzEnv): Promise<CheckResult[]>;
  encode(c: C): CaseText;
  decode(t: CaseText, env: FuzzEnv): C;
  /** the minimized case's shape for de-duplication: constants and names abstracted */
  shape(c: C): string;
  /** the scheduling directive to blame, when the failure can be pinned on one */
  culprit?(c: C, env: FuzzEnv): string | undefined;
  /** the directives a case's schedule applies, in order (check-directive counts its directive's) */
  directivesOf?(c: C): readonly string[];
  /** counts constructs and directives of a generated case (refsem fuzz --stats) */
  observe?(c: C, stats: Stats): void;
  /**
   * The seed corpus (gen/seeded.ts), for a property whose cases may come from it: mutations of the
   * seeds (undefined when there are none yet), the blueprint of seed i as written on exact window
   * `variant`, and the name of the seed a blueprint comes from, if any. Which checks draw from the
   * corpus the campaign decides by their index (slice.ts, checkAt).
   */
  readonly seeded?: {
    arbitrary(env: FuzzEnv): fc.Arbitrary<G> | undefined;
    exact(env: FuzzEnv, i: number, variant: number): G;
    seedName(g: G, env: FuzzEnv): string | undefined;
  };
}

// The registry is heterogeneous; the runner never looks inside G or C.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyProperty = Property<any, any>;
