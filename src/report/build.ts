// The report of one program: what `refsem html` writes and the playground shows. It runs the
// flow of a program (thesis ch. 2): parse and validate (§2.4), lower (fig. 2.9), apply the
// schedule directive by directive (§2.8), extract the bounds query and complete it with an engine
// (§2.7), realize the algorithm and run the completed program (fig. 2.8), and derive one point
// (fig. 2.6). Every step's failure becomes a located message in the report, never an exception,
// so a half-written program in the playground still shows what can be shown.
import type { Pipeline } from '../alg-semantics/ast.js';
import { type Realization, realize } from '../alg-semantics/fast-eval.js';
import { derivePoint, type Derivation, parsePoint } from '../alg-semantics/spec-eval.js';
import { type BoundsEngine, BUILTIN_ENGINES } from '../bounds/engine.js';
import { printQuery } from '../bounds/query.js';
import { showVerdict, verdictOfRuns } from '../lowering/equivalence.js';
import { algorithm, complete, lowerStep, query, run, schedule } from '../pipeline.js';
import { UserError } from '../diag.js';
import { holeKey } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import { showValue, type Int } from '../expr/value.js';
import { builtinRegistry } from '../schedule/builtins.js';
import { readSchedule } from '../schedule/halide-style.js';
import type { DirectiveRegistry } from '../schedule/plugin.js';
import { callPlace, printCall } from '../schedule/print.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import type { MemEvent } from '../target-semantics/machine.js';
import { showOutcome } from '../target-semantics/display.js';
import { holesOf } from '../target-semantics/holes.js';
import { printTgt, printTgtLines } from '../target-semantics/print.js';
import { firstTileWindow, iterationSpace, runWithSpace, type IterationSpace } from './iteration-space.js';
import { loopTree, type LoopTree } from './loop-tree.js';
import { diffTrees, type TreeChange } from './tree-diff.js';
import type { DerivationNode, MachineStep, ProgramStep, ReportModel, RuleRef, StepMem } from './model.js';

export interface ReportRequest {
  readonly source: { readonly file: string; readonly text: string };
  readonly schedule?: { readonly file: string; readonly text: string };
  /** [min, len] per output dimension; default `DEFAULT_WINDOW` in each */
  readonly window?: readonly (readonly [number, number])[];
  readonly params?: Readonly<Record<string, number>>;
  /** default beta1 (sound, and seldom gives up) */
  readonly engine?: BoundsEngine;
  /** the point to derive, e.g. `f(1, 2)`; default the window's first point of the output */
  readonly point?: string;
  /** the window the machine steps through; default its first points (`stepWindowOf`) */
  readonly stepWindow?: readonly (readonly [number, number])[];
  /** directives besides the built-ins (plug-ins loaded by the caller) */
  readonly registry?: DirectiveRegistry;
  /** steps each evaluation of the window (reference, target, derivation) may take; default `REPORT_LIMITS.evalSteps` */
  readonly budget?: number;
  /**
   * false: no machine; `kept`: the machine only if the cache holds its run for this input (the
   * playground shows the rest first and runs the machine after); default true
   */
  readonly machine?: boolean | 'kept';
  /**
   * `kept`: the bounds, the run of Tn and the machine only if the cache holds them, else the
   * report says they come `later` (the playground shows T0 … Tn first); default true
   */
  readonly bounds?: true | 'kept';
  /** `every`: the iteration-space picture of each of T0 … Tn, not only of the last ([REPORT-SPACE-EACH]) */
  readonly pictures?: 'last' | 'every';
}

/** The output window of a report when none is given, per dimension. */
export const DEFAULT_WINDOW = { min: 0, len: 8 } as const;

/** The first points of a window, few enough to step through: four in one dimension, two per dimension beyond. */
export function stepWindowOf(window: readonly (readonly [number, number])[]): (readonly [number, number])[] {
  return window.map(([m, l]) => [m, Math.min(l, window.length > 1 ? 2 : 4)] as const);
}

/** The first tile's box when it has few enough points to step through (implements [REPORT-STEP-WINDOW]). */
function tileStepWindow(space: IterationSpace | undefined): [number, number][] | undefined {
  const box = space && firstTileWindow(space);
  return box && box.reduce((n, [, l]) => n * l, 1) <= REPORT_LIMITS.stepPoints ? box : undefined;
}

