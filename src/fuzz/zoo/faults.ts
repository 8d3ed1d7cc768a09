// The bug zoo: planted faults modelled on real history (thesis §2.9 and Halide's issue tracker).
// Each fault is a plug-in directive or a switch on a copy of a component, planted into a campaign's
// environment only when that campaign names it (`EnvConfig.fault`); `npm run zoo` measures how
// long the default fuzzers take to find each one.
import { checkPipeline } from '../../alg-semantics/validate.js';
import type { Pipeline } from '../../alg-semantics/ast.js';
import type { CodegenFaults } from '../../codegen/c-syntax.js';
import { UserError } from '../../diag.js';
import type { Directive } from '../../schedule/plugin.js';
import type { FuzzEnv } from '../env.js';
import { scheduleDriver } from '../gen/driver.js';
import { execNegativeAsZero, execNonTotalDivision, indexAccessesUnforced, offByOnePlus, shortUnderNesting } from './components.js';
import {
  computeAtOneConsumer, computeWithLike, fuseDropsGuard, parallelAny, splitForgetsMin, splitGuardLe, splitRoundUpdate, splitShiftUpdate, storeAtAnywhere, storeAtReuse, swapReductionLoops,
} from './directives.js';
import { DirectiveRegistry } from '../../schedule/plugin.js';
import { parseRules } from '../../simplify/parse-rules.js';
import { ruleSet } from '../../simplify/rule.js';
import type { StageHooks } from '../../perceus/pipeline.js';
import { doubleDropUnused, keepOtherPosition, skipCaptureDup, tokenInLambda } from './perceus-faults.js';
import { BUILTINS } from '../../schedule/builtins.js';
import { FPIR_FAULTS, type FpirFault } from '../../fpir/faults.js';
import type { BoundsEngine } from '../../bounds/engine.js';
import { ENGINE_CULPRIT } from '../check.js';
import { minAsIntersection, selectThenOnly } from './engine-faults.js';

export interface Fault {
  readonly name: string;
  /** what real bug it imitates */
  readonly history: string;
  /** the properties a detection campaign runs */
  readonly properties: readonly string[];
  /** the planted directive, for faults that are one */
  readonly directive?: string;
  /** what a detection must be blamed on, for faults that are a plug-in engine (`engine:NAME`) */
  readonly culprit?: string;
  /** the bounds engine of the detection campaign (default β0) */
  readonly engine?: string;
  /** the planted rewrite rules, in the rule format of spec/simplify.md, for simplifier faults */
  readonly rules?: string;
  /** the compiled backend the detection campaign checks (`--backend`), for code generation faults */
  readonly backend?: 'c' | 'simd';
  plant(env: FuzzEnv): FuzzEnv;
}

/** Adds plug-in directives to the campaign's schedules. */
function withDirectives(env: FuzzEnv, ds: readonly Directive[]): FuzzEnv {
  const base = env.schedule?.directives ?? BUILTINS;
  return { ...env, schedule: scheduleDriver(new DirectiveRegistry([...base, ...ds])) };
}

const directiveFault = (name: string, history: string, properties: readonly string[], d: Directive): Fault => ({
  name, history, properties, directive: d.name, plant: (env) => withDirectives({ ...env, config: { ...env.config, focus: d.name } }, [d]),
});

/**
 * A bounds engine written as a plug-in is (engine-faults.ts): a detection counts only when the
 * failure is blamed on the engine rather than on a directive of the schedule.
 */
const engineFault = (name: string, history: string, engine: BoundsEngine): Fault => ({
  name, history, properties: ['memory-safety', 'confluence'], culprit: `${ENGINE_CULPRIT}${engine.name}`, plant: (env) => ({ ...env, engine }),
});

/** Validity that ignores syntactic separation inside rdom predicates (def. 2.7). */
function validityIgnoringPredicates(p: Pipeline): string[] {
  const stripped: Pipeline = { ...p, funcs: p.funcs.map((f) => ({ ...f, stages: f.stages.map((s) => ({ ...s, pred: { k: 'const', value: 1 } })) })) };
  return checkPipeline(stripped).map((e) => e.message);
}