/**
 * Limits that keep a report small enough to read and to compute in a moment. The Halide machine
 * may take enough steps for one whole tile of a Harris-sized pipeline ([REPORT-STEP-WINDOW]); the
 * heap machine draws a graph per step, so it stops sooner.
 */
export const REPORT_LIMITS = { machineSteps: 100_000, heapSteps: 5_000, derivationSteps: 30_000, derivationNodes: 3_000, derivationDepth: 3, stepPoints: 64, evalSteps: 10_000_000 } as const;

const message = (e: unknown): string => (e instanceof UserError ? e.render() : `internal error: ${(e as Error)?.message ?? String(e)}`);

/**
 * What the playground keeps between two builds of a report: each stage's last input and result.
 * An edit recomputes only the stages whose input it changed (implements [REPORT-INCREMENTAL]): a
 * new point derives again and reuses T0 … Tn, the bounds and the runs; a new window runs again and
 * reuses the schedule. A stage's result is the same object while its input is the same, so the
 * renderer can reuse the HTML it wrote for it.
 */
export class ReportCache {
  private readonly last = new Map<string, { readonly key: string; readonly value: unknown }>();

  private readonly recalled = new Map<string, unknown>();

  /**
   * A value kept by its key across builds, for what several inputs of a stage share: each of
   * T0 … Tn by the directives that made it, and the bounds and runs of a program, so an edit of a
   * schedule's line k applies only the directives from line k on, and an edit that leads back to a
   * program seen before reuses its bounds and runs. The oldest go past 512.
   */
  recall<T>(key: string, f: () => T): T {
    if (this.recalled.has(key)) return this.recalled.get(key) as T;
    const value = f();
    if (this.recalled.size >= 512) this.recalled.delete(this.recalled.keys().next().value!);
    this.recalled.set(key, value);
    return value;
  }

  /** The value kept by `key`, if any. */
  held<T>(key: string): T | undefined {
    return this.recalled.get(key) as T | undefined;
  }

  /** The stage's last result if its key was `key`. */
  kept<T>(name: string, key: string): T | undefined {
    const hit = this.last.get(name);
    return hit && hit.key === key ? (hit.value as T) : undefined;
  }

  /** The stage's result for `key`: the last one if its key was the same, else `f()`. */
  stage<T>(name: string, key: string, f: () => T): T {
    const hit = this.last.get(name);
    if (hit && hit.key === key) return hit.value as T;
    const value = f();
    this.last.set(name, { key, value });
    return value;
  }
}

/** A build without a cache computes every stage. */
const NO_CACHE = { stage: <T>(_name: string, _key: string, f: () => T): T => f(), kept: () => undefined, recall: <T>(_key: string, f: () => T): T => f(), held: () => undefined };

type Cache = Pick<ReportCache, 'stage' | 'kept' | 'recall' | 'held'>;

/** Identities of objects that are part of a stage's input (registries, engines): equal ids, same object. */
const ids = new WeakMap<object, number>();
let nextId = 1;
const idOf = (o: object | undefined): string => {
  if (!o) return '-';
  if (!ids.has(o)) ids.set(o, nextId++);
  return String(ids.get(o));
};

/** A stage's messages: errors and notes, in the order the flow met them. */
interface Said {
  readonly errors: readonly string[];
  readonly notes: readonly string[];
}

const rule = (id: string): RuleRef => ({ id });

/** The report of an algorithm with an optional schedule; never throws on bad input. */
export function buildReport(req: ReportRequest, cache: Cache = NO_CACHE): ReportModel {
  const errors: string[] = [];
  const notes: string[] = [];
  const base = { title: `refsem report: ${req.source.file}${req.schedule ? ` with ${req.schedule.file}` : ''}`, source: req.source };
  const heard = (s: Said) => (errors.push(...s.errors), notes.push(...s.notes));

  const srcKey = sourceKey(req);
  const front = cache.stage('algorithm', srcKey, () => frontStage(req.source));
  heard(front);
  if (!front.alg) return { ...base, errors, notes, programs: [] };
  const alg = front.alg;
  const funcs = alg.funcs.map((f) => f.name);
  const none: Said & Partial<Pick<ReportModel, 'output' | 'space' | 'verdict'>> = { errors: [], notes: [] };
  const schedKey = scheduleKey(req);
  const scheduled = cache.stage('schedule', schedKey, () => scheduleStage(alg, front.t0!, req, cache));
  heard(scheduled);
  const programs = scheduled.programs;
  if (!scheduled.t) return { ...base, funcs, errors, notes, programs };

  // The stages after the schedule are kept by the program that runs (its key), not by the
  // schedule's text: T_n and its runs are reused when an edit leaves it as it was.
  const engine = req.engine ?? BUILTIN_ENGINES.beta1!;
  const doneKey = `${scheduled.key}\0${idOf(engine)}`;
  const { window, params, key: inputKey, notes: unset } = inputOf(alg, req);
  notes.push(...unset);
  const evalSteps = req.budget ?? REPORT_LIMITS.evalSteps;
  // the algorithm realized on the window, whatever the schedule
  const reference = cache.stage('reference', `${srcKey}\0${inputKey}`, () => referenceStage(alg, { window, params }, evalSteps));
  heard(reference);
  const { output } = reference;
  const derive = () => cache.stage('derivation', `${srcKey}\0${inputKey}\0${req.point ?? '-'}`, () => derivationStage(alg, params, req.point ?? `${alg.output}(${window.map(([m]) => m).join(', ')})`, evalSteps));
  const boundsKey = `bounds\0${doneKey}`;
  const runsKey = `runs\0${doneKey}\0${inputKey}`;
  if (req.bounds === 'kept' && (!cache.held(boundsKey) || (reference.ref && !cache.held(runsKey)))) {
    const { derivation, ...said } = derive();
    heard(said);
    return { ...base, funcs, errors, notes, programs, later: true, ...(output ? { output } : {}), ...(derivation ? { derivation } : {}) };
  }
  const { completed, bounds } = cache.recall(boundsKey, () => boundsStage(scheduled.t!, engine));
  const runs = reference.ref ? cache.recall(runsKey, () => runStage(alg, reference.ref!, completed, { window, params }, evalSteps)) : none;
  heard(runs);
  const stepWindow = req.stepWindow ?? tileStepWindow(runs.space) ?? stepWindowOf(window);
  const machineKey = `${doneKey}\0${JSON.stringify(stepWindow)}\0${JSON.stringify([...params])}`;
  const stepped = req.machine === false ? none : req.machine === 'kept' ? cache.kept<Said>('machine', machineKey) ?? none : cache.stage('machine', machineKey, () => machineStage(completed, stepWindow, params));
  heard(stepped);
  const derived = derive();
  heard(derived);
  const pictures = req.pictures === 'every' ? scheduled.ts.map((_, i) => ({ label: programs[i]!.label, ...pictureStage(scheduled.ts[i]!, engine, { window, params }) })) : undefined;
  const { space, verdict } = runs;
  const { machine } = stepped as Pick<ReportModel, 'machine'>;
  const { derivation } = derived;
  return { ...base, funcs, errors, notes, programs, bounds, ...(output ? { output } : {}), ...(space ? { space } : {}), ...(pictures ? { pictures } : {}), ...(verdict ? { verdict } : {}), ...(machine ? { machine } : {}), ...(derivation ? { derivation } : {}) };
}

const sourceKey = (req: ReportRequest) => `${req.source.file}\0${req.source.text}`;
const scheduleKey = (req: ReportRequest) => `${sourceKey(req)}\0${req.schedule ? `${req.schedule.file}\0${req.schedule.text}` : '-'}\0${idOf(req.registry)}`;

/** The window and parameters a report runs on, a parameter not given being 4 (with a note). */
function inputOf(alg: Pipeline, req: ReportRequest): { window: readonly (readonly [number, number])[]; params: Map<string, Int>; key: string; notes: string[] } {
  const out = alg.funcs.find((f) => f.name === alg.output)!;
  const window = req.window ?? out.vars.map(() => [DEFAULT_WINDOW.min, DEFAULT_WINDOW.len] as const);
  const params = new Map<string, Int>(Object.entries(req.params ?? {}).map(([k, v]) => [k, v]));
  const notes: string[] = [];
  for (const p of alg.params) if (!params.has(p)) (params.set(p, 4), notes.push(`parameter ${p} is not given; the report uses ${p} = 4`));
  return { window, params, notes, key: `${JSON.stringify(window)}\0${JSON.stringify([...params])}\0${req.budget ?? REPORT_LIMITS.evalSteps}` };
}