/** A miscompilation switched on in the emitted code, found by the backend property (thesis ch. 5). */
const codegenFault = (name: string, history: string, backend: 'c' | 'simd', faults: CodegenFaults): Fault => ({
  name, history, properties: ['backend'], backend, plant: (env) => ({ ...env, codegenFaults: faults }),
});

/**
 * Wrong rewrite rules put in front of the simplifier's own, found by the `simplify` property (and
 * refuted by `refsem verify-rules`, test/simplify/prove.test.ts).
 */
const ruleFault = (name: string, history: string, rules: string): Fault => ({
  name, history, properties: ['simplify'], rules,
  plant: (env) => ({ ...env, rules: ruleSet([...parseRules(rules, `<zoo ${name}>`), ...env.rules.rules]) }),
});

/** A mistake in the Perceus translation, found by the perceus property (thesis ch. 4). */
const perceusFault = (name: string, history: string, hooks: StageHooks): Fault => ({
  name, history, properties: ['perceus'], plant: (env) => ({ ...env, perceusHooks: hooks }),
});

/** A planted fault of the FPIR instruction selector, found by the `fpir` property (spec/fpir.md). */
const fpirFault = (f: FpirFault): Fault => ({ name: f.name, history: f.history, properties: ['fpir'], plant: (env) => ({ ...env, fpirFault: f }) });