/** Parse and validate (§2.4), and lower to T0 (fig. 2.9). */
function frontStage(source: ReportRequest['source']): Said & { alg?: Pipeline; t0?: TgtProgram } {
  try {
    const alg = algorithm(source);
    return { errors: [], notes: [], alg, t0: lowerStep(alg) };
  } catch (e) {
    return { errors: [message(e)], notes: [] };
  }
}

/** A program of the schedule as the cache keeps it: T_i, its text and loop nest, and what its directive changed in T_{i-1}'s. */
interface Kept {
  readonly t: TgtProgram;
  readonly text: string;
  readonly tree: LoopTree;
  readonly changes?: readonly TreeChange[];
}

/**
 * T0 … Tn, one directive at a time (§2.8). `t` is the program the rest of the report runs; none
 * after an internal error. A refused directive leaves the last program the schedule reached: the
 * report goes on with it, so the refusal is seen beside the picture of what was accepted before it.
 * `key` names `t` by T0 and the directives that made it.
 *
 * T_i is kept by T0 and the first i directives, printed (T_i is a function of those alone): an
 * edit of line k of a schedule reuses T0 … T_{k-1} and applies the directives from the k-th on,
 * and the later stages, keyed by `key`, do not notice an edit that leaves the directives as they
 * were (a comment, a blank line).
 */
function scheduleStage(alg: Pipeline, t0: TgtProgram, req: ReportRequest, cache: Cache): Said & { programs: ProgramStep[]; ts: TgtProgram[]; t?: TgtProgram; key?: string } {
  const base = `T\0${idOf(t0)}\0${idOf(req.registry)}`;
  const first = cache.recall(base, (): Kept => ({ t: t0, text: printTgt(t0), tree: loopTree(t0) }));
  const programs: ProgramStep[] = [cache.recall(`${base}\0T0`, (): ProgramStep => ({ label: 'T0', text: first.text, tree: first.tree }))];
  const ts = [t0];
  const notes: string[] = [];
  if (!req.schedule) return { errors: [], notes, programs, ts, t: t0, key: base };
  let kept = first;
  let key = base;
  try {
    const s = readSchedule(req.schedule.text, req.schedule.file, () => t0, req.registry ?? builtinRegistry());
    // calls of a Halide-style schedule skipped because they change no value ([HALIDE-STYLE-IGNORED])
    notes.push(...(s.notes ?? []).map((n) => n.trim()));
    const keys = s.calls.reduce((ks, c) => [...ks, `${ks[ks.length - 1]}\n${printCall(c)}`], [base]);
    const t = schedule(t0, s, alg, {
      onStep: (e) => {
        if (e.step !== 'directive') return;
        const before = kept;
        key = keys[programs.length]!;
        kept = cache.recall(key, (): Kept => {
          const tree = loopTree(e.t);
          return { t: e.t, text: printTgt(e.t), tree, changes: diffTrees(before.tree, tree) };
        });
        ts.push(kept.t);
        // its heading too is the same object while its directive is written at the same place
        const c = e.call;
        const label = `T${programs.length}`;
        const directive = `${printCall(c)}   (${callPlace(c)})`;
        const k = kept;
        programs.push(cache.recall(`${key}\0${directive}`, (): ProgramStep => ({ label, directive, ...(c.directive.rule ? { rule: rule(c.directive.rule) } : {}), text: k.text, tree: k.tree, changes: k.changes! })));
      },
    }, (i) => cache.held<Kept>(keys[i + 1]!)?.t);
    return { errors: [], notes, programs, ts, t, key };
  } catch (e) {
    if (!(e instanceof UserError)) return { errors: [message(e)], notes, programs, ts };
    notes.push(`the schedule was refused; what follows is ${programs[programs.length - 1]!.label}, the last program it reached`);
    return { errors: [message(e)], notes, programs, ts, t: kept.t, key };
  }
}

/** The bounds query 𝓑(T) (fig. 2.10a) and its completion by an engine (§2.7). */
function boundsStage(t: TgtProgram, engine: BoundsEngine): { completed: TgtProgram; bounds: NonNullable<ReportModel['bounds']> } {
  const completed = complete(t, engine);
  const by = completed.completedBy;
  const bounds = {
    holes: holesOf(t).map(holeKey),
    query: printQuery(query(t), { rules: true }),
    engine: engine.name,
    completion: by.completion ? [...by.completion].map(([k, v]) => `${k} = ${printExpr(v, 'tgt')}`) : [],
    ...(by.failure !== undefined ? { failure: by.failure } : {}),
  };
  return { completed, bounds };
}

/**
 * The algorithm realized on the window (fig. 2.6): the output a report shows and the reference of
 * its comparison. A page is a summary: its evaluations are bounded, so a huge reduction domain
 * ends in a message on the page rather than in a run that never ends.
 */
function referenceStage(alg: Pipeline, input: { window: readonly (readonly [number, number])[]; params: Map<string, Int> }, evalSteps: number): Said & { ref?: Realization } & Pick<ReportModel, 'output'> {
  try {
    const ref = realize(alg, input, { maxSteps: evalSteps });
    return { errors: [], notes: [], ref, output: { func: alg.output, window: input.window, values: ref.values.map(showValue) } };
  } catch (e) {
    return { errors: [message(e)], notes: [] };
  }
}

/**
 * The completed program run on the window (fig. 2.8, within the same number of steps), compared
 * with the reference (def. 2.3), and the picture of its iteration space read off that one run.
 */
function runStage(alg: Pipeline, ref: Realization, completed: TgtProgram, input: { window: readonly (readonly [number, number])[]; params: Map<string, Int> }, evalSteps: number): Said & Pick<ReportModel, 'space' | 'verdict'> {
  try {
    const { outcome, space } = runWithSpace(completed, input, evalSteps);
    const v = verdictOfRuns(alg, ref, outcome, input);
    const verdict = { kind: v.kind === 'equal' || v.kind === 'differs' ? v.kind : ('vacuous' as const), text: showVerdict(v) };
    return { errors: [], notes: [], verdict, ...(space ? { space } : {}) };
  } catch (e) {
    return { errors: [message(e)], notes: [] };
  }
}

/**
 * The picture of one of T0 … Tn on the report's window (implements [REPORT-SPACE-EACH]): the
 * program completed by the report's engine and run, as the last one is. The playground asks for it
 * when a reader picks a program; every stage it needs comes from the cache.
 */
export function pictureOf(req: ReportRequest, index: number, cache: Cache = NO_CACHE): { space?: IterationSpace; error?: string } {
  const front = cache.stage('algorithm', sourceKey(req), () => frontStage(req.source));
  if (!front.alg) return { error: 'the algorithm has an error: no program to draw' };
  const alg = front.alg;
  const scheduled = cache.stage('schedule', scheduleKey(req), () => scheduleStage(alg, front.t0!, req, cache));
  const t = scheduled.ts[index];
  if (!t) return { error: `there is no program T${index}` };
  const engine = req.engine ?? BUILTIN_ENGINES.beta1!;
  const input = inputOf(alg, req);
  return cache.stage(`picture ${index}`, `${scheduleKey(req)}\0${idOf(engine)}\0${input.key}`, () => pictureStage(t, engine, input));
}

function pictureStage(t: TgtProgram, engine: BoundsEngine, input: { window: readonly (readonly [number, number])[]; params: Map<string, Int> }): { space?: IterationSpace; error?: string } {
  try {
    const space = iterationSpace(complete(t, engine), input);
    return space ? { space } : { error: 'the program does not run to the end on the window' };
  } catch (e) {
    return { error: message(e) };
  }
}