export const FAULTS: readonly Fault[] = [
  directiveFault('round-tail-update', 'split with φ_Round accepted on an update stage (§2.8.2 allows Round on pure funcs only)', ['confluence'], splitRoundUpdate),
  directiveFault('shift-tail-update', 'split with φ_Shift accepted on a func with update stages (recomputation repeats updates)', ['confluence'], splitShiftUpdate),
  // β0 gives up on a stage computed after its consumer (its holes are undetermined, §2.7.2), which
  // is vacuously confluent; β1 completes it, and the stale values show.
  { ...directiveFault('compute-with', 'the compute-with prototype moved a pure stage after an update (§2.9, "Compute-with directive")', ['confluence'], computeWithLike), engine: 'beta1' },
  directiveFault('parallel-reduction', 'parallel traversal accepted on a reduction loop (def. 2.16)', ['race-free'], parallelAny),
  directiveFault('store-at-dominance', 'store-at placed where the allocation no longer dominates every access (lemma 2.5)', ['memory-safety', 'confluence'], storeAtAnywhere),
  directiveFault('swap-reduction-loops', 'two reduction loops exchanged: an update whose result depends on the order of its rdom changes (the order of §2.4.1, [SWAP-REDUCTION])', ['confluence'], swapReductionLoops),
  directiveFault('compute-at-one-consumer', 'compute-at checked against the consumer whose loop it targets only, while a second consumer reads outside that loop (lemma 2.5)', ['memory-safety', 'confluence'], computeAtOneConsumer),
  directiveFault('store-at-sliding-window', 'store-at further out that computes the func only on the first iteration of its compute loop, assuming a sliding window nothing establishes', ['confluence'], storeAtReuse),
  directiveFault('split-guard-le', 'a guarded split whose guard is ≤ instead of <: one iteration past the end of the loop (§2.8.2, φ_Guard)', ['memory-safety', 'confluence'], splitGuardLe),
  directiveFault('fuse-drops-tail-guard', 'a fuse that drops the guard between its two loops — a split\'s tail guard — harmless on pure loops, extra updates on reduction loops with a ragged extent (§2.8.2, φ_Guard)', ['confluence', 'write-order'], fuseDropsGuard),
  engineFault('select-then-only', 'a bounds engine that bounds select(c, a, b) by a alone: wrong for boundary conditions that reflect or clamp an index in one branch (Halide\'s mirror and constant_exterior)', selectThenOnly),
  engineFault('min-as-intersection', 'a bounds engine whose interval of min(a, b) starts at the larger lower end, as the intersection of the two intervals does (once blamed on the split that exposed it)', minAsIntersection),
  directiveFault('split-forgets-min', 'a split that starts at 0 instead of the loop\'s minimum, right whenever the minimum is 0 (§2.8.2)', ['confluence'], splitForgetsMin),
  {
    name: 'bounds-under-nested-compute-at',
    history: 'a bounds engine one point short only for funcs placed two levels deep (f in g in h), right on every flatter schedule',
    properties: ['memory-safety', 'confluence'],
    plant: (env) => ({ ...env, engine: shortUnderNesting }),
  },
  {
    name: 'predicate-separation',
    history: 'validity ignored syntactic separation inside rdom predicates: racy predicates under parallel loops (§2.9, "Race conditions in rdom predicates")',
    properties: ['race-free', 'confluence'],
    plant: (env) => ({ ...env, gen: { ...env.gen, looseSeparationInPredicates: true }, validate: validityIgnoringPredicates }),
  },
  {
    name: 'interval-add-off-by-one',
    history: 'an interval rule for + one short at both ends in the bounds engine (off-by-one bounds)',
    properties: ['memory-safety', 'confluence'],
    plant: (env) => ({ ...env, engine: offByOnePlus }),
  },
  {
    name: 'index-accesses-unforced',
    history: 'accesses in indexing positions not forced into compute bounds (§2.9, "Compute bounds for indexing accesses")',
    properties: ['memory-safety', 'confluence'],
    plant: (env) => ({ ...env, engine: indexAccessesUnforced }),
  },
  {
    name: 'negative-extent-as-zero',
    history: 'loops with negative extents silently run zero times instead of failing (§2.9, "Negative rdom extents")',
    properties: ['evaluators-tgt'],
    plant: (env) => ({ ...env, exec: execNegativeAsZero }),
  },
  {
    name: 'division-not-total',
    history: 'target-only division by zero that is not the total x / 0 = 0 of §2.9 ("Arithmetic error semantics")',
    properties: ['confluence', 'evaluators-tgt'],
    plant: (env) => ({ ...env, exec: execNonTotalDivision }),
  },
  ruleFault('rule-wrong-on-errors', 'a rule true of every integer claimed for every value: x * 0 → 0, although an error value absorbs the product (def. 2.6)', 'values mul-zero-any: x * 0 -> 0;'),
  ruleFault('rule-wrong-on-zero-divisor', 'a cancellation proved with every divisor assumed non-zero, as the verifier of the TRS paper did (its §3.1): (x * y) / y → x, wrong when y = 0 (§2.9)', 'integers div-cancel-any: (x * y) / y -> x;'),
  codegenFault('c-truncating-division', "C's truncating / and % emitted for the Euclidean div and mod (§5.1)", 'c', { truncatingDiv: true }),
  codegenFault('simd-unproven-narrowing', 'vector lanes narrowed to 32 bits without a proof that the values fit (§5.1)', 'simd', { unprovenNarrowing: true }),
  codegenFault('simd-dropped-tail', 'a vector loop whose extent is no multiple of the width drops its last iterations', 'simd', { dropVectorTail: true }),
  codegenFault('simd-lane-order', 'a vector store that writes the lanes in reverse order', 'simd', { laneOrder: true }),
  codegenFault('c-unproven-storage', 'buffers keep 32-bit payloads without a proof that their values fit (§5.1)', 'c', { unprovenStorage: true }),
  perceusFault('closure-capture-dup', 'a closure captures a borrowed variable without the dup of [SLAM] (§4.3.4)', skipCaptureDup),
  perceusFault('unused-binding-double-drop', 'an unused binding dropped twice, once by [SBIND-D] and once more', doubleDropUnused),
  perceusFault('reusespec-other-position', 'reuse specialization keeps a field whose value was matched at another position (§4.2.5)', keepOtherPosition),
  perceusFault('token-in-lambda', 'a reuse token paired with a constructor inside a lambda, another activation (§4.2.4)', tokenInLambda),
  ...FPIR_FAULTS.map(fpirFault),
  { name: 'swizzle-single-cell', history: 'a viability test that wants each goal cell\'s terms at the same index of the live arrays: an abstraction that forgets where data can still move (Swizzleflow §3.2)', properties: ['swizzle-prune'], plant: (env) => ({ ...env, swizzleFault: 'single-goal-cell' }) },
];

export function faultNamed(name: string): Fault {
  const f = FAULTS.find((x) => x.name === name);
  if (!f) throw new UserError(`unknown zoo fault '${name}'`, undefined, `the faults are: ${FAULTS.map((x) => x.name).join(', ')}`);
  return f;
}