/** The small-step machine (fig. 2.8) on the step window, every step with its rule and memory event. */
function machineStage(completed: TgtProgram, stepWindow: readonly (readonly [number, number])[], params: Map<string, Int>): Said & Pick<ReportModel, 'machine'> {
  const stepPoints = stepWindow.reduce((n, [, l]) => n * l, 1);
  if (stepPoints > REPORT_LIMITS.stepPoints) return { errors: [`the step window has ${stepPoints} points, more than the ${REPORT_LIMITS.stepPoints} a report steps through; give a smaller window`], notes: [] };
  const steps: MachineStep[] = [];
  const program = printTgtLines(completed);
  try {
    const o = run(completed, { window: stepWindow, params }, {
      executor: 'machine',
      maxSteps: REPORT_LIMITS.machineSteps,
      onStep: (ev) => {
        const line = ev.stmt && program.lineOf.get(ev.stmt);
        steps.push({ rule: rule(ev.rule), text: `${ev.redex} ⟶ ${ev.result}`, ...(ev.mem ? { mem: stepMem(ev.mem) } : {}), ...(line !== undefined ? { line } : {}) });
      },
    });
    // The report's step limit is not a stuck state (no rule failing to apply): it says which it is.
    const limited = o.kind === 'stuck' && o.stuck.kind === 'budget-exceeded';
    const outcome = limited ? `step limit reached: the report shows the first ${REPORT_LIMITS.machineSteps} steps; no rule failed to apply, the program has more to do` : showOutcome(o);
    return { errors: [], notes: [], machine: { window: stepWindow.map(([m, l]) => `[${m}, ${m + l})`).join(' × '), program: program.text, steps, outcome, truncated: limited } };
  } catch (e) {
    return { errors: [message(e)], notes: [] };
  }
}

/**
 * The derivation of one point (fig. 2.6). One too long to show whole is shown to a depth, as
 * `refsem explain --depth` does (spec/report.md, [REPORT-PROOF]): deeper func values come from
 * the evaluator.
 */
function derivationStage(alg: Pipeline, params: ReadonlyMap<string, Int>, text: string, evalSteps: number): Said & Pick<ReportModel, 'derivation'> {
  const derivationSteps = Math.min(evalSteps, REPORT_LIMITS.derivationSteps);
  try {
    const parsed = parsePoint(text);
    if (!parsed) throw new UserError(`the point '${text}' is not a func applied to integers`, { file: '<point>', line: 1, col: 1 }, 'write e.g. f(3, -4)');
    const { func, point } = parsed;
    // Whole only when it fits the nodes a page draws: a longer one would be cut at that many nodes
    // anyway, and trying it to the full budget cost Harris ten times the depth-bounded one.
    const wholeSteps = Math.min(derivationSteps, REPORT_LIMITS.derivationNodes);
    const whole = derivePoint(alg, params, func, point, wholeSteps);
    const depth = whole.kind === 'value' ? undefined : REPORT_LIMITS.derivationDepth;
    const r = depth === undefined ? whole : derivePoint(alg, params, func, point, derivationSteps, depth);
    if (r.kind !== 'value') return { errors: [], notes: [`the derivation of ${func}(${point.join(', ')}) takes more than ${derivationSteps} steps even to depth ${depth}; choose a point of a producer with --point to see one`] };
    const budget = { left: REPORT_LIMITS.derivationNodes };
    const tree = toNode(r.tree, budget);
    return { errors: [], notes: [], derivation: { point: `${func}(${point.join(', ')})`, tree, truncated: budget.left <= 0, nodes: REPORT_LIMITS.derivationNodes, budget: wholeSteps, ...(depth !== undefined ? { depth } : {}) } };
  } catch (e) {
    return { errors: [message(e)], notes: [] };
  }
}

/** A machine step's memory event as the page keeps it: printed values (implements [REPORT-MEMORY]). */
function stepMem(e: MemEvent): StepMem {
  return e.kind === 'alloc'
    ? { kind: 'alloc', func: e.func, at: e.bounds.flatMap(([m, l]) => [String(m), String(l)]) }
    : { kind: e.kind, func: e.func, at: e.point.map(showValue), value: showValue(e.value) };
}

/** A derivation as report nodes, at most `budget.left` of them (breadth is kept, depth cut). */
function toNode(d: Derivation, budget: { left: number }): DerivationNode {
  budget.left--;
  const children = budget.left > 0 ? d.children.map((c) => toNode(c, budget)) : [];
  return { rule: rule(d.rule), text: d.text, children };
}
